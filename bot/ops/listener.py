"""The operations listener: `/healthz`, `/readyz` and `/metrics` on an address of their own
(`[ops]`), apart from the public web page, so a reverse proxy serving the page never exposes
them. Each request is its own aiohttp task: a slow scrape never holds a slash command."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.ops.settings import OpsSettings

log = logging.getLogger(__name__)
TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"
"""Prometheus's classic text format, as `prometheus_client.generate_latest` writes it (every
Prometheus 2.x and 3.x reads it)."""


class OpsListener:
    """Serves the health checks and, when given, the metrics."""

    def __init__(self, settings: OpsSettings, problems: Callable[[], Awaitable[list[str]]],
                 metrics: Callable[[], Awaitable[bytes]] | None) -> None:
        self.settings = settings
        self.problems = problems
        self.metrics = metrics
        self._runner: web.AppRunner | None = None
        self.port = settings.port
        """The port it listens on (the chosen one when `port = 0`)."""

    def app(self) -> web.Application:
        """The routes."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        if self.metrics is not None:
            app.router.add_get("/metrics", self.scrape)
        return app

    async def healthz(self, request: web.Request) -> web.Response:
        """200 whenever the event loop answers at all."""
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        """200 when ready, else 503 with every reason, one a line."""
        problems = await self.problems()
        if not problems:
            return web.Response(text="ready\n")
        return web.Response(status=503, text="not ready:\n" + "".join(
            f"- {problem}\n" for problem in problems))

    async def scrape(self, request: web.Request) -> web.Response:
        """The metrics in Prometheus's text format."""
        assert self.metrics is not None
        response = web.Response(body=await self.metrics())
        response.headers["Content-Type"] = TEXT_FORMAT
        return response

    async def start(self) -> None:
        """Listen (an `OSError` when the address is taken)."""
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        log.info("operations listener on http://%s:%s (/healthz, /readyz%s)",
                 self.settings.host, self.port, ", /metrics" if self.metrics else "")

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
