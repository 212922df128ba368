"""Reading lists: one row per (server, member, paper)."""

from __future__ import annotations

from datetime import datetime

from domain.group import Bookmark
from storage.reading.rows import bookmark_from_row
from storage.sqlite.database import Database
from storage.times import stored


class SqliteBookmarkStore:
    """Each member's bookmarked papers, per server."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, guild_id: int, user_id: int, paper_id: str, at: datetime) -> bool:
        """Bookmark a paper; False if it already was."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT OR IGNORE INTO bookmarks (guild_id, user_id, paper_id, created_at) "
                "VALUES (?, ?, ?, ?)", (guild_id, user_id, paper_id, stored(at)))
            return cursor.rowcount > 0

    async def remove(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Drop a bookmark; False if there was none."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM bookmarks WHERE guild_id = ? AND user_id = ? AND paper_id = ?",
                (guild_id, user_id, paper_id))
            return cursor.rowcount > 0

    async def of_member(self, guild_id: int, user_id: int) -> list[Bookmark]:
        """A member's reading list in a server, newest first."""
        rows = await self._db.fetchall(
            "SELECT paper_id, created_at FROM bookmarks WHERE guild_id = ? AND user_id = ? "
            "ORDER BY created_at DESC, paper_id", (guild_id, user_id))
        return [bookmark_from_row(guild_id, user_id, r) for r in rows]

    async def forget(self, user_id: int) -> int:
        """Delete a member's bookmarks in every server."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM bookmarks WHERE user_id = ?", (user_id,))
            return cursor.rowcount
