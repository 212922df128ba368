"""What search by meaning needs from storage: each paper's vector, per model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from domain.embedding import StoredEmbedding


class EmbeddingStore(Protocol):
    """Each catalog paper's vector under a model, with the hash of the text embedded."""

    async def text_hashes(self, model: str) -> dict[str, str]:
        """Every paper embedded under `model`: its id and the hash of the text embedded."""

    async def write(self, model: str, embeddings: Sequence[StoredEmbedding]) -> None:
        """Store vectors (replacing a paper's earlier one, of any model), in one transaction."""

    async def embeddings(self, model: str, after: str, limit: int) -> list[StoredEmbedding]:
        """Vectors under `model` in paper-id order, after `after`, at most `limit`."""

    async def remove(self, paper_ids: Sequence[str]) -> None:
        """Drop these papers' vectors (papers gone from the catalog)."""
