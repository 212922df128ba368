"""Reading lists on PostgreSQL: one row per (server, member, paper)."""

from __future__ import annotations

from datetime import datetime

from domain.group import Bookmark
from storage.postgres.database import PgDatabase, rows_affected
from storage.reading.rows import bookmark_from_row
from storage.times import stored


class PgBookmarkStore:
    """Each member's bookmarked papers, per server."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def add(self, guild_id: int, user_id: int, paper_id: str, at: datetime) -> bool:
        """Bookmark a paper; False if it already was."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "INSERT INTO bookmarks (guild_id, user_id, paper_id, created_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                guild_id, user_id, paper_id, stored(at))) > 0

    async def remove(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Drop a bookmark; False if there was none."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM bookmarks WHERE guild_id = $1 AND user_id = $2 AND paper_id = $3",
                guild_id, user_id, paper_id)) > 0

    async def of_member(self, guild_id: int, user_id: int) -> list[Bookmark]:
        """A member's reading list in a server, newest first."""
        rows = await self._db.fetch(
            "SELECT paper_id, created_at FROM bookmarks WHERE guild_id = $1 AND user_id = $2 "
            'ORDER BY created_at COLLATE "C" DESC, paper_id COLLATE "C"', guild_id, user_id)
        return [bookmark_from_row(guild_id, user_id, r) for r in rows]

    async def forget(self, user_id: int) -> int:
        """Delete a member's bookmarks in every server."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM bookmarks WHERE user_id = $1", user_id))
