"""The sentence-encoder vectors kept with the catalog, on both backends: written and replaced
per paper, read back per model in paper-id order, and removed."""

from __future__ import annotations

from domain.embedding import StoredEmbedding
from tests.backends import Backend


def _row(pid: str, digest: str = "h1", seed: int = 0) -> StoredEmbedding:
    return StoredEmbedding(pid, digest, bytes([seed, 255, 1, 128]), 0.0125 + seed)


async def test_vectors_are_kept_per_model_and_replaced_per_paper(backend: Backend) -> None:
    store = backend.embeddings()
    assert await store.text_hashes("m1") == {}
    await store.write("m1", [_row("b"), _row("a", seed=2), _row("c", "h3")])
    assert await store.text_hashes("m1") == {"a": "h1", "b": "h1", "c": "h3"}
    assert await store.embeddings("m1", "", 2) == [_row("a", seed=2), _row("b")]
    assert await store.embeddings("m1", "b", 10) == [_row("c", "h3")]
    # an edited paper, then one embedded by another model: one row a paper
    await store.write("m1", [_row("b", "h9", seed=1)])
    await store.write("m2", [_row("c", "h4")])
    assert await store.text_hashes("m1") == {"a": "h1", "b": "h9"}
    assert await store.text_hashes("m2") == {"c": "h4"}
    assert (await store.embeddings("m1", "a", 1))[0].vector == bytes([1, 255, 1, 128])


async def test_removed_papers_lose_their_vectors(backend: Backend) -> None:
    store = backend.embeddings()
    await store.write("m1", [_row("a"), _row("b"), _row("c")])
    await store.remove(["a", "c", "zz"])
    assert await store.text_hashes("m1") == {"b": "h1"}
