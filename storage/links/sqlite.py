"""Per-server link tokens in SQLite (the table is one of `LinkTable`'s constants)."""

from __future__ import annotations

from storage.links.tables import LinkTable
from storage.sqlite.database import Database
from storage.times import utc_timestamp


class SqliteLinkStore:
    """One token per server, NULL once turned off."""

    def __init__(self, db: Database, table: LinkTable) -> None:
        self._db = db
        self._table = table

    async def token(self, guild_id: int, new: str) -> str | None:
        """The server's token, `new` if it never had one; None while off."""
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING", (guild_id, new, utc_timestamp()))
            cursor = await conn.execute(
                f"SELECT token FROM {self._table} WHERE guild_id = ?", (guild_id,))
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else str(row[0])

    async def rotate(self, guild_id: int, new: str) -> None:
        """`new` replaces the token; the link works."""
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token, "
                "updated_at = excluded.updated_at", (guild_id, new, utc_timestamp()))

    async def turn_off(self, guild_id: int) -> bool:
        """The token is dropped; False when it was already off."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                f"UPDATE {self._table} SET token = NULL, updated_at = ? "
                "WHERE guild_id = ? AND token IS NOT NULL", (utc_timestamp(), guild_id))
            changed = cursor.rowcount > 0
            await conn.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES (?, NULL, ?) "
                "ON CONFLICT (guild_id) DO NOTHING", (guild_id, utc_timestamp()))
        return changed

    async def guild_of(self, token: str) -> int | None:
        """The server whose live token this is."""
        row = await self._db.fetchone(
            f"SELECT guild_id FROM {self._table} WHERE token = ?", (token,))
        return None if row is None else int(row[0])

