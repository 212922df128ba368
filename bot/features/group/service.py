"""The reading group's settings per server: organisers, time zone, reminders, the rotation."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.features.digest.store import DigestStore
from bot.features.group.store import GroupStore
from bot.features.presenters.rotation import Proposal, propose
from domain.sessions import GroupSettings


@dataclass(frozen=True, slots=True)
class Organisers:
    """Who may organise in a server: Manage Server, and members of `role_id` when set."""

    role_id: int | None

    def include(self, *, manage_guild: bool, role_ids: Iterable[int]) -> bool:
        """Whether a member with these permissions and roles organises."""
        return manage_guild or (self.role_id is not None and self.role_id in set(role_ids))


class GroupService:
    """Settings and the presenter rotation (everything per server)."""

    def __init__(self, groups: GroupStore, digests: DigestStore) -> None:
        self.groups = groups
        self.digests = digests

    async def organisers(self, guild_id: int) -> Organisers:
        """Who organises in a server."""
        return Organisers((await self.groups.settings(guild_id)).organiser_role_id)

    async def settings(self, guild_id: int) -> GroupSettings:
        """A server's settings."""
        return await self.groups.settings(guild_id)

    async def organiser_role(self, guild_id: int, role_id: int | None, *,
                             clear: bool = False) -> int | None:
        """`/group organiser-role`: set `role_id`, or clear the role (`clear`), or with neither
        change nothing; the role in force after (None: only Manage Server)."""
        if role_id is not None or clear:
            await self.groups.set_organiser_role(guild_id, role_id)
        return (await self.groups.settings(guild_id)).organiser_role_id

    async def set_timezone(self, guild_id: int, zone: ZoneInfo) -> ZoneInfo | None:
        """The zone of the group's sessions (from now on, whatever the paper of the day's);
        returns the paper of the day's zone when it is set and differs (it keeps it)."""
        await self.groups.set_timezone(guild_id, zone.key)
        digest = await self.digests.config(guild_id)
        return (ZoneInfo(digest.timezone) if digest is not None and digest.timezone != zone.key
                else None)

    async def set_reminders(self, guild_id: int, offsets: tuple[int, ...]) -> None:
        """Minutes before each session that reminders go out."""
        await self.groups.set_reminders(guild_id, offsets)

    async def set_prep_sheets(self, guild_id: int, on: bool) -> None:
        """Whether sessions get a prep sheet a day before."""
        await self.groups.set_prep_sheets(guild_id, on)

    async def zone(self, guild_id: int) -> ZoneInfo:
        """The zone of the group's sessions (their times, `/history`, reminders, the web page,
        the calendar): `/group timezone` when set; else the paper of the day's, when it is set
        up; else UTC. The paper of the day's own zone is its alone."""
        own = (await self.groups.settings(guild_id)).timezone
        if own:
            return ZoneInfo(own)
        digest = await self.digests.config(guild_id)
        return ZoneInfo(digest.timezone if digest is not None else "UTC")

    async def volunteer(self, guild_id: int, user_id: int) -> bool:
        """Join the presenter rotation; False if already in it."""
        return await self.groups.volunteer(guild_id, user_id)

    async def withdraw(self, guild_id: int, user_id: int) -> bool:
        """Leave the rotation; False if not in it."""
        return await self.groups.withdraw(guild_id, user_id)

    async def skip(self, guild_id: int, user_id: int) -> bool:
        """Give one's next turn to the others; False if not a volunteer."""
        return await self.groups.skip_turn(guild_id, user_id)

    async def swap(self, guild_id: int, user_id: int, other_id: int) -> bool:
        """Exchange places with another volunteer; False unless both volunteer."""
        return await self.groups.swap(guild_id, user_id, other_id)

    async def proposal(self, guild_id: int) -> Proposal | None:
        """Who presents next if no one is named (None: no volunteers)."""
        turn, last = await self.groups.rotation(guild_id)
        return propose(await self.groups.volunteers(guild_id), turn, last)

    async def presented(self, guild_id: int, presenter_id: int) -> None:
        """A session was scheduled with this presenter: the rotation moves on."""
        await self.groups.take_turn(guild_id, presenter_id)
