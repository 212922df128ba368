"""Corrections to and from files without Discord (`paperclub corrections`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.features.corrections.service import CorrectionService
from bot.features.corrections.transfer import CorrectionTransfer
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from bot.shared.clock import Clock, utc_now
from storage import backend as stores


@asynccontextmanager
async def opened_corrections(settings: Settings, *, read_only: bool = False,
                             clock: Clock = utc_now) -> AsyncIterator[CorrectionTransfer]:
    """Corrections to and from files on the configured database, without Discord
    (`paperclub corrections`); `read_only` (an export) never creates or migrates it."""
    db = await open_configured(settings.database, existing=read_only)
    try:
        papers, store = stores.PAPERS.open(db), stores.CORRECTIONS.open(db)
        yield CorrectionTransfer(store, CorrectionService(store, papers, clock), papers, clock)
    finally:
        await db.close()
