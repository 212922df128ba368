"""Recommendation signals on PostgreSQL: the same table and the same read as on SQLite."""

from __future__ import annotations

from datetime import datetime

from domain.recommend import Signal, Verdict
from storage.postgres.database import PgDatabase, rows_affected
from storage.recommend.rows import SIGNALS_SQL, signal_from_row
from storage.times import stored


class PgRecommendStore:
    """👍 / 👎 per (server, member, paper) and a server's signals."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def rate(self, guild_id: int, user_id: int, paper_id: str, verdict: Verdict,
                   at: datetime) -> bool:
        """Record a member's verdict on a paper; False if it was already that verdict."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "INSERT INTO paper_feedback AS f (guild_id, user_id, paper_id, verdict, rated_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id, user_id, paper_id) DO UPDATE "
                "SET verdict = excluded.verdict, rated_at = excluded.rated_at "
                "WHERE f.verdict <> excluded.verdict",
                guild_id, user_id, paper_id, verdict.value, stored(at))) > 0

    async def unrate(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Take a verdict back; False if there was none."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM paper_feedback WHERE guild_id = $1 AND user_id = $2 "
                "AND paper_id = $3", guild_id, user_id, paper_id)) > 0

    async def verdict(self, guild_id: int, user_id: int, paper_id: str) -> Verdict | None:
        """A member's verdict on a paper, if any."""
        value = await self._db.fetchval(
            "SELECT verdict FROM paper_feedback WHERE guild_id = $1 AND user_id = $2 "
            "AND paper_id = $3", guild_id, user_id, paper_id)
        return None if value is None else Verdict(value)

    async def signals(self, guild_id: int) -> list[Signal]:
        """Every signal in a server on papers still in the catalog, oldest first."""
        rows = await self._db.fetch(SIGNALS_SQL.format(g="$1", collate='COLLATE "C"'),
                                    guild_id)
        return [signal_from_row(r) for r in rows]

    async def forget(self, user_id: int) -> int:
        """Delete a member's verdicts everywhere."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM paper_feedback WHERE user_id = $1", user_id))
