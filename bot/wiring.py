"""The one place that builds paperclub: settings -> database -> stores -> services -> the
Discord-side posters -> the bot. Seams (the clock, the scheduler, DM pacing) are parameters
with production defaults, so tests build the same graph with their own."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.client.background import BackgroundTasks
from bot.client.bot import PaperclubBot
from bot.client.outbound.digest_poster import DiscordDigestPoster
from bot.client.outbound.notifier import Notifier
from bot.client.outbound.session_poster import DiscordSessionPoster
from bot.services.bundle import Services
from bot.services.catalog import CatalogService
from bot.services.catalog_loader import load_catalog
from bot.services.digest import DigestService, utc_now
from bot.services.group import GroupService
from bot.services.reminders import ReminderService
from bot.services.search import SearchService
from bot.services.sessions import SessionService
from bot.services.subscriptions import SubscriptionService
from bot.services.sync_record import SyncRecord
from bot.settings import Settings
from storage.database import Database
from storage.digests import SqliteDigestStore
from storage.groups import SqliteGroupStore
from storage.history import SqliteHistoryStore
from storage.papers import SqlitePaperStore
from storage.sessions import SqliteSessionStore
from storage.state import SqliteStateStore
from storage.subscriptions import SqliteSubscriptionStore

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


class MissingToken(Exception):
    """No Discord token was configured."""


async def build_bot(settings: Settings, *, clock: Clock = utc_now,
                    scheduler: AsyncIOScheduler | None = None,
                    dm_interval: float | None = None, force_sync: bool = False,
                    **options: Any) -> PaperclubBot:
    """Open the database (loading the catalog if it is empty) and build the bot on it.

    `clock` drives the paper of the day; `scheduler` wakes it (default: a UTC asyncio
    scheduler); `dm_interval` paces DMs (default: from `subscriptions.dm_per_second`);
    `options` go to discord.py's client. The bot's close() closes the database."""
    db = await Database.open(settings.database.path)
    try:
        papers = SqlitePaperStore(db)
        if await papers.count() == 0:
            report = await load_catalog(papers, settings.catalog_path())
            log.info("loaded %d papers from %s", report.loaded, settings.catalog_path().name)
        search = SearchService(papers, fuzzy_threshold=settings.search.fuzzy_threshold)
        subscriptions = SubscriptionService(SqliteSubscriptionStore(db), papers, search)
        digests = SqliteDigestStore(db)
        sync_record = SyncRecord(SqliteStateStore(db))
        groups, sessions = SqliteGroupStore(db), SqliteSessionStore(db)
        group = GroupService(groups, digests)
        background = BackgroundTasks()
        pacing = dm_interval if dm_interval is not None else (
            1 / settings.subscriptions.dm_per_second)

        def services(client: discord.Client) -> Services:
            """The Discord side needs the client: the bot calls this with itself, once."""
            notifier = Notifier(client, subscriptions, background, dm_interval=pacing)
            digest = DigestService(
                digests, papers, DiscordDigestPoster(client),
                grace=timedelta(hours=settings.digest.grace_hours),
                concurrency=settings.digest.concurrency, clock=clock, audience=notifier,
                requests_per_second=settings.digest.requests_per_second)
            session_poster = DiscordSessionPoster(client)
            return Services(search=search,
                            catalog=CatalogService(papers, settings.catalog_path(), notifier),
                            digest=digest, subscriptions=subscriptions, sync_record=sync_record,
                            group=group,
                            sessions=SessionService(sessions, papers, SqliteHistoryStore(db),
                                                    group, session_poster, clock),
                            reminders=ReminderService(
                                sessions, groups, papers, session_poster, clock=clock,
                                concurrency=settings.digest.concurrency,
                                requests_per_second=settings.digest.requests_per_second))

        async def release() -> None:
            try:
                await search.close()
            finally:
                await db.close()

        return PaperclubBot(settings=settings, services=services, background=background,
                            scheduler=scheduler or AsyncIOScheduler(timezone=UTC),
                            release=release, force_sync=force_sync, **options)
    except BaseException:
        await db.close()
        raise


def token_of(settings: Settings) -> str:
    """The Discord token, or `MissingToken` saying exactly what to do."""
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        raise MissingToken(
            "no Discord token: set the DISCORD_TOKEN environment variable to your bot's token "
            "(Discord Developer Portal -> your application -> Bot -> Reset Token). "
            "To try paperclub without a Discord account, run `paperclub local` "
            "(or `python3 dev.py demo`)."
        )
    return settings.discord_token.get_secret_value().strip()
