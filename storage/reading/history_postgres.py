"""Papers a server discussed, on PostgreSQL: written by `/session done`, read by `/history`."""

from __future__ import annotations

from datetime import datetime

from domain.group import Discussed
from storage.postgres.database import PgDatabase, rows_affected
from storage.reading.rows import DISCUSSED_COLUMNS, discussed_from_row
from storage.times import stored


class PgHistoryStore:
    """One row per discussion (a paper may be discussed again later)."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def record_discussed(self, guild_id: int, paper_id: str, when: datetime,
                               presenter_id: int | None, notes: str,
                               thread_id: int | None) -> None:
        """Remember that a server discussed a paper."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO discussed (guild_id, paper_id, discussed_at, presenter_id, notes, "
                "thread_id) VALUES ($1, $2, $3, $4, $5, $6)",
                guild_id, paper_id, stored(when), presenter_id, notes, thread_id)

    async def history(self, guild_id: int) -> list[Discussed]:
        """A server's discussions, newest first."""
        rows = await self._db.fetch(
            f"SELECT {DISCUSSED_COLUMNS} FROM discussed "
            'WHERE guild_id = $1 ORDER BY discussed_at COLLATE "C" DESC, id DESC', guild_id)
        return [discussed_from_row(guild_id, r) for r in rows]

    async def discussed_ids(self, guild_id: int) -> set[str]:
        """The ids of every paper the server has discussed."""
        rows = await self._db.fetch(
            "SELECT DISTINCT paper_id FROM discussed WHERE guild_id = $1", guild_id)
        return {str(r[0]) for r in rows}

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the discussions they presented (the record stays)."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "UPDATE discussed SET presenter_id = NULL WHERE presenter_id = $1", user_id))
