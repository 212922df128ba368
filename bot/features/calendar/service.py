"""Gathering one server's calendar: its sessions (every status), their papers, the group's zone
and reminders, and the presenters' display names from whoever can resolve them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.features.calendar.feed import FeedEntry, FeedSource, calendar_bytes
from bot.features.group.service import GroupService
from bot.features.papers.store import PaperStore
from bot.features.sessions.store import SessionStore
from bot.shared.clock import Clock
from bot.shared.lang import Lang
from domain.sessions import Session, SessionStatus

NameOf = Callable[[int], Awaitable[str | None]]
"""A member's display name in the server (None when unknown: the event then names nobody)."""
FEED_LIMIT = 1000
"""Sessions of each status a feed holds at most (a group meeting weekly: twenty years)."""


async def _no_names(_user_id: int) -> str | None:
    return None


class CalendarService:
    """Builds a server's iCalendar feed from the stores."""

    def __init__(self, sessions: SessionStore, papers: PaperStore, group: GroupService, *,
                 clock: Clock) -> None:
        self.sessions = sessions
        self.papers = papers
        self.group = group
        self.clock = clock

    async def _sessions(self, guild_id: int) -> list[Session]:
        found: list[Session] = []
        for status in SessionStatus:
            found += await self.sessions.of_guild(guild_id, status, limit=FEED_LIMIT)
        return found

    async def source(self, guild_id: int, *, server_name: str, lang: Lang,
                     names: NameOf = _no_names) -> FeedSource:
        """What the server's calendar shows."""
        entries = []
        for session in await self._sessions(guild_id):
            name = None if session.presenter_id is None else await names(session.presenter_id)
            entries.append(FeedEntry(session, await self.papers.get(session.paper_id), name))
        settings = await self.group.settings(guild_id)
        return FeedSource(guild_id=guild_id, server_name=server_name,
                          zone=await self.group.zone(guild_id), lang=lang,
                          reminders=settings.reminders, entries=entries, built_at=self.clock())

    async def feed(self, guild_id: int, *, server_name: str, lang: Lang,
                   names: NameOf = _no_names) -> bytes:
        """The server's calendar file."""
        return calendar_bytes(await self.source(guild_id, server_name=server_name, lang=lang,
                                                names=names))
