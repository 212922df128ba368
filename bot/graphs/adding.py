"""Adding papers from arXiv without Discord (`paperclub add`, `import --arxiv-query`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.features.adding.arxiv_client import ArxivClient
from bot.features.adding.service import AddingService
from bot.features.catalog.service import CatalogService
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from storage import backend as stores


@asynccontextmanager
async def opened_adding(settings: Settings) -> AsyncIterator[AddingService]:
    """Adding from arXiv (`arxiv.api_base`) on the configured database, without Discord
    (`paperclub add`, `paperclub import --arxiv-query`)."""
    db = await open_configured(settings.database)
    client = ArxivClient.from_settings(settings.arxiv)
    try:
        catalog = CatalogService(stores.PAPERS.open(db), settings.catalog_path())
        yield AddingService(catalog, client, stores.ADD_POLICIES.open(db))
    finally:
        try:
            await client.close()
        finally:
            await db.close()
