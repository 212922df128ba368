"""The web pages' links in PostgreSQL (`web_links`)."""

from __future__ import annotations

from storage.postgres.database import PgDatabase
from storage.times import utc_timestamp


class PgWebLinkStore:
    """One token per server, NULL once turned off."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def token(self, guild_id: int, new: str) -> str | None:
        """The server's token, `new` if it never had one; None while off."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO web_links (guild_id, token, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO NOTHING", guild_id, new, utc_timestamp())
            value = await conn.fetchval(
                "SELECT token FROM web_links WHERE guild_id = $1", guild_id)
        return None if value is None else str(value)

    async def rotate(self, guild_id: int, new: str) -> None:
        """`new` replaces the token; the page is on."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO web_links (guild_id, token, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token, "
                "updated_at = excluded.updated_at", guild_id, new, utc_timestamp())

    async def turn_off(self, guild_id: int) -> bool:
        """The token is dropped; False when it was already off."""
        now = utc_timestamp()
        async with self._db.transaction() as conn:
            changed = await conn.fetchval(
                "UPDATE web_links SET token = NULL, updated_at = $1 "
                "WHERE guild_id = $2 AND token IS NOT NULL RETURNING guild_id", now, guild_id)
            await conn.execute(
                "INSERT INTO web_links (guild_id, token, updated_at) VALUES ($1, NULL, $2) "
                "ON CONFLICT (guild_id) DO NOTHING", guild_id, now)
        return changed is not None

    async def guild_of(self, token: str) -> int | None:
        """The server whose live token this is."""
        value = await self._db.fetchval(
            "SELECT guild_id FROM web_links WHERE token = $1", token)
        return None if value is None else int(value)
