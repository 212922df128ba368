"""The web page over HTTP, and the bot's one web server (the page beside the calendar feed).

`GET /s/{token}/` answers the server whose live page link holds the token, 404 for any other
(unknown, rotated, off). `?lang=en|zh-CN|zh-TW` picks the language (default: the server's),
`?q=` searches the catalog. Answers carry an ETag (of the body) and Last-Modified (when this
process first served that body) and are revalidated each time (`no-cache`), with a strict
Content-Security-Policy, no referrer and no sniffing. aiohttp reads each connection in its own
task: a slow client holds a socket, never the event loop; a connection that sends nothing is
closed after `IDLE_SECONDS`.

Under load the same page is built once: concurrent requests for one (server, language,
search) share one build, and a built page is reused for `PAGE_SECONDS` (so a change shows
within that long); the HTML is rendered off the event loop, in a worker thread. The server's
name and language and members' display names come from a `Directory` (the bot's gateway cache,
or Discord's REST API in the page's own process), which remembers them, so loads do not turn
into Discord requests."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import TypeVar

import aiohttp
import discord
from aiohttp import web

from bot.features.calendar.web import TOKEN, not_modified
from bot.features.web.directory import (
    DEFAULT_SERVER,
    FAILED_SECONDS,
    NAME_SECONDS,
    Directory,
    ServerInfo,
    answer_names,
    server_info,
)
from bot.features.web.render import CONTENT_SECURITY_POLICY, render_page
from bot.features.web.service import QUERY_LIMIT, WebPageService
from bot.features.web.view import page_context
from bot.settings import WebSettings
from bot.shared.expiring import Expiring
from bot.shared.lang import Lang
from bot.shared.messages import t

log = logging.getLogger(__name__)
K = TypeVar("K")
V = TypeVar("V")
Building = asyncio.Task[tuple[bytes, str]]
"""A page being built (or built): its HTML and ETag."""
IDLE_SECONDS = 15.0
"""A connection that sends no request (or stays idle between requests) this long is closed."""
SEEN_BODIES = 4096
"""Bodies whose first-served time is remembered (for Last-Modified)."""
PAGE_SECONDS = 2.0
"""How long a built page is served again before it is rebuilt."""
KEPT = 1024
"""Built pages remembered at most (the oldest go first)."""
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY, "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin"}
ROBOTS = "User-agent: *\nDisallow: /\n"
"""Every page and feed is private to its link's holders: no crawler reads any."""


def _lang(request: web.Request, fallback: Lang) -> Lang:
    """The page's language: `?lang=` when it names one of ours exactly, else `fallback` (the
    server's). Anything else (`?lang=../..`, `?lang=fr`) is ignored on purpose: the value is
    only ever compared with our languages, never used in a path, a header or the page."""
    wanted = request.query.get("lang", "")
    return next((lang for lang in Lang if lang.value == wanted), fallback)


