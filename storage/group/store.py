"""Reading-group settings per server and the presenter rotation."""

from __future__ import annotations

from collections.abc import Sequence

from domain.sessions import GroupSettings, Volunteer
from storage.db import Store
from storage.group.rows import reminders_from_text, reminders_text, volunteer_from_row
from storage.times import utc_timestamp

_SETTABLE = frozenset({"organiser_role_id", "timezone", "reminders", "prep_sheets"})


class GroupStore(Store):
    """`group_settings` and `presenters`."""

    async def settings(self, guild_id: int) -> GroupSettings:
        """A server's settings (defaults when never set)."""
        row = await self._db.fetch_one(
            "SELECT organiser_role_id, timezone, reminders, prep_sheets FROM group_settings "
            "WHERE guild_id = $1", guild_id)
        if row is None:
            return GroupSettings(guild_id)
        return GroupSettings(guild_id, row[0], row[1], reminders_from_text(row[2]),
                             bool(row[3]))

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """The role whose members organise (None: only Manage Server)."""
        await self._update(guild_id, "organiser_role_id", role_id)

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """The server's time zone for sessions when it has no paper of the day."""
        await self._update(guild_id, "timezone", zone)

    async def set_reminders(self, guild_id: int, offsets: Sequence[int]) -> None:
        """Minutes before each session that reminders go out."""
        await self._update(guild_id, "reminders", reminders_text(offsets))

    async def set_prep_sheets(self, guild_id: int, on: bool) -> None:
        """Whether sessions get a prep sheet a day before."""
        await self._update(guild_id, "prep_sheets", int(on))

    async def _update(self, guild_id: int, column: str, value: object) -> None:
        assert column in _SETTABLE  # a column of ours, never user text
        await self._db.execute(
            f"INSERT INTO group_settings (guild_id, {column}, updated_at) "
            "VALUES ($1, $2, $3) ON CONFLICT (guild_id) DO UPDATE SET "
            f"{column} = excluded.{column}, updated_at = excluded.updated_at",
            guild_id, value, utc_timestamp())

    async def volunteers(self, guild_id: int) -> list[Volunteer]:
        """The server's rotation, in the order members volunteered."""
        rows = await self._db.fetch(
            "SELECT user_id, joined, last_turn, presented FROM presenters WHERE guild_id = $1 "
            "ORDER BY joined, user_id", guild_id)
        return [volunteer_from_row(row) for row in rows]

    async def volunteer(self, guild_id: int, user_id: int) -> bool:
        """Join the rotation; False if already in it."""
        return await self._db.execute(
            "INSERT INTO presenters (guild_id, user_id, joined) SELECT $1, $2, "
            "COALESCE(MAX(joined), 0) + 1 FROM presenters WHERE guild_id = $1 "
            "ON CONFLICT (guild_id, user_id) DO NOTHING", guild_id, user_id) > 0

    async def forget(self, user_id: int) -> int:
        """Take a member out of every server's presenter rotation; how many places."""
        async with self._db.transaction() as tx:
            places = await tx.execute("DELETE FROM presenters WHERE user_id = $1", user_id)
            await tx.execute("UPDATE group_settings SET last_presenter = NULL "
                             "WHERE last_presenter = $1", user_id)
            return places

    async def withdraw(self, guild_id: int, user_id: int) -> bool:
        """Leave the rotation; False if not in it."""
        return await self._db.execute(
            "DELETE FROM presenters WHERE guild_id = $1 AND user_id = $2",
            guild_id, user_id) > 0

    async def rotation(self, guild_id: int) -> tuple[int, int | None]:
        """The turns taken so far and the last presenter."""
        row = await self._db.fetch_one(
            "SELECT rotation_turn, last_presenter FROM group_settings WHERE guild_id = $1",
            guild_id)
        return (int(row[0]), row[1]) if row else (0, None)

    async def take_turn(self, guild_id: int, presenter_id: int) -> int:
        """Advance the rotation: `presenter_id` presents at the new turn (returned). The
        upsert holds the server's settings row until the presenter's place is updated."""
        async with self._db.transaction() as tx:
            turn = int(await tx.fetch_value(
                "INSERT INTO group_settings (guild_id, rotation_turn, last_presenter, "
                "updated_at) VALUES ($1, 1, $2, $3) ON CONFLICT (guild_id) DO UPDATE SET "
                "rotation_turn = group_settings.rotation_turn + 1, "
                "last_presenter = excluded.last_presenter, updated_at = excluded.updated_at "
                "RETURNING rotation_turn", guild_id, presenter_id, utc_timestamp()))
            await tx.execute(
                "UPDATE presenters SET last_turn = $1, presented = presented + 1 "
                "WHERE guild_id = $2 AND user_id = $3", turn, guild_id, presenter_id)
            return turn

    async def skip_turn(self, guild_id: int, user_id: int) -> bool:
        """Move a volunteer to the back of the rotation; False if not a volunteer."""
        return await self._db.execute(
            "UPDATE presenters SET last_turn = COALESCE((SELECT rotation_turn FROM "
            "group_settings WHERE guild_id = $1), 0) WHERE guild_id = $1 AND user_id = $2",
            guild_id, user_id) > 0

    async def swap(self, guild_id: int, first: int, second: int) -> bool:
        """Exchange two volunteers' places in one statement; False unless both are
        volunteers."""
        if first == second:
            return False
        return await self._db.execute(
            "UPDATE presenters AS p SET last_turn = o.last_turn FROM presenters o "
            "WHERE p.guild_id = $1 AND o.guild_id = $1 AND ((p.user_id = $2 AND "
            "o.user_id = $3) OR (p.user_id = $3 AND o.user_id = $2))",
            guild_id, first, second) == 2
