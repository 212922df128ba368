"""Building the bot from settings and running it against Discord."""

from __future__ import annotations

import logging
from datetime import UTC
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.client.bot import PaperclubBot
from bot.services.catalog_loader import load_catalog
from bot.services.search import SearchService
from bot.settings import Settings
from storage.database import Database
from storage.digests import SqliteDigestStore
from storage.papers import SqlitePaperStore
from storage.state import SqliteStateStore
from storage.subscriptions import SqliteSubscriptionStore

log = logging.getLogger(__name__)


class MissingToken(Exception):
    """No Discord token was configured."""


async def build_bot(settings: Settings, **options: Any) -> PaperclubBot:
    """Open the database, load the catalog if it is empty, and construct the bot."""
    db = await Database.open(settings.database.path)
    try:
        papers = SqlitePaperStore(db)
        if await papers.count() == 0:
            report = await load_catalog(papers, settings.catalog_path())
            log.info("loaded %d papers from %s", report.loaded, settings.catalog_path().name)
        return PaperclubBot(
            digests=SqliteDigestStore(db),
            subscription_store=SqliteSubscriptionStore(db),
            scheduler=AsyncIOScheduler(timezone=UTC),
            settings=settings,
            db=db,
            papers=papers,
            state=SqliteStateStore(db),
            search=SearchService(papers, fuzzy_threshold=settings.search.fuzzy_threshold),
            **options,
        )
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
