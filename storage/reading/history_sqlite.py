"""Papers a server discussed: written by `/session done`, read by `/history` and exports."""

from __future__ import annotations

from datetime import datetime

from domain.group import Discussed
from storage.reading.rows import DISCUSSED_COLUMNS, discussed_from_row
from storage.sqlite.database import Database
from storage.times import stored


class SqliteHistoryStore:
    """One row per discussion (a paper may be discussed again later)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def record_discussed(self, guild_id: int, paper_id: str, when: datetime,
                               presenter_id: int | None, notes: str,
                               thread_id: int | None) -> None:
        """Remember that a server discussed a paper."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO discussed (guild_id, paper_id, discussed_at, presenter_id, notes, "
                "thread_id) VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, paper_id, stored(when), presenter_id, notes, thread_id))

    async def history(self, guild_id: int) -> list[Discussed]:
        """A server's discussions, newest first."""
        rows = await self._db.fetchall(
            f"SELECT {DISCUSSED_COLUMNS} FROM discussed "
            "WHERE guild_id = ? ORDER BY discussed_at DESC, id DESC", (guild_id,))
        return [discussed_from_row(guild_id, r) for r in rows]

    async def discussed_ids(self, guild_id: int) -> set[str]:
        """The ids of every paper the server has discussed."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT paper_id FROM discussed WHERE guild_id = ?", (guild_id,))
        return {str(r[0]) for r in rows}

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the discussions they presented (the record stays)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE discussed SET presenter_id = NULL WHERE presenter_id = ?", (user_id,))
            return cursor.rowcount
