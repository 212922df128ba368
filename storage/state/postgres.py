"""Small named values the bot keeps between runs, on PostgreSQL."""

from __future__ import annotations

from storage.postgres.database import PgDatabase
from storage.times import utc_timestamp


class PgStateStore:
    """Key-value state in the `bot_state` table."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        value = await self._db.fetchval("SELECT value FROM bot_state WHERE key = $1", key)
        return None if value is None else str(value)

    async def set(self, key: str, value: str) -> None:
        """Store or replace a value (one atomic upsert)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bot_state (key, value, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at",
                key, value, utc_timestamp(),
            )
