"""Recommendation signals: 👍 / 👎 in `paper_feedback`; the rest read where the other features
keep it (bookmarks, queue_support, vote_ballots, discussed). And the features kept with the
catalog."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.recommend import CatalogLoad, Signal, StoredFit, StoredVector, Verdict
from storage.db import Store
from storage.recommend.rows import (
    CATALOG_HASHES_SQL,
    CURRENT_FIT_SQL,
    LOADS_SINCE_SQL,
    SIGNALS_SQL,
    UPSERT_VECTOR_SQL,
    VECTORS_SQL,
    fit_from_row,
    load_from_row,
    signal_from_row,
    vector_from_row,
)
from storage.times import stored


class RecommendStore(Store):
    """👍 / 👎 per (server, member, paper) and a server's signals."""

    async def rate(self, guild_id: int, user_id: int, paper_id: str, verdict: Verdict,
                   at: datetime) -> bool:
        """Record a member's verdict on a paper; False if it was already that verdict."""
        return await self._db.execute(
            "INSERT INTO paper_feedback AS f (guild_id, user_id, paper_id, verdict, rated_at) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id, user_id, paper_id) DO UPDATE "
            "SET verdict = excluded.verdict, rated_at = excluded.rated_at "
            "WHERE f.verdict <> excluded.verdict",
            guild_id, user_id, paper_id, verdict.value, stored(at)) > 0

    async def signals(self, guild_id: int) -> list[Signal]:
        """Every signal in a server on papers still in the catalog, oldest first."""
        rows = await self._db.fetch(SIGNALS_SQL.format(g="$1", collate=self._order), guild_id)
        return [signal_from_row(r) for r in rows]

    async def forget(self, user_id: int) -> int:
        """Delete a member's verdicts everywhere."""
        return await self._db.execute("DELETE FROM paper_feedback WHERE user_id = $1", user_id)


class FeatureStore(Store):
    """The recommendation features kept with the catalog: fits and each paper's vector."""

    async def current(self) -> StoredFit | None:
        """The newest finished fit, if any."""
        row = await self._db.fetch_one(CURRENT_FIT_SQL)
        return None if row is None else fit_from_row(row)

    async def start(self, catalog_version: int, papers: int, at: datetime) -> int:
        """A new fit's revision, not current until `finish`."""
        async with self._db.transaction() as tx:
            return int(await tx.fetch_value(
                "INSERT INTO recommend_vocabularies (catalog_version, papers, started_at) "
                "VALUES ($1, $2, $3) RETURNING revision", catalog_version, papers, stored(at)))

    async def write(self, revision: int, vectors: Sequence[StoredVector], *,
                    transformed: bool = False) -> None:
        """Store vectors of a fit, replacing a paper's earlier one."""
        async with self._db.transaction() as tx:
            await tx.execute_many(UPSERT_VECTOR_SQL.format("$1", "$2", "$3", "$4"), [
                (revision, v.paper_id, v.content_hash, v.vector) for v in vectors])
            if transformed:
                await tx.execute("UPDATE recommend_vocabularies SET transformed = "
                                   "transformed + $1 WHERE revision = $2",
                                 len(vectors), revision)

    async def remove(self, revision: int, paper_ids: Sequence[str]) -> None:
        """Drop these papers' vectors from a fit."""
        await self._db.execute(
            "DELETE FROM paper_vectors WHERE revision = $1 "
            f"AND paper_id {self._dialect.in_array('$2')}", revision,
            self._dialect.array(paper_ids))

    async def finish(self, revision: int, vocabulary: bytes, at: datetime) -> None:
        """Make a fit current; older fits and their vectors go."""
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE recommend_vocabularies SET vocabulary = $1, "
                               "finished_at = $2 WHERE revision = $3",
                             vocabulary, stored(at), revision)
            await tx.execute("DELETE FROM paper_vectors WHERE revision < $1", revision)
            await tx.execute("DELETE FROM recommend_vocabularies WHERE revision < $1",
                             revision)

    async def vectors(self, revision: int, after: str, limit: int) -> list[StoredVector]:
        """A fit's vectors in paper-id order, after `after`."""
        rows = await self._db.fetch(VECTORS_SQL.format("$1", "$2", "$3",
                                                       collate=self._dialect.text_order),
                                    revision, after, limit)
        return [vector_from_row(r) for r in rows]

    async def catalog_hashes(self) -> dict[str, str]:
        """Every catalog paper's id and content hash."""
        return {str(pid): str(digest)
                for pid, digest in await self._db.fetch(CATALOG_HASHES_SQL)}

    async def loads_since(self, catalog_version: int) -> list[CatalogLoad]:
        """The catalog's loads and adds after a version, oldest first."""
        rows = await self._db.fetch(LOADS_SINCE_SQL.format("$1"), catalog_version)
        return [load_from_row(r) for r in rows]
