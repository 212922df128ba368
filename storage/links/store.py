"""Per-server link tokens (the table is one of `LinkTable`'s constants)."""

from __future__ import annotations

from storage.db import Db
from storage.links.tables import LinkTable
from storage.times import utc_timestamp


class LinkStore:
    """One token per server, NULL once turned off."""

    def __init__(self, db: Db, table: LinkTable) -> None:
        self._db = db
        self._table = table

    async def token(self, guild_id: int, new: str) -> str | None:
        """The server's token, `new` if it never had one; None while off."""
        async with self._db.transaction() as tx:
            await tx.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO NOTHING", guild_id, new, utc_timestamp())
            value = await tx.fetch_value(
                f"SELECT token FROM {self._table} WHERE guild_id = $1", guild_id)
        return None if value is None else str(value)

    async def rotate(self, guild_id: int, new: str) -> None:
        """`new` replaces the token; the link works."""
        await self._db.execute(
            f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token, "
            "updated_at = excluded.updated_at", guild_id, new, utc_timestamp())

    async def turn_off(self, guild_id: int) -> bool:
        """The token is dropped; False when it was already off."""
        now = utc_timestamp()
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                f"UPDATE {self._table} SET token = NULL, updated_at = $1 "
                "WHERE guild_id = $2 AND token IS NOT NULL", now, guild_id)
            await tx.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES ($1, NULL, $2) "
                "ON CONFLICT (guild_id) DO NOTHING", guild_id, now)
        return changed > 0

    async def guild_of(self, token: str) -> int | None:
        """The server whose live token this is."""
        value = await self._db.fetch_value(
            f"SELECT guild_id FROM {self._table} WHERE token = $1", token)
        return None if value is None else int(value)