class WebPages:
    """Each server's read-only page."""

    def __init__(self, directory: Directory, pages: WebPageService, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.directory = directory
        self.pages = pages
        self.clock = clock
        self._seen: OrderedDict[str, datetime] = OrderedDict()
        self._built: OrderedDict[tuple[int, Lang, str], tuple[datetime, Building]] = OrderedDict()

    def add_routes(self, app: web.Application) -> None:
        """The page's routes."""
        app.router.add_get("/s/{token}/", self.page)

    def _first_served(self, etag: str) -> datetime:
        """When this process first served the body tagged `etag` (to the second)."""
        if etag in self._seen:
            self._seen.move_to_end(etag)
        else:
            self._seen[etag] = self.clock().replace(microsecond=0)
            while len(self._seen) > SEEN_BODIES:
                self._seen.popitem(last=False)
        return self._seen[etag]

    async def page(self, request: web.Request) -> web.StreamResponse:
        """One server's page, or 404."""
        token = request.match_info["token"]
        guild_id = await self.pages.guild_of(token) if TOKEN.match(token) else None
        if guild_id is None:
            lang = _lang(request, Lang.EN)
            raise web.HTTPNotFound(text=t(lang, "web.not_found") + "\n", headers=SECURITY_HEADERS)
        lang = _lang(request, (await self.directory.server(guild_id)).lang)
        query = request.query.get("q", "").strip()[:QUERY_LIMIT]
        body, etag = await self._body(guild_id, lang, query)
        modified = format_datetime(self._first_served(etag), usegmt=True)
        headers = {**SECURITY_HEADERS, "ETag": etag, "Last-Modified": modified,
                   "Cache-Control": "private, no-cache", "Content-Language": lang.value}
        if not_modified(request, etag, modified):
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, headers=headers, content_type="text/html",
                            charset="utf-8")

    async def _body(self, guild_id: int, lang: Lang, query: str) -> tuple[bytes, str]:
        """The page, built once for concurrent and recent requests alike."""
        key, now = (guild_id, lang, query), self.clock()
        built = self._built.get(key)
        if built is None or built[0] <= now or _failed(built[1]):
            built = (now + timedelta(seconds=PAGE_SECONDS),
                     asyncio.create_task(self._build(guild_id, lang, query)))
            self._built[key] = built
            _trim(self._built)
        return await asyncio.shield(built[1])

    async def _build(self, guild_id: int, lang: Lang, query: str) -> tuple[bytes, str]:
        """The page's HTML and its ETag, rendered in a worker thread."""
        server = await self.directory.server(guild_id)
        data = await self.pages.page(guild_id, query=query,
                                     names=answer_names(self.directory, guild_id))
        body = await asyncio.to_thread(lambda: render_page(page_context(data, lang, server.name)))
        return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def _failed(task: Building) -> bool:
    return task.done() and (task.cancelled() or task.exception() is not None)


def _trim(kept: OrderedDict[K, V]) -> None:
    while len(kept) > KEPT:
        kept.popitem(last=False)


class GatewayDirectory:
    """The bot's gateway cache; a member it does not hold is asked of Discord (remembered)."""

    def __init__(self, client: discord.Client, *,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self._names: Expiring[tuple[int, int], str | None] = Expiring(monotonic)

    async def server(self, guild_id: int) -> ServerInfo:
        """From the cache: the server's name and preferred locale."""
        guild = self.client.get_guild(guild_id)
        return server_info(guild) if guild is not None else DEFAULT_SERVER

    async def member_name(self, guild_id: int, user_id: int, *, ask: bool = True) -> str | None:
        """The cached member's display name, else Discord's answer (remembered)."""
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return None
        if (member := guild.get_member(user_id)) is not None:
            return member.display_name
        if (known := self._names.get((guild_id, user_id))) is not None or not ask:
            return known[0] if known is not None else None

        async def fetch() -> tuple[str | None, float]:
            try:
                return (await guild.fetch_member(user_id)).display_name, NAME_SECONDS
            except discord.NotFound:
                return None, NAME_SECONDS
            except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError):
                return None, FAILED_SECONDS

        return await self._names.load((guild_id, user_id), fetch)


async def _robots(_request: web.Request) -> web.Response:
    """`/robots.txt`: crawlers are asked to read nothing (the pages say `noindex` too)."""
    return web.Response(text=ROBOTS, content_type="text/plain", headers={
        **SECURITY_HEADERS, "Cache-Control": "public, max-age=86400"})


class WebServer:
    """One aiohttp application for every route the bot serves, and its runner."""

    def __init__(self, settings: WebSettings,
                 routes: list[Callable[[web.Application], None]]) -> None:
        self.settings = settings
        self.routes = routes
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        """The application (also for tests with aiohttp's test client)."""
        app = web.Application()
        app.router.add_get("/robots.txt", _robots)
        for add in self.routes:
            add(app)
        return app

    async def start(self) -> None:
        """Listen on `[web] host:port`."""
        self._runner = web.AppRunner(self.app(), access_log=None,
                                     keepalive_timeout=IDLE_SECONDS)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        log.info("web pages and calendar feeds served at %s", self.settings.public_base())

    @property
    def port(self) -> int:
        """The port listened on (the one `[web] port = 0` picked)."""
        assert self._runner is not None, "not started"
        return int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        """Stop listening and finish open answers."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
