"""Papers a server has discussed (a minimal store until the queue half's history lands)."""

from __future__ import annotations

from datetime import datetime

from bot.core.session_types import Discussed
from storage.database import Database


class SqliteHistoryStore:
    """`discussed_papers`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def record_discussed(self, guild_id: int, paper_id: str, when: datetime,
                               presenter_id: int | None, notes: str | None,
                               thread_id: int | None) -> None:
        """Record that a server discussed a paper (recording the same session twice is a no-op)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO discussed_papers (guild_id, paper_id, discussed_at, presenter_id, "
                "notes, thread_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, paper_id, when.isoformat(timespec="seconds"), presenter_id, notes,
                 thread_id))

    async def history(self, guild_id: int) -> list[Discussed]:
        """What a server has discussed, newest first."""
        rows = await self._db.fetchall(
            "SELECT guild_id, paper_id, discussed_at, presenter_id, notes, thread_id "
            "FROM discussed_papers WHERE guild_id = ? ORDER BY discussed_at DESC", (guild_id,))
        return [Discussed(row[0], row[1], datetime.fromisoformat(row[2]), row[3], row[4], row[5])
                for row in rows]
