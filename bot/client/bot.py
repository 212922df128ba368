"""The paperclub bot: lifecycle only. Its services come from `bot.wiring`; close() releases them.

The services' Discord side (the digest poster, the notifier) needs the client, and the bot needs
the services. The cycle is broken with a `ServicesFactory`: `bot.wiring.build_bot` defines it (so
the whole graph is still built in one place), and the bot calls it once, in its constructor,
with itself as the client. The posters only keep the client for calls made after login."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger
from discord.ext import commands

from bot.bundle import Services
from bot.client.background import BackgroundTasks, finish_interactions
from bot.client.command_sync import sync_commands
from bot.client.endpoints import bound_calls
from bot.client.extensions import EXTENSIONS
from bot.client.translator import PaperclubTranslator
from bot.client.tree import PaperclubTree
from bot.client.ui.live import LiveLists
from bot.client.write_wait import WriteWaitDeferral
from bot.features.notifications.sender import OutboxSender
from bot.ops.operations import HostCounts, Operations
from bot.settings import Settings
from bot.shared.heap import release, settle_after

log = logging.getLogger(__name__)

V = TypeVar("V", bound=discord.ui.view.BaseView)

# paperclub has no voice: discord.py's "PyNaCl / davey is not installed" warnings, logged when a
# client is built, are noise in the bot's log and around the command line's one-line errors.
for _flag in ("warn_nacl", "warn_dave"):
    if hasattr(discord.VoiceClient, _flag):
        setattr(discord.VoiceClient, _flag, False)
CLOSE_WAIT_SECONDS = 10.0


def bot_intents() -> discord.Intents:
    """Only the guilds intent: slash commands need no privileged intent."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


ServicesFactory = Callable[[discord.Client], tuple[Services, OutboxSender]]
"""Builds the services and the outbox sender (both need the client)."""


