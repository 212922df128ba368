"""Recommendation signals on SQLite: 👍 / 👎 in `paper_feedback`; the rest read where the
other features keep it (bookmarks, queue_support, vote_ballots, discussed)."""

from __future__ import annotations

from datetime import datetime

from domain.recommend import Signal, Verdict
from storage.recommend.rows import SIGNALS_SQL, signal_from_row
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
