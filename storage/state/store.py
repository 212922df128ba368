"""Small named values the bot keeps between runs (such as the last command-sync hash)."""

from __future__ import annotations

from storage.db import Store
from storage.times import utc_timestamp


class StateStore(Store):
    """Key-value state in the `bot_state` table."""

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        value = await self._db.fetch_value("SELECT value FROM bot_state WHERE key = $1", key)
        return None if value is None else str(value)

    async def set(self, key: str, value: str) -> None:
        """Store or replace a value (one atomic upsert)."""
        await self._db.execute(
            "INSERT INTO bot_state (key, value, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            "updated_at = excluded.updated_at",
            key, value, utc_timestamp())
