"""The calendar feed over HTTP, served by the bot process with aiohttp.web: `GET
/calendar/{token}.ics` answers the server whose live link holds the token, 404 for any other
(unknown, rotated, off). Answers carry an ETag and Last-Modified and are revalidated each time
(`no-cache`), so calendar clients polling every few minutes mostly get `304 Not Modified`.

The bot's one web server (`bot.features.web.web.WebServer`) serves it beside the pages."""

from __future__ import annotations

import hashlib
import logging
import re
from email.utils import format_datetime, parsedate_to_datetime

from aiohttp import web

from bot.features.calendar.service import CalendarService
from bot.features.web.directory import Directory, answer_names

log = logging.getLogger(__name__)
TOKEN = re.compile(r"^[-_A-Za-z0-9]{16,64}$")
CALENDAR_TYPE = "text/calendar"


def not_modified(request: web.Request, etag: str, modified_http: str) -> bool:
    """Whether the client's copy is current (If-None-Match wins over If-Modified-Since)."""
    if (match := request.headers.get("If-None-Match")) is not None:
        return etag in {tag.strip() for tag in match.split(",")} or match.strip() == "*"
    if (since := request.headers.get("If-Modified-Since")) is not None:
        try:
            return parsedate_to_datetime(since) >= parsedate_to_datetime(modified_http)
        except (TypeError, ValueError):
            return False
    return False


class CalendarWeb:
    """The feed's HTTP routes (served by `bot.features.web.web.WebServer` beside the pages)."""

    def __init__(self, directory: Directory, calendar: CalendarService) -> None:
        self.directory = directory
        self.calendar = calendar

    def add_routes(self, app: web.Application) -> None:
        """The feed's route."""
        app.router.add_get("/calendar/{token}.ics", self.feed)

    def app(self) -> web.Application:
        """The feed alone (for tests with aiohttp's test client)."""
        app = web.Application()
        self.add_routes(app)
        return app

    async def feed(self, request: web.Request) -> web.StreamResponse:
        """One server's calendar, or 404."""
        token = request.match_info["token"]
        guild_id = await self.calendar.guild_of(token) if TOKEN.match(token) else None
        if guild_id is None:
            raise web.HTTPNotFound(text="no calendar here\n")
        server = await self.directory.server(guild_id)
        made = await self.calendar.feed_file(guild_id, server_name=server.name, lang=server.lang,
                                             names=answer_names(self.directory, guild_id))
        etag = f'"{hashlib.sha256(made.body).hexdigest()[:32]}"'
        modified = format_datetime(made.modified, usegmt=True)
        headers = {"ETag": etag, "Last-Modified": modified, "Cache-Control": "private, no-cache",
                   "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
        if not_modified(request, etag, modified):
            return web.Response(status=304, headers=headers)
        return web.Response(body=made.body, headers=headers, content_type=CALENDAR_TYPE,
                            charset="utf-8")
