"""`paperclub web [--config FILE]`: the web pages and calendar feeds in a process of their own,
on the configured database (SQLite or PostgreSQL), at `[web] host:port`, until SIGTERM or
SIGINT. Only what the pages need is built: no catalog load, no scheduler, no gateway; Discord
is asked over REST for server names, languages and display names (`RestDirectory`)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal

import click

from bot.cli.common import EXIT_OK, Fail, common_options, run_sync, settings_of
from bot.client.endpoints import set_discord_endpoints
from bot.client.rest_directory import RestDirectory
from bot.discord_token import token_of
from bot.features.calendar.web import CalendarWeb
from bot.features.web.web import WebPages, WebServer
from bot.graphs.web import opened_web
from bot.settings import Settings

log = logging.getLogger(__name__)
PARENT_CHECK_SECONDS = 1.0


async def _parent_gone(parent: int) -> None:
    """Return once this process's parent is no longer `parent` (it died: we were re-parented)."""
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_CHECK_SECONDS)
    log.warning("web pages: the bot (pid %s) is gone; stopping", parent)


async def serve_web(settings: Settings, *, parent: int | None = None) -> int:
    """Serve until a signal (or the parent's end); 0 after a clean shutdown."""
    token = token_of(settings)
    set_discord_endpoints(str(settings.discord.api_base), str(settings.discord.gateway_url))
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for stop in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(stop, stopped.set)
    async with opened_web(settings) as web:
        directory = RestDirectory(token)
        server = WebServer(settings.web, [CalendarWeb(directory, web.calendar).add_routes,
                                          WebPages(directory, web.pages).add_routes])
        try:
            await directory.start()
            try:
                await server.start()
            except OSError as exc:
                raise Fail(f"error: cannot listen on {settings.web.host}:{settings.web.port}: "
                           f"{exc.strerror or exc}") from None
            waits: list[asyncio.Future[object]] = [asyncio.ensure_future(stopped.wait())]
            if parent is not None:
                waits.append(asyncio.ensure_future(_parent_gone(parent)))
            _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
        finally:
            await server.stop()
            await directory.close()
    log.info("web pages: stopped")
    return EXIT_OK


@click.command("web")
@click.option("--parent-pid", type=int, default=None, hidden=True,
              help="Stop when this process (the bot that started us) is gone.")
@common_options
def web(parent_pid: int | None) -> int:
    """Serve the web pages and calendar feeds in a process of their own (DISCORD_TOKEN names
    presenters; the bot's `[web] process = "own"` starts this itself)."""
    settings = settings_of(click.get_current_context())
    return run_sync(serve_web(settings, parent=parent_pid))
