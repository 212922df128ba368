"""The suggestion queue: one row per (server, paper, member who suggested or +1'd it)."""

from __future__ import annotations

from datetime import datetime

from domain.group import QueueItem, SuggestOutcome
from storage.db import Store
from storage.queue.rows import QUEUE_COLUMNS, items_from_rows
from storage.times import stored


class QueueStore(Store):
    """Queued papers per server with who suggested each and who added a +1."""

    async def suggest(self, guild_id: int, paper_id: str, user_id: int, note: str,
                      at: datetime) -> SuggestOutcome:
        """Queue a paper, or add the member's +1 when it is queued already; under a lock on
        (server, paper), so of two members suggesting it at once one adds and one supports."""
        async with self._db.transaction() as tx:
            await tx.lock(f"queue:{guild_id}:{paper_id}")
            row = await tx.fetch_one(
                "SELECT count(*) FILTER (WHERE user_id = $1), count(*) FROM queue_support "
                "WHERE guild_id = $2 AND paper_id = $3", user_id, guild_id, paper_id)
            mine, total = (int(row[0]), int(row[1])) if row else (0, 0)
            if mine:
                return SuggestOutcome.ALREADY
            await tx.execute(
                f"INSERT INTO queue_support ({QUEUE_COLUMNS}) VALUES ($1, $2, $3, $4, $5)",
                guild_id, paper_id, user_id, note, stored(at))
            return SuggestOutcome.SUPPORTED if total else SuggestOutcome.ADDED

    async def queue(self, guild_id: int) -> list[QueueItem]:
        """A server's queue: most supported first, then oldest."""
        rows = await self._db.fetch(
            f"SELECT {QUEUE_COLUMNS} FROM queue_support WHERE guild_id = $1 "
            f"ORDER BY paper_id{self._order}, created_at{self._order}, id", guild_id)
        return items_from_rows(rows)

    async def item(self, guild_id: int, paper_id: str) -> QueueItem | None:
        """One queued paper, or None."""
        rows = await self._db.fetch(
            f"SELECT {QUEUE_COLUMNS} FROM queue_support WHERE guild_id = $1 AND paper_id = $2 "
            f"ORDER BY created_at{self._order}, id", guild_id, paper_id)
        items = items_from_rows(rows)
        return items[0] if items else None

    async def remove(self, guild_id: int, paper_id: str) -> bool:
        """Take a paper off a server's queue; False if it was not queued."""
        return await self._db.execute(
            "DELETE FROM queue_support WHERE guild_id = $1 AND paper_id = $2",
            guild_id, paper_id) > 0

    async def withdraw(self, guild_id: int, paper_id: str, user_id: int) -> bool:
        """Take back one member's +1; False if they had none."""
        return await self._db.execute(
            "DELETE FROM queue_support WHERE guild_id = $1 AND paper_id = $2 "
            "AND user_id = $3", guild_id, paper_id, user_id) > 0

    async def forget(self, user_id: int) -> int:
        """Anonymise a member's suggestions everywhere (the papers stay queued, notes go)."""
        return await self._db.execute(
            "UPDATE queue_support SET user_id = NULL, note = '' WHERE user_id = $1", user_id)
