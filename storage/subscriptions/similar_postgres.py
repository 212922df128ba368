"""Followers of papers like their bookmarks, on PostgreSQL."""

from __future__ import annotations

from storage.postgres.database import PgDatabase, rows_affected
from storage.times import utc_timestamp


class PgSimilarStore:
    """One threshold per (server, member)."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def follow(self, guild_id: int, user_id: int, threshold: int) -> int | None:
        """Follow (or change the threshold); the previous threshold, None if new."""
        async with self._db.transaction() as conn:
            before = await conn.fetchval(
                "SELECT threshold FROM similar_subscriptions WHERE guild_id = $1 "
                "AND user_id = $2 FOR UPDATE", guild_id, user_id)
            await conn.execute(
                "INSERT INTO similar_subscriptions (guild_id, user_id, threshold, updated_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, user_id) DO UPDATE "
                "SET threshold = excluded.threshold, updated_at = excluded.updated_at",
                guild_id, user_id, threshold, utc_timestamp())
        return None if before is None else int(before)

    async def threshold(self, guild_id: int, user_id: int) -> int | None:
        """A member's threshold in a server, None when they do not follow."""
        value = await self._db.fetchval(
            "SELECT threshold FROM similar_subscriptions WHERE guild_id = $1 AND user_id = $2",
            guild_id, user_id)
        return None if value is None else int(value)

    async def unfollow(self, guild_id: int, user_id: int) -> bool:
        """Stop following; False if they did not."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM similar_subscriptions WHERE guild_id = $1 AND user_id = $2",
                guild_id, user_id)) > 0

    async def in_guild(self, guild_id: int) -> dict[int, int]:
        """Every follower of a server with their threshold."""
        return {int(r[0]): int(r[1]) for r in await self._db.fetch(
            "SELECT user_id, threshold FROM similar_subscriptions WHERE guild_id = $1 "
            "ORDER BY user_id", guild_id)}

    async def guilds(self) -> list[int]:
        """Servers with at least one follower."""
        return [int(r[0]) for r in await self._db.fetch(
            "SELECT DISTINCT guild_id FROM similar_subscriptions ORDER BY guild_id")]

    async def forget(self, user_id: int) -> int:
        """Delete a member's follows in every server."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM similar_subscriptions WHERE user_id = $1", user_id))
