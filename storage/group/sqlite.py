"""Reading-group settings per server and the presenter rotation."""

from __future__ import annotations

from collections.abc import Sequence

from domain.sessions import GroupSettings, Volunteer
from storage.group.rows import reminders_from_text, reminders_text, volunteer_from_row
from storage.sqlite.database import Database
from storage.times import utc_timestamp

_ENSURE = ("INSERT INTO group_settings (guild_id, updated_at) VALUES (?, ?) "
           "ON CONFLICT (guild_id) DO NOTHING")


class SqliteGroupStore:
    """`group_settings` and `presenters`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def settings(self, guild_id: int) -> GroupSettings:
        """A server's settings (defaults when never set)."""
        row = await self._db.fetchone(
            "SELECT organiser_role_id, timezone, reminders FROM group_settings "
            "WHERE guild_id = ?", (guild_id,))
        if row is None:
            return GroupSettings(guild_id)
        return GroupSettings(guild_id, row[0], row[1], reminders_from_text(row[2]))

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """The role whose members organise (None: only Manage Server)."""
        await self._update(guild_id, "organiser_role_id", role_id)

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """The server's time zone for sessions when it has no paper of the day."""
        await self._update(guild_id, "timezone", zone)

    async def set_reminders(self, guild_id: int, offsets: Sequence[int]) -> None:
        """Minutes before each session that reminders go out."""
        await self._update(guild_id, "reminders", reminders_text(offsets))

    async def _update(self, guild_id: int, column: str, value: object) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(_ENSURE, (guild_id, utc_timestamp()))
            await conn.execute(
                f"UPDATE group_settings SET {column} = ?, updated_at = ? WHERE guild_id = ?",
                (value, utc_timestamp(), guild_id))

    async def volunteers(self, guild_id: int) -> list[Volunteer]:
        """The server's rotation, in the order members volunteered."""
        rows = await self._db.fetchall(
            "SELECT user_id, joined, last_turn, presented FROM presenters WHERE guild_id = ? "
            "ORDER BY joined, user_id", (guild_id,))
        return [volunteer_from_row(row) for row in rows]

    async def volunteer(self, guild_id: int, user_id: int) -> bool:
        """Join the rotation; False if already in it."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO presenters (guild_id, user_id, joined) VALUES (?, ?, "
                "(SELECT COALESCE(MAX(joined), 0) + 1 FROM presenters WHERE guild_id = ?)) "
                "ON CONFLICT (guild_id, user_id) DO NOTHING", (guild_id, user_id, guild_id))
            return cursor.rowcount > 0

    async def forget(self, user_id: int) -> int:
        """Take a member out of every server's presenter rotation; how many places."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM presenters WHERE user_id = ?", (user_id,))
            await conn.execute("UPDATE group_settings SET last_presenter = NULL "
                               "WHERE last_presenter = ?", (user_id,))
            return cursor.rowcount

    async def withdraw(self, guild_id: int, user_id: int) -> bool:
        """Leave the rotation; False if not in it."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM presenters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
            return cursor.rowcount > 0

    async def rotation(self, guild_id: int) -> tuple[int, int | None]:
        """The turns taken so far and the last presenter."""
        row = await self._db.fetchone(
            "SELECT rotation_turn, last_presenter FROM group_settings WHERE guild_id = ?",
            (guild_id,))
        return (row[0], row[1]) if row else (0, None)

    async def take_turn(self, guild_id: int, presenter_id: int) -> int:
        """Advance the rotation: `presenter_id` presents at the new turn (returned)."""
        async with self._db.transaction() as conn:
            await conn.execute(_ENSURE, (guild_id, utc_timestamp()))
            await conn.execute(
                "UPDATE group_settings SET rotation_turn = rotation_turn + 1, last_presenter = ?,"
                " updated_at = ? WHERE guild_id = ?", (presenter_id, utc_timestamp(), guild_id))
            cursor = await conn.execute(
                "SELECT rotation_turn FROM group_settings WHERE guild_id = ?", (guild_id,))
            row = await cursor.fetchone()
            turn = int(row[0]) if row else 0
            await conn.execute(
                "UPDATE presenters SET last_turn = ?, presented = presented + 1 "
                "WHERE guild_id = ? AND user_id = ?", (turn, guild_id, presenter_id))
            return turn

    async def skip_turn(self, guild_id: int, user_id: int) -> bool:
        """Move a volunteer to the back of the rotation; False if not a volunteer."""
        turn, _ = await self.rotation(guild_id)
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE presenters SET last_turn = ? WHERE guild_id = ? AND user_id = ?",
                (turn, guild_id, user_id))
            return cursor.rowcount > 0

    async def swap(self, guild_id: int, first: int, second: int) -> bool:
        """Exchange two volunteers' places; False unless both are volunteers."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT user_id, last_turn FROM presenters WHERE guild_id = ? AND user_id IN "
                "(?, ?)", (guild_id, first, second))
            turns = {row[0]: row[1] for row in await cursor.fetchall()}
            if first == second or len(turns) != 2:
                return False
            for user_id, other in ((first, second), (second, first)):
                await conn.execute(
                    "UPDATE presenters SET last_turn = ? WHERE guild_id = ? AND user_id = ?",
                    (turns[other], guild_id, user_id))
            return True
