"""The calendar feed's graph (`paperclub calendar`, the web process, the bot)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.features.calendar.service import CalendarService
from bot.features.corrections.service import CorrectionService
from bot.features.group.service import GroupService
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from bot.shared.clock import Clock, utc_now
from storage import backend as stores
from storage.backend import AnyDatabase


@asynccontextmanager
async def opened_calendar(settings: Settings, *,
                          clock: Clock = utc_now) -> AsyncIterator[CalendarService]:
    """The calendar feed on the configured database, without Discord (`paperclub calendar`);
    it only reads, so it never creates or migrates the database."""
    db = await open_configured(settings.database, existing=True)
    try:
        yield calendar_service(db, settings, clock=clock)
    finally:
        await db.close()


def calendar_service(db: AnyDatabase, settings: Settings, *,
                     clock: Clock = utc_now) -> CalendarService:
    """The calendar feed's service on one open database (links under `[web] base_url`)."""
    group = GroupService(stores.GROUPS.open(db), stores.DIGESTS.open(db))
    papers = stores.PAPERS.open(db)
    return CalendarService(stores.SESSIONS.open(db), papers, group,
                           links=stores.CALENDAR_LINKS.open(db),
                           base_url=settings.web.public_base(), clock=clock,
                           view=CorrectionService(stores.CORRECTIONS.open(db), papers, clock))
