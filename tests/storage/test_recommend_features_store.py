"""The recommendation features kept with the catalog, on both backends: a fit is current only
once finished, replaces the one before with its vectors, vectors page in paper-id order and are
replaced paper by paper, and the catalog's hashes and loads read as the papers store wrote
them."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from domain.paper import Paper
from domain.recommend import StoredVector
from tests.backends import Backend

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _vector(pid: str, digest: str = "h", seed: int = 0) -> StoredVector:
    return StoredVector(pid, digest, bytes([seed, 1, 2, 3, 0, 0, 128, 63]))


async def test_a_fit_is_current_once_finished_and_replaces_the_one_before(
        backend: Backend) -> None:
    store = backend.recommend_features()
    assert await store.current() is None
    first = await store.start(7, 3, T0)
    await store.write(first, [_vector("b"), _vector("a"), _vector("c")])
    assert await store.current() is None  # still being written
    await store.finish(first, b"vocabulary one", T0)
    fit = await store.current()
    assert fit is not None and (fit.revision, fit.catalog_version, fit.papers,
                                fit.transformed, fit.vocabulary) == (first, 7, 3, 0,
                                                                     b"vocabulary one")
    second = await store.start(9, 1, T0)
    assert second > first
    await store.write(second, [_vector("z")])
    assert (await store.current()) == fit  # the first serves while the second is written
    await store.finish(second, b"vocabulary two", T0)
    now = await store.current()
    assert now is not None and (now.revision, now.vocabulary) == (second, b"vocabulary two")
    assert await store.vectors(first, "", 10) == []  # the older fit's vectors are gone
    assert await store.vectors(second, "", 10) == [_vector("z")]


async def test_vectors_page_in_id_order_and_are_replaced_paper_by_paper(
        backend: Backend) -> None:
    store = backend.recommend_features()
    revision = await store.start(1, 5, T0)
    ids = ["f0", "0a", "a0", "9f", "ab"]
    await store.write(revision, [_vector(pid, seed=i) for i, pid in enumerate(ids)])
    await store.finish(revision, b"v", T0)
    pages, after = [], ""
    while page := await store.vectors(revision, after, 2):
        pages.append([v.paper_id for v in page])
        after = page[-1].paper_id
    assert pages == [["0a", "9f"], ["a0", "ab"], ["f0"]]
    await store.write(revision, [_vector("a0", "new", seed=9), _vector("b1", "x")],
                      transformed=True)
    await store.remove(revision, ["f0", "not-there"])
    got = await store.vectors(revision, "", 10)
    assert [v.paper_id for v in got] == ["0a", "9f", "a0", "ab", "b1"]
    assert got[2] == _vector("a0", "new", seed=9)
    fit = await store.current()
    assert fit is not None and fit.transformed == 2


async def test_catalog_hashes_and_loads_are_the_papers_stores(
        backend: Backend, bundled_papers: list[Paper]) -> None:
    papers = backend.papers()
    store = backend.recommend_features()
    await papers.add_papers(bundled_papers[:3])
    version = await papers.catalog_version()
    hashes = await store.catalog_hashes()
    assert sorted(hashes) == sorted(p.id for p in bundled_papers[:3])
    assert all(len(h) == 40 for h in hashes.values())
    changed = replace(bundled_papers[0], summary_en="A new abstract.")
    await papers.add_papers([changed, bundled_papers[3]], source="arxiv-feed")
    after = await store.catalog_hashes()
    assert after[changed.id] != hashes[changed.id]
    assert {pid: h for pid, h in after.items() if pid in hashes and pid != changed.id} == {
        pid: h for pid, h in hashes.items() if pid != changed.id}
    loads = await store.loads_since(version)
    assert [(load.source, load.changed) for load in loads] == [("arxiv-feed", 2)]
    assert await store.loads_since(await papers.catalog_version()) == []
