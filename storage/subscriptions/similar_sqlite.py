"""Followers of papers like their bookmarks, on SQLite."""

from __future__ import annotations

from storage.sqlite.database import Database
from storage.times import utc_timestamp


class SqliteSimilarStore:
    """One threshold per (server, member)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def follow(self, guild_id: int, user_id: int, threshold: int) -> int | None:
        """Follow (or change the threshold); the previous threshold, None if new."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                "SELECT threshold FROM similar_subscriptions WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id)) as cursor:
                row = await cursor.fetchone()
            await conn.execute(
                "INSERT INTO similar_subscriptions (guild_id, user_id, threshold, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE "
                "SET threshold = excluded.threshold, updated_at = excluded.updated_at",
                (guild_id, user_id, threshold, utc_timestamp()))
        return None if row is None else int(row[0])

    async def threshold(self, guild_id: int, user_id: int) -> int | None:
        """A member's threshold in a server, None when they do not follow."""
        row = await self._db.fetchone(
            "SELECT threshold FROM similar_subscriptions WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return None if row is None else int(row[0])

    async def unfollow(self, guild_id: int, user_id: int) -> bool:
        """Stop following; False if they did not."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM similar_subscriptions WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id))
            return cursor.rowcount > 0

    async def in_guild(self, guild_id: int) -> dict[int, int]:
        """Every follower of a server with their threshold."""
        return {int(r[0]): int(r[1]) for r in await self._db.fetchall(
            "SELECT user_id, threshold FROM similar_subscriptions WHERE guild_id = ? "
            "ORDER BY user_id", (guild_id,))}

    async def guilds(self) -> list[int]:
        """Servers with at least one follower."""
        return [int(r[0]) for r in await self._db.fetchall(
            "SELECT DISTINCT guild_id FROM similar_subscriptions ORDER BY guild_id")]

    async def forget(self, user_id: int) -> int:
        """Delete a member's follows in every server."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM similar_subscriptions WHERE user_id = ?", (user_id,))
            return cursor.rowcount
