"""The bot's web server: with `[web] enabled`, each server's read-only page and its calendar
feed, in one aiohttp application (started once the bot is ready, stopped when the cog is
unloaded as the bot closes); with `[web] process = "own"`, a `paperclub web` child process
serves them instead (`bot.client.web_child`). `/group web` hands out the page's link."""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.client.cog_host import CogHost, host_of
from bot.client.web_child import WebChild, child_env
from bot.features.calendar.web import CalendarWeb
from bot.features.web.web import GatewayDirectory, WebPages, WebServer

if TYPE_CHECKING:
    from bot.bundle import Services

log = logging.getLogger(__name__)


class WebCog(commands.Cog):
    """Serves the pages and feeds while the bot runs."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.server: WebServer | None = None
        self.child: WebChild | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Serve (once, not on every reconnect)."""
        settings = self.bot.settings.web
        if self.server is not None or self.child is not None or not settings.enabled \
                or not isinstance(self.bot, discord.Client):
            return
        if settings.process == "own":
            self.child = WebChild(child_env(
                self.bot.settings, api_base=discord.http.Route.BASE,
                token=self.bot.http.token or "", inherited=os.environ))
            self.child.start()
            return
        directory = GatewayDirectory(self.bot)
        server = WebServer(settings, [
            CalendarWeb(directory, self.services.calendar).add_routes,
            WebPages(directory, self.services.web).add_routes])
        try:
            await server.start()
        except OSError as exc:  # the port is taken (another process serves them)
            log.error("web pages and calendar feeds not served: cannot listen on %s:%s: %s",
                      settings.host, settings.port, exc)
            await server.stop()
            return
        self.server = server

    async def cog_unload(self) -> None:
        """Stop serving (and the child serving)."""
        if self.child is not None:
            await self.child.stop()
        if self.server is not None:
            await self.server.stop()


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(WebCog(host, host.services))
