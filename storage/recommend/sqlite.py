"""Recommendation signals on SQLite: 👍 / 👎 in `paper_feedback`; the rest read where the
other features keep it (bookmarks, queue_support, vote_ballots, discussed)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.recommend import CatalogLoad, Signal, StoredFit, StoredVector, Verdict
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
from storage.sqlite.database import Database
from storage.times import stored


class SqliteRecommendStore:
    """👍 / 👎 per (server, member, paper) and a server's signals."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def rate(self, guild_id: int, user_id: int, paper_id: str, verdict: Verdict,
                   at: datetime) -> bool:
        """Record a member's verdict on a paper; False if it was already that verdict."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO paper_feedback (guild_id, user_id, paper_id, verdict, rated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id, paper_id) DO UPDATE "
                "SET verdict = excluded.verdict, rated_at = excluded.rated_at "
                "WHERE verdict <> excluded.verdict",
                (guild_id, user_id, paper_id, verdict.value, stored(at)))
            return cursor.rowcount > 0

    async def unrate(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Take a verdict back; False if there was none."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM paper_feedback WHERE guild_id = ? AND user_id = ? AND paper_id = ?",
                (guild_id, user_id, paper_id))
            return cursor.rowcount > 0

    async def verdict(self, guild_id: int, user_id: int, paper_id: str) -> Verdict | None:
        """A member's verdict on a paper, if any."""
        row = await self._db.fetchone(
            "SELECT verdict FROM paper_feedback WHERE guild_id = ? AND user_id = ? "
            "AND paper_id = ?", (guild_id, user_id, paper_id))
        return None if row is None else Verdict(row[0])

    async def signals(self, guild_id: int) -> list[Signal]:
        """Every signal in a server on papers still in the catalog, oldest first."""
        sql = SIGNALS_SQL.format(g="?", collate="")
        rows = await self._db.fetchall(sql, (guild_id,) * sql.count("?"))
        return [signal_from_row(r) for r in rows]

    async def forget(self, user_id: int) -> int:
        """Delete a member's verdicts everywhere."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM paper_feedback WHERE user_id = ?",
                                        (user_id,))
            return cursor.rowcount


class SqliteFeatureStore:
    """The recommendation features kept with the catalog: fits and each paper's vector."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def current(self) -> StoredFit | None:
        """The newest finished fit, if any."""
        row = await self._db.fetchone(CURRENT_FIT_SQL)
        return None if row is None else fit_from_row(row)

    async def start(self, catalog_version: int, papers: int, at: datetime) -> int:
        """A new fit's revision, not current until `finish`."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO recommend_vocabularies (catalog_version, papers, started_at) "
                "VALUES (?, ?, ?)", (catalog_version, papers, stored(at)))
            return int(cursor.lastrowid or 0)

    async def write(self, revision: int, vectors: Sequence[StoredVector], *,
                    transformed: bool = False) -> None:
        """Store vectors of a fit, replacing a paper's earlier one."""
        async with self._db.transaction() as conn:
            await conn.executemany(UPSERT_VECTOR_SQL.format("?", "?", "?", "?"), [
                (revision, v.paper_id, v.content_hash, v.vector) for v in vectors])
            if transformed:
                await conn.execute("UPDATE recommend_vocabularies SET transformed = "
                                   "transformed + ? WHERE revision = ?",
                                   (len(vectors), revision))

    async def remove(self, revision: int, paper_ids: Sequence[str]) -> None:
        """Drop these papers' vectors from a fit."""
        async with self._db.transaction() as conn:
            await conn.executemany(
                "DELETE FROM paper_vectors WHERE revision = ? AND paper_id = ?",
                [(revision, pid) for pid in paper_ids])

    async def finish(self, revision: int, vocabulary: bytes, at: datetime) -> None:
        """Make a fit current; older fits and their vectors go."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE recommend_vocabularies SET vocabulary = ?, "
                               "finished_at = ? WHERE revision = ?",
                               (vocabulary, stored(at), revision))
            await conn.execute("DELETE FROM paper_vectors WHERE revision < ?", (revision,))
            await conn.execute("DELETE FROM recommend_vocabularies WHERE revision < ?",
                               (revision,))

    async def vectors(self, revision: int, after: str, limit: int) -> list[StoredVector]:
        """A fit's vectors in paper-id order, after `after`."""
        rows = await self._db.fetchall(VECTORS_SQL.format("?", "?", "?", collate=""),
                                       (revision, after, limit))
        return [vector_from_row(r) for r in rows]

    async def catalog_hashes(self) -> dict[str, str]:
        """Every catalog paper's id and content hash."""
        return {str(pid): str(digest)
                for pid, digest in await self._db.fetchall(CATALOG_HASHES_SQL)}

    async def loads_since(self, catalog_version: int) -> list[CatalogLoad]:
        """The catalog's loads and adds after a version, oldest first."""
        rows = await self._db.fetchall(LOADS_SINCE_SQL.format("?"), (catalog_version,))
        return [load_from_row(r) for r in rows]
