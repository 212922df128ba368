"""The paperclub bot: dependencies come in through the constructor; close() releases them."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger
from discord.ext import commands

from bot.client.cogs.catalog import CatalogCog
from bot.client.cogs.digest import DigestCog
from bot.client.cogs.papers import PapersCog
from bot.client.cogs.subscriptions import SubscriptionsCog
from bot.client.command_sync import sync_commands
from bot.client.outbound.digest_poster import DiscordDigestPoster
from bot.client.outbound.notifier import Notifier
from bot.client.translator import PaperclubTranslator
from bot.client.tree import PaperclubTree
from bot.services.catalog_loader import LoadReport, load_catalog
from bot.services.digest import DigestService
from bot.services.search import SearchService
from bot.services.subscriptions import SubscriptionService
from bot.settings import Settings
from storage.database import Database
from storage.digests import SqliteDigestStore
from storage.interfaces import PaperStore, StateStore
from storage.subscriptions import SqliteSubscriptionStore

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
                 subscription_store: SqliteSubscriptionStore, scheduler: AsyncIOScheduler,
                 force_sync: bool = False, **options: Any) -> None:
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
        self.force_sync = force_sync
        self.db = db
        self.papers = papers
        self.state = state
        self.search = search
        self.digests = digests
        self.scheduler = scheduler
        self.subscription_store = subscription_store
        self.subscriptions = SubscriptionService(subscription_store, papers)
        self.notifier = Notifier(self, self.subscriptions, spawn=self.spawn,
                                 dm_interval=1 / settings.subscriptions.dm_per_second)
        self.digest = DigestService(
            digests, papers, DiscordDigestPoster(self),
            grace=timedelta(hours=settings.digest.grace_hours),
            concurrency=settings.digest.concurrency, audience=self.notifier,
            requests_per_second=settings.digest.requests_per_second)
        self._tick_lock = asyncio.Lock()
        self._closing = False
        self._closed = asyncio.Event()
        self._background: set[asyncio.Task[Any]] = set()
        self.caught_up = asyncio.Event()
        self._views: weakref.WeakSet[discord.ui.View] = weakref.WeakSet()

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Run work in the background (notifications); close() cancels what is left."""
        task = asyncio.create_task(work, name=name)
        self._background.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def background_done(self) -> None:
        """Wait until background work (such as new-paper DMs) has finished."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

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
                                guild_id=discord_settings.dev_guild_id, force=self.force_sync)

    async def add_commands(self) -> None:
        """The translator and every cog (also used by `paperclub sync` and structural tests)."""
        await self.tree.set_translator(PaperclubTranslator())
        await self.add_cog(PapersCog(self))
        await self.add_cog(CatalogCog(self))
        await self.add_cog(DigestCog(self))
        await self.add_cog(SubscriptionsCog(self))

    async def load_catalog(self, path: Path) -> LoadReport:
        """Load a catalog file; subscribers hear about new papers in the background."""
        report = await load_catalog(self.papers, path)
        if report.counts.added_ids:
            self.spawn(self._announce_new_papers(report.counts.added_ids),
                       name="new-paper notifications")
        return report

    async def _announce_new_papers(self, paper_ids: list[str]) -> None:
        papers = [p for p in [await self.papers.get(i) for i in paper_ids] if p is not None]
        await self.notifier.new_papers(papers)

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
        """Stop the scheduler, disconnect, then release the database (its threads end too).

        Safe to call twice (a signal handler and `async with` both do): the second call waits
        for the first to finish."""
        if self._closing:
            await self._closed.wait()
            return
        self._closing = True
        try:
            if self.scheduler.running:
                self.scheduler.shutdown(wait=False)
            try:  # let a running digest turn finish its database work
                await asyncio.wait_for(self._tick_lock.acquire(), CLOSE_WAIT_SECONDS)
            except TimeoutError:
                log.warning("closing while a paper-of-the-day turn is still running")
            await self.search.close()
            for task in list(self._background):
                task.cancel()
            await asyncio.gather(*self._background, return_exceptions=True)
            for view in list(self._views):
                view.stop()
            await super().close()
        finally:
            try:
                await self.db.close()
            finally:
                self._closed.set()
