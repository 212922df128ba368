"""The web pages' links in SQLite (`web_links`)."""

from __future__ import annotations

from storage.sqlite.database import Database
from storage.times import utc_timestamp


class SqliteWebLinkStore:
    """One token per server, NULL once turned off."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def token(self, guild_id: int, new: str) -> str | None:
        """The server's token, `new` if it never had one; None while off."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO web_links (guild_id, token, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING", (guild_id, new, utc_timestamp()))
            cursor = await conn.execute(
                "SELECT token FROM web_links WHERE guild_id = ?", (guild_id,))
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else str(row[0])

    async def rotate(self, guild_id: int, new: str) -> None:
        """`new` replaces the token; the page is on."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO web_links (guild_id, token, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token, "
                "updated_at = excluded.updated_at", (guild_id, new, utc_timestamp()))

    async def turn_off(self, guild_id: int) -> bool:
        """The token is dropped; False when it was already off."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE web_links SET token = NULL, updated_at = ? "
                "WHERE guild_id = ? AND token IS NOT NULL", (utc_timestamp(), guild_id))
            changed = cursor.rowcount > 0
            await conn.execute(
                "INSERT INTO web_links (guild_id, token, updated_at) VALUES (?, NULL, ?) "
                "ON CONFLICT (guild_id) DO NOTHING", (guild_id, utc_timestamp()))
        return changed

    async def guild_of(self, token: str) -> int | None:
        """The server whose live token this is."""
        row = await self._db.fetchone(
            "SELECT guild_id FROM web_links WHERE token = ?", (token,))
        return None if row is None else int(row[0])

