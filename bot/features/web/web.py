"""The web page over HTTP, and the bot's one web server (the page beside the calendar feed).

`GET /s/{token}/` answers the server whose live page link holds the token, 404 for any other
(unknown, rotated, off). `?lang=en|zh-CN|zh-TW` picks the language (default: the server's),
`?q=` searches the catalog. Answers carry an ETag (of the body) and Last-Modified (when this
process first served that body) and are revalidated each time (`no-cache`), with a strict
Content-Security-Policy, no referrer and no sniffing. aiohttp reads each connection in its own
task: a slow client holds a socket, never the event loop; a connection that sends nothing is
closed after `IDLE_SECONDS`."""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import format_datetime

import discord
from aiohttp import web

from bot.features.calendar.web import TOKEN, not_modified, presenter_names
from bot.features.notifications.notices import guild_lang
from bot.features.web.render import CONTENT_SECURITY_POLICY, render_page
from bot.features.web.service import WebPageService
from bot.features.web.view import page_context
from bot.settings import WebSettings
from bot.shared.lang import Lang
from bot.shared.messages import t

log = logging.getLogger(__name__)
IDLE_SECONDS = 15.0
"""A connection that sends no request (or stays idle between requests) this long is closed."""
SEEN_BODIES = 4096
"""Bodies whose first-served time is remembered (for Last-Modified)."""
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY, "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin"}


def _lang(request: web.Request, fallback: Lang) -> Lang:
    wanted = request.query.get("lang", "")
    return next((lang for lang in Lang if lang.value == wanted), fallback)


class WebPages:
    """Each server's read-only page."""

    def __init__(self, client: discord.Client, pages: WebPageService, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.client = client
        self.pages = pages
        self.clock = clock
        self._seen: OrderedDict[str, datetime] = OrderedDict()

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
        guild = self.client.get_guild(guild_id)
        lang = _lang(request, guild_lang(self.client, guild_id))
        data = await self.pages.page(guild_id, query=request.query.get("q", ""),
                                     names=presenter_names(guild))
        body = render_page(page_context(data, lang, guild.name if guild else "paperclub"))
        etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
        modified = format_datetime(self._first_served(etag), usegmt=True)
        headers = {**SECURITY_HEADERS, "ETag": etag, "Last-Modified": modified,
                   "Cache-Control": "private, no-cache", "Content-Language": lang.value}
        if not_modified(request, etag, modified):
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, headers=headers, content_type="text/html",
                            charset="utf-8")


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
