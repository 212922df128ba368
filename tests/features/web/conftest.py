"""The web page over real SQLite stores (the bundled catalog loaded) and a small stand-in for
the Discord client: the guild's name, locale and members' display names."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.features.digest.store import DigestStore
from bot.features.group.service import GroupService
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.search import SearchService
from bot.features.queue.service import QueueService
from bot.features.reading.history import HistoryService
from bot.features.web.service import WebPageService
from bot.features.web.web import GatewayDirectory, WebPages
from storage import backend as stores
from storage.sqlite.database import Database
from tests.clocks import FakeClock

BASE = "https://paperclub.example.org"
GUILD, OTHER = 9001, 9002


@dataclass
class FakeMember:
    display_name: str


@dataclass
class FakeGuild:
    """What the page reads of a guild: name, locale, members' display names."""

    id: int
    name: str
    preferred_locale: str = "en-US"
    members: dict[int, str] = field(default_factory=dict)
    fetched: list[int] = field(default_factory=list)
    """Members asked of Discord (not in the cache)."""

    def get_member(self, user_id: int) -> FakeMember | None:
        name = self.members.get(user_id)
        return FakeMember(name) if name is not None else None

    async def fetch_member(self, user_id: int) -> FakeMember:
        self.fetched.append(user_id)
        if user_id in self.left:
            raise discord.NotFound(cast(Any, _Response()), "unknown member")
        return FakeMember(f"Fetched {user_id}")

    @property
    def left(self) -> set[int]:
        """Members who left the server (odd ids, in these tests)."""
        return {user_id for user_id in self.fetched if user_id % 2}


class _Response:
    status = 404
    reason = "Not Found"


@dataclass
class FakeClient:
    guilds: dict[int, FakeGuild]

    def get_guild(self, guild_id: int) -> FakeGuild | None:
        return self.guilds.get(guild_id)


@dataclass
class Site:
    """The page's service, its stores and a client for HTTP requests."""

    pages: WebPageService
    queue: QueueService
    history: HistoryService
    client: FakeClient
    http: TestClient[Any, Any]
    digests: DigestStore
    clock: FakeClock
    elsewhere: WebPageService
    """Another process's service on the same database."""
    ticks: list[float]
    """The services' monotonic seconds."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 11, 30, 8, 0, tzinfo=UTC))


@pytest.fixture
async def site(db: Database, search: SearchService, clock: FakeClock) -> AsyncIterator[Site]:
    lookup = PaperLookup(search)
    queue = QueueService(stores.QUEUE.open(db), lookup, clock)
    history = HistoryService(stores.HISTORY.open(db), lookup)
    digests = stores.DIGESTS.open(db)
    ticks = [0.0]

    def service() -> WebPageService:
        return WebPageService(
            links=stores.WEB_LINKS.open(db), queue=queue, history=history,
            sessions=stores.SESSIONS.open(db), digests=digests, search=search,
            group=GroupService(stores.GROUPS.open(db), digests), base_url=BASE,
            monotonic=lambda: ticks[0])

    pages = service()
    client = FakeClient({GUILD: FakeGuild(GUILD, "Reading Club", members={42: "Ada L."}),
                         OTHER: FakeGuild(OTHER, "其他读书会", preferred_locale="zh-TW")})
    app = web.Application()
    WebPages(GatewayDirectory(client), pages,  # type: ignore[arg-type]
             clock=clock).add_routes(app)
    async with TestClient(TestServer(app)) as http:
        yield Site(pages, queue, history, client, http, digests, clock, service(), ticks)
