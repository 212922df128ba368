"""Per-server link tokens in PostgreSQL (the table is one of `LinkTable`'s constants)."""

from __future__ import annotations

from storage.links.tables import LinkTable
from storage.postgres.database import PgDatabase
from storage.times import utc_timestamp


class PgLinkStore:
    """One token per server, NULL once turned off."""

    def __init__(self, db: PgDatabase, table: LinkTable) -> None:
        self._db = db
        self._table = table

    async def token(self, guild_id: int, new: str) -> str | None:
        """The server's token, `new` if it never had one; None while off."""
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO NOTHING", guild_id, new, utc_timestamp())
            value = await conn.fetchval(
                f"SELECT token FROM {self._table} WHERE guild_id = $1", guild_id)
        return None if value is None else str(value)

    async def rotate(self, guild_id: int, new: str) -> None:
        """`new` replaces the token; the link works."""
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token, "
                "updated_at = excluded.updated_at", guild_id, new, utc_timestamp())

    async def turn_off(self, guild_id: int) -> bool:
        """The token is dropped; False when it was already off."""
        now = utc_timestamp()
        async with self._db.transaction() as conn:
            changed = await conn.fetchval(
                f"UPDATE {self._table} SET token = NULL, updated_at = $1 "
                "WHERE guild_id = $2 AND token IS NOT NULL RETURNING guild_id", now, guild_id)
            await conn.execute(
                f"INSERT INTO {self._table} (guild_id, token, updated_at) VALUES ($1, NULL, $2) "
                "ON CONFLICT (guild_id) DO NOTHING", guild_id, now)
        return changed is not None

    async def guild_of(self, token: str) -> int | None:
        """The server whose live token this is."""
        value = await self._db.fetchval(
            f"SELECT guild_id FROM {self._table} WHERE token = $1", token)
        return None if value is None else int(value)
