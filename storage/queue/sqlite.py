"""The suggestion queue: one row per (server, paper, member who suggested or +1'd it)."""

from __future__ import annotations

from datetime import datetime

from domain.group import QueueItem, SuggestOutcome
from storage.queue.rows import QUEUE_COLUMNS, items_from_rows
from storage.sqlite.database import Database
from storage.times import stored


class SqliteQueueStore:
    """Queued papers per server with who suggested each and who added a +1."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def suggest(self, guild_id: int, paper_id: str, user_id: int, note: str,
                      at: datetime) -> SuggestOutcome:
        """Queue a paper, or add the member's +1 when it is queued already."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                "SELECT sum(user_id = ?), count(*) FROM queue_support "
                "WHERE guild_id = ? AND paper_id = ?", (user_id, guild_id, paper_id)) as cursor:
                row = await cursor.fetchone()
            mine, total = (row[0] or 0, row[1]) if row else (0, 0)
            if mine:
                return SuggestOutcome.ALREADY
            await conn.execute(
                f"INSERT INTO queue_support ({QUEUE_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                (guild_id, paper_id, user_id, note, stored(at)))
            return SuggestOutcome.SUPPORTED if total else SuggestOutcome.ADDED

    async def queue(self, guild_id: int) -> list[QueueItem]:
        """A server's queue: most supported first, then oldest."""
        rows = await self._db.fetchall(
            f"SELECT {QUEUE_COLUMNS} FROM queue_support WHERE guild_id = ? "
            "ORDER BY paper_id, created_at, id", (guild_id,))
        return items_from_rows(rows)

    async def item(self, guild_id: int, paper_id: str) -> QueueItem | None:
        """One queued paper, or None."""
        rows = await self._db.fetchall(
            f"SELECT {QUEUE_COLUMNS} FROM queue_support WHERE guild_id = ? AND paper_id = ? "
            "ORDER BY created_at, id", (guild_id, paper_id))
        items = items_from_rows(rows)
        return items[0] if items else None

    async def remove(self, guild_id: int, paper_id: str) -> bool:
        """Take a paper off a server's queue; False if it was not queued."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM queue_support WHERE guild_id = ? AND paper_id = ?",
                (guild_id, paper_id))
            return cursor.rowcount > 0

    async def withdraw(self, guild_id: int, paper_id: str, user_id: int) -> bool:
        """Take back one member's +1; False if they had none."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM queue_support WHERE guild_id = ? AND paper_id = ? AND user_id = ?",
                (guild_id, paper_id, user_id))
            return cursor.rowcount > 0

    async def forget(self, user_id: int) -> int:
        """Anonymise a member's suggestions everywhere (the papers stay queued, notes go)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE queue_support SET user_id = NULL, note = '' WHERE user_id = ?",
                (user_id,))
            return cursor.rowcount
