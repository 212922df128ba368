"""The web page's own process: its pages and the calendar feeds (`paperclub web`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bot.features.calendar.service import CalendarService
from bot.features.corrections.service import CorrectionService
from bot.features.group.service import GroupService
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.search import SearchService
from bot.features.queue.service import QueueService
from bot.features.reading.history import HistoryService
from bot.features.web.service import WebPageService
from bot.graphs.calendar import calendar_service
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from bot.shared.clock import Clock, utc_now
from storage import backend as stores


@dataclass(frozen=True, slots=True)
class WebServices:
    """What the web page's own process serves: the pages and the calendar feeds."""

    pages: WebPageService
    calendar: CalendarService
    search: SearchService


@asynccontextmanager
async def opened_web(settings: Settings, *, clock: Clock = utc_now) -> AsyncIterator[WebServices]:
    """The pages and feeds on the configured database and nothing else (`paperclub web`: no
    catalog load, no scheduler, no gateway); it only reads, so it never creates or migrates."""
    db = await open_configured(settings.database, existing=True)
    try:
        papers = stores.PAPERS.open(db)
        view = CorrectionService(stores.CORRECTIONS.open(db), papers, clock)
        search = SearchService(papers, fuzzy_threshold=settings.search.fuzzy_threshold, view=view)
        try:
            lookup, digests = PaperLookup(search), stores.DIGESTS.open(db)
            pages = WebPageService(
                links=stores.WEB_LINKS.open(db), queue=QueueService(stores.QUEUE.open(db),
                                                                    lookup, clock),
                history=HistoryService(stores.HISTORY.open(db), lookup),
                sessions=stores.SESSIONS.open(db), digests=digests, search=search,
                group=GroupService(stores.GROUPS.open(db), digests),
                base_url=settings.web.public_base())
            await search.prepare()  # the typo vocabulary, in the background
            yield WebServices(pages, calendar_service(db, settings, clock=clock), search)
        finally:
            await search.close()
    finally:
        await db.close()
