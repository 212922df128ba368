"""Each catalog paper's sentence-encoder vector, written once over `storage.db`."""

from __future__ import annotations

from collections.abc import Sequence

from domain.embedding import StoredEmbedding
from storage.db import Store

UPSERT_SQL = (
    "INSERT INTO paper_embeddings (paper_id, model, text_hash, scale, vector) "
    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (paper_id) DO UPDATE SET "
    "model = excluded.model, text_hash = excluded.text_hash, scale = excluded.scale, "
    "vector = excluded.vector")


class EmbeddingStore(Store):
    """`paper_embeddings`: one row a paper, under the model that embedded it."""

    async def text_hashes(self, model: str) -> dict[str, str]:
        """Every paper embedded under `model` and the hash of its embedded text."""
        rows = await self._db.fetch(
            "SELECT paper_id, text_hash FROM paper_embeddings WHERE model = $1", model)
        return {str(r[0]): str(r[1]) for r in rows}

    async def write(self, model: str, embeddings: Sequence[StoredEmbedding]) -> None:
        """Store vectors, replacing a paper's earlier one, in one transaction."""
        await self._db.execute_many(UPSERT_SQL, [
            (e.paper_id, model, e.text_hash, e.scale, e.vector) for e in embeddings])

    async def embeddings(self, model: str, after: str, limit: int) -> list[StoredEmbedding]:
        """Vectors under `model` in paper-id order, after `after`."""
        rows = await self._db.fetch(
            "SELECT paper_id, text_hash, vector, scale FROM paper_embeddings "
            f"WHERE model = $1 AND paper_id {self._order} > $2 "
            f"ORDER BY paper_id {self._order} LIMIT $3", model, after, limit)
        return [StoredEmbedding(str(r[0]), str(r[1]), bytes(r[2]), float(r[3])) for r in rows]

    async def remove(self, paper_ids: Sequence[str]) -> None:
        """Drop these papers' vectors."""
        await self._db.execute_many("DELETE FROM paper_embeddings WHERE paper_id = $1",
                                    [(pid,) for pid in paper_ids])
