"""The configured database, the catalog store on it, and the export's graph."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from bot.features.corrections.service import CorrectionService
from bot.features.export.service import ExportService
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.search import SearchService
from bot.features.papers.store import PaperStore
from bot.features.queue.service import QueueService
from bot.features.reading.bookmarks import BookmarkService
from bot.features.reading.history import HistoryService
from bot.settings import DatabaseSettings, Settings
from bot.shared.clock import Clock, utc_now
from storage import backend as stores
from storage.backend import AnyDatabase

if TYPE_CHECKING:
    from bot.features.meaning.keeper import MeaningKeeper


async def open_configured(database: DatabaseSettings, *, verify: bool = False,
                          before_wait: Callable[[], Awaitable[None]] | None = None,
                          existing: bool = False) -> AnyDatabase:
    """The configured database: the PostgreSQL server of `url`, else the SQLite file;
    `verify` checks a SQLite file's integrity first (at bot start, not for each lookup);
    `before_wait` defers a command that has to wait for the write lock; `existing` only
    opens one already there, as it is (commands that only read)."""
    return await stores.open_database(
        postgres_url=database.postgres_url, sqlite_path=database.sqlite_path,
        readers=database.readers, write_wait=database.write_wait_seconds,
        pool_size=database.pool_size, verify=verify, before_wait=before_wait,
        existing=existing)


@asynccontextmanager
async def opened_catalog(settings: Settings, *,
                         read_only: bool = False) -> AsyncIterator[PaperStore]:
    """The catalog store on the configured database, without Discord (the command line);
    `read_only`: never create or migrate it (`NoDatabase` when there is none)."""
    db = await open_configured(settings.database, existing=read_only)
    try:
        yield stores.PAPERS.open(db)
    finally:
        await db.close()


@asynccontextmanager
async def opened_search(settings: Settings) -> AsyncIterator[SearchService]:
    """The search of the command line on the configured database (read only): by meaning too
    when `[search] by_meaning` is on, over the vectors stored so far (none are computed)."""
    db = await open_configured(settings.database, existing=True)
    try:
        papers = stores.PAPERS.open(db)
        search = SearchService(papers, fuzzy_threshold=settings.search.fuzzy_threshold)
        if settings.search.by_meaning:  # numpy and the model only then
            from bot.features.meaning.models import search_by_meaning  # noqa: PLC0415

            keeper = search_by_meaning(search, papers, stores.EMBEDDINGS.open(db),
                                       settings.search.meaning_model)
            await keeper.read_stored()
            await keeper.query_vector("warm up", wait=True)  # loads the model
        try:
            yield search
        finally:
            await search.close()
    finally:
        await db.close()


@asynccontextmanager
async def opened_meaning(settings: Settings) -> AsyncIterator[MeaningKeeper]:
    """The catalog's vectors on the configured database, to bring up to date
    (`paperclub embed`)."""
    from bot.features.meaning.keeper import MeaningKeeper  # noqa: PLC0415
    from bot.features.meaning.models import chosen  # noqa: PLC0415

    encoder = chosen(settings.search.meaning_model).encoder()
    db = await open_configured(settings.database)
    try:
        keeper = MeaningKeeper(stores.PAPERS.open(db), stores.EMBEDDINGS.open(db), encoder)
        try:
            yield keeper
        finally:
            await keeper.close()
    finally:
        await db.close()


@asynccontextmanager
async def opened_export(settings: Settings, *,
                        clock: Clock = utc_now) -> AsyncIterator[ExportService]:
    """The export use case on the configured database, without Discord (`paperclub export`);
    it only reads, so it never creates or migrates the database."""
    db = await open_configured(settings.database, existing=True)
    try:
        papers = stores.PAPERS.open(db)
        search = SearchService(papers, fuzzy_threshold=settings.search.fuzzy_threshold,
                               view=CorrectionService(stores.CORRECTIONS.open(db), papers, clock))
        try:
            lookup = PaperLookup(search)  # a server's records show its corrections
            yield ExportService(HistoryService(stores.HISTORY.open(db), lookup),
                                QueueService(stores.QUEUE.open(db), lookup, clock),
                                BookmarkService(stores.BOOKMARKS.open(db), lookup, clock))
        finally:
            await search.close()
    finally:
        await db.close()
