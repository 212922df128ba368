"""The paperclub bot: dependencies come in through the constructor; close() releases them."""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import timedelta
from typing import Any, TypeVar

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger
from discord.ext import commands

from bot.cogs.catalog import CatalogCog
from bot.cogs.digest import DigestCog
from bot.cogs.papers import PapersCog
from bot.command_sync import sync_commands
from bot.digest_poster import DiscordDigestPoster
from bot.errors import PaperclubTree
from bot.i18n import PaperclubTranslator
from bot.services.digest import DigestService
from bot.services.search import SearchService
from bot.settings import Settings
from storage.database import Database
from storage.digests import SqliteDigestStore
from storage.interfaces import PaperStore, StateStore

log = logging.getLogger(__name__)

V = TypeVar("V", bound=discord.ui.View)
CLOSE_WAIT_SECONDS = 10.0


def bot_intents() -> discord.Intents:
    """Only the guilds intent: slash commands need no privileged intent."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class PaperclubBot(commands.Bot):
    """A discord.py bot wired to paperclub's storage and services."""

    def __init__(self, *, settings: Settings, db: Database, papers: PaperStore,
                 state: StateStore, search: SearchService, digests: SqliteDigestStore,
                 scheduler: AsyncIOScheduler, **options: Any) -> None:
        owner_ids = set(settings.discord.owner_ids)
        if owner_ids:
            options["owner_ids"] = owner_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=PaperclubTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )
        self.settings = settings
        self.db = db
        self.papers = papers
        self.state = state
        self.search = search
        self.digests = digests
        self.scheduler = scheduler
        self.digest = DigestService(
            digests, papers, DiscordDigestPoster(self),
            grace=timedelta(hours=settings.digest.grace_hours),
            concurrency=settings.digest.concurrency)
        self._tick_lock = asyncio.Lock()
        self.caught_up = asyncio.Event()
        self._views: weakref.WeakSet[discord.ui.View] = weakref.WeakSet()

    def track(self, view: V) -> V:
        """Remember a view sent in a message, so that close() can stop its timeout task."""
        self._views.add(view)
        return view

    async def setup_hook(self) -> None:
        """Translator, cogs, and a command sync if the settings ask for one."""
        await self.add_commands()
        self.scheduler.add_job(self.digest_tick, IntervalTrigger(
            seconds=self.settings.digest.tick_seconds), id="digest", coalesce=True,
            max_instances=1, misfire_grace_time=None, replace_existing=True)
        self.scheduler.start()
        discord_settings = self.settings.discord
        if discord_settings.sync != "off":
            await sync_commands(self.tree, self.state, target=discord_settings.sync,
                                guild_id=discord_settings.dev_guild_id)

    async def add_commands(self) -> None:
        """The translator and every cog (also used by `paperclub sync` and structural tests)."""
        await self.tree.set_translator(PaperclubTranslator())
        await self.add_cog(PapersCog(self))
        await self.add_cog(CatalogCog(self))
        await self.add_cog(DigestCog(self))

    async def on_ready(self) -> None:
        """Catch up at once on a start or reconnect, rather than at the next wake."""
        try:
            await self.digest_tick()
        finally:
            self.caught_up.set()

    async def digest_tick(self) -> None:
        """The scheduler's wake-up: the digest service decides what is due."""
        if self.is_ready() and not self.is_closed():
            async with self._tick_lock:
                await self.digest.tick()

    async def close(self) -> None:
        """Stop the scheduler, disconnect, then release the database (its threads end too)."""
        try:
            if self.scheduler.running:
                self.scheduler.shutdown(wait=False)
            try:  # let a running digest turn finish its database work
                await asyncio.wait_for(self._tick_lock.acquire(), CLOSE_WAIT_SECONDS)
            except TimeoutError:
                log.warning("closing while a paper-of-the-day turn is still running")
            await self.search.close()
            for view in list(self._views):
                view.stop()
            await super().close()
        finally:
            await self.db.close()