class PaperclubBot(commands.AutoShardedBot):
    """A discord.py bot: cogs over a `Services` bundle, the digest's wake-up, a clean close.

    Sharded: the shards of `discord.shard_count`/`discord.shard_ids`, or (neither set) every
    shard Discord recommends, in this process."""

    def __init__(self, *, settings: Settings, services: ServicesFactory,
                 background: BackgroundTasks, scheduler: AsyncIOScheduler,
                 release: Callable[[], Awaitable[None]], force_sync: bool = False,
                 write_wait: WriteWaitDeferral | None = None, ops: Operations | None = None,
                 **options: Any) -> None:
        owner_ids = set(settings.discord.owner_ids)
        if owner_ids:
            options["owner_ids"] = owner_ids
        if settings.discord.shard_count is not None:
            options.setdefault("shard_count", settings.discord.shard_count)
            options.setdefault("shard_ids", list(settings.discord.shards().owned))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=PaperclubTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )
        if write_wait is not None and isinstance(self.tree, PaperclubTree):
            self.tree.write_wait = write_wait
        bound_calls(self.http, settings.discord.call_timeout_seconds)
        self.settings = settings
        self.force_sync = force_sync
        self.scheduler = scheduler
        self.background = background
        self._release = release
        self.services, self.outbox = services(self)
        self._tick_lock = asyncio.Lock()
        self._feed_lock = asyncio.Lock()
        self._preparing = False
        self._closing = False
        self._closed = asyncio.Event()
        self.caught_up = asyncio.Event()
        self._views: weakref.WeakSet[discord.ui.view.BaseView] = weakref.WeakSet()
        self.lists = LiveLists(background.spawn)
        self.ops = ops
        """Health, readiness and metrics (`bot.ops`); None in tests that build a bare bot."""
        if ops is not None:
            ops.attach(self)
            if isinstance(self.tree, PaperclubTree):
                self.tree.timer = ops.timer

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Open the operations listener (`[ops]`), then log in and connect."""
        if self.ops is not None:
            await self.ops.start()
        await super().start(token, reconnect=reconnect)

    def ops_counts(self) -> HostCounts:
        """Background work in flight and DMs refused, for the metrics."""
        return HostCounts(background_tasks=len(self.background),
                          features_building=self.services.recommend.features.building,
                          dms_refused=self.outbox.refused_dms)

    async def background_done(self) -> None:
        """Wait until background work has finished and nothing in the outbox is due."""
        await self.background.wait()
        await self.outbox.idle()

    def track(self, view: V) -> V:
        """Remember a view sent in a message (or a form opened), so that close() can stop its
        timeout task."""
        self._views.add(view)
        return view

    async def setup_hook(self) -> None:
        """Translator, cogs, the outbox (resuming what earlier runs left), the typo vocabulary
        and the recommendation features (both brought up in the background), and a command
        sync if the settings ask for one."""
        await self.add_commands()
        await self.services.search.prepare()
        await self.services.recommend.prepare()
        self.background.spawn(settle_after(self.services.search.built,  # `bot.shared.heap`
                                           self.services.recommend.features.built),
                              "freeze the start-up heap")
        # papers an earlier run added but stopped or died before announcing
        self.background.spawn(self.services.catalog.announce_pending(),
                              "announce the papers left unannounced")
        self.outbox.start()
        self.scheduler.add_job(self.digest_tick, IntervalTrigger(
            seconds=self.settings.digest.tick_seconds), id="digest", coalesce=True,
            max_instances=1, misfire_grace_time=None, replace_existing=True)
        # Feeds on their own job: a slow or throttling arXiv never holds the digest back.
        self.scheduler.add_job(self.feed_tick, IntervalTrigger(
            seconds=self.settings.digest.tick_seconds), id="feeds", coalesce=True,
            max_instances=1, misfire_grace_time=None, replace_existing=True)
        self.scheduler.start()
        discord_settings = self.settings.discord
        if discord_settings.sync != "off":
            await sync_commands(self.tree, self.services.sync_record,
                                target=discord_settings.sync,
                                guild_id=discord_settings.dev_guild_id, force=self.force_sync)

    async def add_commands(self) -> None:
        """The translator and every feature's cog, loaded as extensions by name (also used by
        `paperclub sync` and structural tests)."""
        await self.tree.set_translator(PaperclubTranslator())
        for name in EXTENSIONS:
            await self.load_extension(name)

    async def on_ready(self) -> None:
        """Catch up at once on a start or reconnect, rather than at the next wake."""
        try:
            await self.digest_tick()
        finally:
            self.caught_up.set()
        # arXiv may be slow: the feeds catch up in the background (`background_done` waits).
        self.background.spawn(self.feed_tick(), "feeds catch-up")

    async def digest_tick(self) -> None:
        """The scheduler's wake-up: the digest, the votes, the reminders, the corrections'
        source-change notices and review messages, and the new papers left unannounced decide
        what is due; then prep sheets, in the background.

        Each runs on its own, so a failing one never holds the other back."""
        if self.ops is not None:
            self.ops.ticked()
        if self.is_ready() and not self.is_closed() and not self._closing:
            async with self._tick_lock:
                turns: tuple[tuple[str, Callable[[], Awaitable[Any]]], ...] = (
                    ("digest", self.services.digest_scheduler.tick),
                    ("votes", self.services.votes.tick),
                    ("reminders", self.services.reminders.tick),
                    ("corrections", self.services.correction_sources.tick),
                    ("reviews", self.services.correction_reviews),
                    ("announcements", self.services.catalog.announce_pending))
                for kind, tick in turns:
                    try:
                        done = await tick()
                    except Exception:
                        log.exception("a scheduled turn failed")
                    else:
                        if self.ops is not None and isinstance(done, list):
                            self.ops.turn(kind, done)
            self._prep_turn()

    def _prep_turn(self) -> None:
        """Prep sheets' turn, in the background (a model may take minutes), one at a time."""
        prep = self.services.prep
        if prep is None or self._preparing:
            return
        self._preparing = True

        async def turn() -> None:
            try:
                await prep.tick()
            except Exception:
                log.exception("a prep-sheet turn failed")
            finally:
                self._preparing = False

        self.background.spawn(turn(), "prep sheets")

    async def feed_tick(self) -> None:
        """The scheduler's wake-up for arXiv feeds: poll what is due, post what is owed."""
        if (self.is_ready() and not self.is_closed() and not self._closing
                and not self._feed_lock.locked()):
            async with self._feed_lock:
                try:
                    await self.services.feeds.tick()
                except Exception:
                    log.exception("a feed turn failed")

    async def close(self) -> None:
        """Stop the scheduler; while a running digest or feed turn and running commands finish
        (cancelled after `CLOSE_WAIT_SECONDS`), send what the outbox has for at most
        `subscriptions.drain_seconds` and give back the rest (sent at once by the next start);
        disconnect, then release the services' resources (the database).

        Safe to call twice (a signal handler and `async with` both do): the second call waits
        for the first to finish."""
        if self._closing:
            await self._closed.wait()
            return
        self._closing = True
        try:
            if self.scheduler.running:  # no new turns; a running one finishes (see below)
                self.scheduler.pause()
            # The outbox drains while the turns below finish, so that its leases are given
            # back within systemd's stop timeout even when a turn takes its whole wait.
            drained = asyncio.ensure_future(
                self.outbox.stop(self.settings.subscriptions.drain_seconds))
            try:  # let a running digest turn finish its database work
                await asyncio.wait_for(self._tick_lock.acquire(), CLOSE_WAIT_SECONDS)
            except TimeoutError:
                log.warning("closing while a paper-of-the-day turn is still running")
            try:  # and a running feed turn (it records a poll in one transaction)
                await asyncio.wait_for(self._feed_lock.acquire(), CLOSE_WAIT_SECONDS)
            except TimeoutError:
                log.warning("closing while a feed turn is still running")
            if self.scheduler.running:  # cancels what still runs: nothing, or a stuck turn
                self.scheduler.shutdown(wait=False)
            # running commands and clicks finish their writes before the database closes
            await finish_interactions(CLOSE_WAIT_SECONDS)
            await drained
            await self.background.cancel()
            await self.services.catalog.release()  # unannounced papers it was announcing
            await self.services.recommend.close()  # a feature catch-up in flight
            for view in list(self._views):
                view.stop()
            self.lists.close()
            if self._ready is discord.utils.MISSING:  # never logged in: nothing to disconnect
                await self.http.close()
            else:
                await super().close()
        finally:
            try:
                if self.ops is not None:
                    await self.ops.stop()
                await self._release()
            finally:
                release()
                self._closed.set()
