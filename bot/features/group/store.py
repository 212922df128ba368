"""The reading group's store: settings per server and the presenter rotation. The protocol is what
the feature's services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from domain.sessions import (
    GroupSettings,
    Volunteer,
)


class GroupStore(Protocol):
    """Reading-group settings per server and the presenter rotation."""

    async def settings(self, guild_id: int) -> GroupSettings:
        """A server's settings (defaults when never set)."""
        ...

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """The role whose members organise (None: only Manage Server)."""
        ...

    async def set_timezone(self, guild_id: int, zone: str | None) -> None:
        """The server's time zone for sessions when it has no paper of the day."""
        ...

    async def set_reminders(self, guild_id: int, offsets: Sequence[int]) -> None:
        """Minutes before each session that reminders go out."""
        ...

    async def set_prep_sheets(self, guild_id: int, on: bool) -> None:
        """Whether sessions get a prep sheet a day before."""
        ...

    async def volunteers(self, guild_id: int) -> list[Volunteer]:
        """The server's rotation, in the order members volunteered."""
        ...

    async def volunteer(self, guild_id: int, user_id: int) -> bool:
        """Join the rotation; False if already in it."""
        ...

    async def forget(self, user_id: int) -> int:
        """Take a member out of every server's presenter rotation (and off its last presenter);
        how many places."""
        ...

    async def withdraw(self, guild_id: int, user_id: int) -> bool:
        """Leave the rotation; False if not in it."""
        ...

    async def rotation(self, guild_id: int) -> tuple[int, int | None]:
        """The turns taken so far and the last presenter."""
        ...

    async def take_turn(self, guild_id: int, presenter_id: int) -> int:
        """Advance the rotation: `presenter_id` presents at the new turn (returned)."""
        ...

    async def skip_turn(self, guild_id: int, user_id: int) -> bool:
        """Move a volunteer to the back of the rotation; False if not a volunteer."""
        ...

    async def swap(self, guild_id: int, first: int, second: int) -> bool:
        """Exchange two volunteers' places; False unless both are volunteers."""
        ...
