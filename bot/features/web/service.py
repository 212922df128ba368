"""Gathering one server's web page: its reading list, upcoming and past sessions, the paper of
the day's history and a catalog search (the `/paper` search service); and the page's link (an
unguessable token: shown, rotated, turned off, looked up)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from zoneinfo import ZoneInfo

from bot.features.calendar.service import NameOf, new_token
from bot.features.digest.store import DigestStore
from bot.features.group.service import GroupService
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.search import SearchService
from bot.features.queue.service import QueueEntry, QueueService
from bot.features.reading.history import HistoryEntry, HistoryService
from bot.features.sessions.store import SessionStore
from bot.shared.link_store import LinkStore
from domain.digest import LedgerStatus
from domain.paper import Paper
from domain.sessions import Session, SessionStatus

PAGE_PATH = "/s/{token}/"
QUERY_LIMIT = 300
"""Characters of a search kept (as `/paper`'s option)."""
RESULT_LIMIT = 10
UPCOMING_LIMIT = 25
DAILY_LIMIT = 30
"""Paper-of-the-day rows shown (about a month)."""
TOKEN_SECONDS = 2.0
"""How long a token's server is remembered; a rotation in this process forgets it at once,
one in another process is seen within this long."""
TOKENS_KEPT = 4096


def page_url(base_url: str, token: str) -> str:
    """The page's address under the web server's public address."""
    return base_url.rstrip("/") + PAGE_PATH.format(token=token)


class LinkAction(StrEnum):
    """What `/group web` does with the page's link."""

    SHOW = "show"
    ROTATE = "rotate"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class LinkAnswer:
    """The link after the action (None: the page is off) and whether anything changed."""

    url: str | None
    changed: bool


@dataclass(frozen=True, slots=True)
class Upcoming:
    """A scheduled session, its paper and its presenter's display name (None: nobody yet)."""

    session: Session
    paper: Paper | None
    presenter: str | None


@dataclass(frozen=True, slots=True)
class Past:
    """A discussed paper as `/history` lists it, with the presenter's display name."""

    entry: HistoryEntry
    presenter: str | None


@dataclass(frozen=True, slots=True)
class Daily:
    """A posted paper of the day: its local date, paper and discussion thread."""

    local_date: date
    paper_id: str
    paper: Paper | None
    thread_id: int | None


@dataclass(frozen=True, slots=True)
class Found:
    """A catalog search: the query, its papers best first, and how it was read."""

    query: str
    papers: tuple[Paper, ...]
    did_you_mean: str | None = None
    refusal: QueryError | None = None
    no_words: bool = False
    """The query holds nothing to search for (emoji, punctuation): said so, as `/paper` does."""
    close: frozenset[str] = frozenset()
    """The papers found by meaning alone, by id."""


@dataclass(frozen=True, slots=True)
class PageData:
    """Everything one server's page shows."""

    guild_id: int
    zone: ZoneInfo
    queue: tuple[QueueEntry, ...]
    upcoming: tuple[Upcoming, ...]
    past: tuple[Past, ...]
    daily: tuple[Daily, ...]
    found: Found | None


async def _nobody(_user_id: int) -> str | None:
    return None


class WebPageService:
    """Reads what the page shows through the services the commands use, and keeps its link."""

    def __init__(self, *, links: LinkStore, queue: QueueService, history: HistoryService,
                 sessions: SessionStore, digests: DigestStore, search: SearchService,
                 group: GroupService, base_url: str,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.links = links
        self.queue = queue
        self.history = history
        self.sessions = sessions
        self.digests = digests
        self.search = search
        self.group = group
        self.base_url = base_url
        self.monotonic = monotonic
        self._tokens: OrderedDict[str, tuple[float, int | None]] = OrderedDict()

    async def link(self, guild_id: int) -> str | None:
        """The server's page link (made the first time anyone asks); None while off."""
        token = await self.links.token(guild_id, new_token())
        return None if token is None else page_url(self.base_url, token)

    async def rotate(self, guild_id: int) -> str:
        """A new link (the old one stops working at once); turns a page that was off on."""
        token = new_token()
        await self.links.rotate(guild_id, token)
        self._forget(guild_id)
        return page_url(self.base_url, token)

    async def turn_off(self, guild_id: int) -> bool:
        """No link works any more (until rotated); False when it was already off."""
        changed = await self.links.turn_off(guild_id)
        self._forget(guild_id)
        return changed

    def _forget(self, guild_id: int) -> None:
        for token in [t for t, (_, g) in self._tokens.items() if g == guild_id]:
            del self._tokens[token]

    async def act(self, guild_id: int, action: LinkAction) -> LinkAnswer:
        """Show, rotate or turn off the server's link."""
        if action is LinkAction.ROTATE:
            return LinkAnswer(await self.rotate(guild_id), True)
        if action is LinkAction.OFF:
            return LinkAnswer(None, await self.turn_off(guild_id))
        return LinkAnswer(await self.link(guild_id), False)

    async def guild_of(self, token: str) -> int | None:
        """The server whose live page link holds `token` (remembered for `TOKEN_SECONDS`, so a
        burst of page loads is one database read)."""
        now = self.monotonic()
        known = self._tokens.get(token)
        if known is not None and known[0] > now:
            return known[1]
        guild_id = await self.links.guild_of(token)
        self._tokens[token] = (now + TOKEN_SECONDS, guild_id)
        while len(self._tokens) > TOKENS_KEPT:
            self._tokens.popitem(last=False)
        return guild_id

    async def page(self, guild_id: int, *, query: str = "",
                   names: NameOf = _nobody) -> PageData:
        """The server's page; `query` (if any) searched as `/paper` searches it."""
        query = query.strip()[:QUERY_LIMIT]
        return PageData(
            guild_id=guild_id, zone=await self.group.zone(guild_id),
            queue=tuple(await self.queue.entries(guild_id)),
            upcoming=tuple(await self._upcoming(guild_id, names)),
            past=tuple([Past(e, None if e.discussed.presenter_id is None
                             else await names(e.discussed.presenter_id))
                        for e in await self.history.entries(guild_id)]),
            daily=tuple(await self._daily(guild_id)),
            found=await self.find(guild_id, query) if query else None)

    async def _upcoming(self, guild_id: int, names: NameOf) -> list[Upcoming]:
        sessions = await self.sessions.of_guild(guild_id, SessionStatus.SCHEDULED,
                                                limit=UPCOMING_LIMIT)
        papers = await self.search.papers([s.paper_id for s in sessions], guild_id=guild_id)
        by_id = {p.id: p for p in papers}
        return [Upcoming(s, by_id.get(s.paper_id),
                         None if s.presenter_id is None else await names(s.presenter_id))
                for s in sessions]

    async def _daily(self, guild_id: int) -> list[Daily]:
        rows = [row for row in await self.digests.recent(guild_id, limit=DAILY_LIMIT)
                if row.status is LedgerStatus.POSTED and row.paper_id]
        papers = await self.search.papers([r.paper_id or "" for r in rows], guild_id=guild_id)
        by_id = {p.id: p for p in papers}
        return [Daily(r.local_date, r.paper_id or "", by_id.get(r.paper_id or ""), r.thread_id)
                for r in rows]

    async def find(self, guild_id: int, text: str) -> Found:
        """`/paper`'s search: an id, arXiv id, DOI or exact title names one paper; other words
        are searched (typos corrected, across languages), as the server sees the papers."""
        named = await PaperLookup(self.search).identify(text, guild_id)  # one read
        if named.paper is not None:
            return Found(text, (named.paper,))
        try:
            parsed = parse_query(text)
        except QueryError as exc:
            return Found(text, (), refusal=exc)
        if parsed.is_empty():
            return Found(text, (), no_words=True)
        outcome = await self.search.search(parsed, limit=RESULT_LIMIT, guild_id=guild_id,
                                           by_meaning=True)
        return Found(text, tuple(hit.paper for hit in outcome.hits), outcome.did_you_mean,
                     close=outcome.close)
