"""Gathering one server's calendar: its sessions (every status), their papers, the group's zone
and reminders, and the presenters' display names from whoever can resolve them; and the
server's feed link (an unguessable token: shown, rotated, turned off, looked up)."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from bot.features.calendar.feed import (
    FeedEntry,
    FeedSource,
    calendar_bytes,
    last_modified,
)
from bot.features.group.service import GroupService
from bot.features.papers.store import PaperStore
from bot.features.sessions.store import SessionStore
from bot.shared.clock import Clock
from bot.shared.lang import Lang
from bot.shared.link_store import LinkStore
from bot.shared.server_view import ServerView, seen
from domain.sessions import Session, SessionStatus

NameOf = Callable[[int], Awaitable[str | None]]
"""A member's display name in the server (None when unknown: the event then names nobody)."""
FEED_LIMIT = 1000
"""Sessions of each status a feed holds at most (a group meeting weekly: twenty years)."""
TOKEN_BYTES = 24
"""A link's secret: 192 random bits, URL-safe (32 characters)."""
FEED_PATH = "/calendar/{token}.ics"


def new_token() -> str:
    """A fresh, unguessable feed token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True, slots=True)
class FeedFile:
    """The calendar as served: its bytes and when it last changed (for HTTP caching)."""

    body: bytes
    modified: datetime


@dataclass(frozen=True, slots=True)
class FeedLinks:
    """A server's feed as calendar apps subscribe to it (`webcal://`) and as a plain download."""

    https: str
    webcal: str


def feed_links(base_url: str, token: str) -> FeedLinks:
    """The links for `token` under the web server's public address."""
    url = base_url.rstrip("/") + FEED_PATH.format(token=token)
    return FeedLinks(https=url, webcal="webcal://" + url.split("://", 1)[1])


async def _no_names(_user_id: int) -> str | None:
    return None


class CalendarService:
    """Builds a server's iCalendar feed from the stores."""

    def __init__(self, sessions: SessionStore, papers: PaperStore, group: GroupService, *,
                 links: LinkStore, base_url: str, clock: Clock,
                 view: ServerView | None = None) -> None:
        """`view` shows each server its corrections of the papers' titles."""
        self.sessions = sessions
        self.view = view
        self.papers = papers
        self.group = group
        self.links = links
        self.base_url = base_url
        self.clock = clock

    async def link(self, guild_id: int) -> FeedLinks | None:
        """The server's feed links (made the first time anyone asks); None while off."""
        token = await self.links.token(guild_id, new_token())
        return None if token is None else feed_links(self.base_url, token)

    async def rotate(self, guild_id: int) -> FeedLinks:
        """New links (the old ones stop working at once); turns a feed that was off on."""
        token = new_token()
        await self.links.rotate(guild_id, token)
        return feed_links(self.base_url, token)

    async def turn_off(self, guild_id: int) -> bool:
        """No link works any more (until rotated); False when it was already off."""
        return await self.links.turn_off(guild_id)

    async def guild_of(self, token: str) -> int | None:
        """The server whose live link holds `token`."""
        return await self.links.guild_of(token)

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
            paper = await seen(self.view, guild_id, await self.papers.get(session.paper_id))
            entries.append(FeedEntry(session, paper, name))
        settings = await self.group.settings(guild_id)
        return FeedSource(guild_id=guild_id, server_name=server_name,
                          zone=await self.group.zone(guild_id), lang=lang,
                          reminders=settings.reminders, entries=entries, built_at=self.clock())

    async def feed(self, guild_id: int, *, server_name: str, lang: Lang,
                   names: NameOf = _no_names) -> bytes:
        """The server's calendar file."""
        return (await self.feed_file(guild_id, server_name=server_name, lang=lang,
                                     names=names)).body

    async def feed_file(self, guild_id: int, *, server_name: str, lang: Lang,
                        names: NameOf = _no_names) -> FeedFile:
        """The server's calendar file with its change time."""
        source = await self.source(guild_id, server_name=server_name, lang=lang, names=names)
        return FeedFile(calendar_bytes(source), last_modified(source))
