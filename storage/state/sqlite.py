"""Small named values the bot keeps between runs (such as the last command-sync hash)."""

from __future__ import annotations

from storage.sqlite.database import Database
from storage.times import utc_timestamp


class SqliteStateStore:
    """Key-value state in the `bot_state` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        row = await self._db.fetchone(
            "SELECT value FROM bot_state WHERE key = ?", (key,)
        )
        return str(row[0]) if row else None

    async def set(self, key: str, value: str) -> None:
        """Store or replace a value."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at",
                (key, value, utc_timestamp()),
            )
