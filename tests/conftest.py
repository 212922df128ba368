"""Shared fixtures: the bundled catalog, a migrated database, a loaded store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.listing import ListingParser, ParsedPaper
from bot.core.models import Paper
from bot.services.catalog_files import LineReader
from bot.services.catalog_loader import load_catalog
from bot.services.search import SearchService
from bot.settings import bundled_catalog
from storage.database import Database
from storage.papers import SqlitePaperStore


class Ticker:
    """A seconds clock that a test moves on (the stand-in's nonce memory ages by it)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def catalog_path() -> Path:
    """The bundled ICML 2026 listing."""
    return bundled_catalog()


@pytest.fixture(scope="session")
def bundled_papers(catalog_path: Path) -> list[Paper]:
    """The bundled catalog, parsed."""
    parsed = ListingParser().parse(LineReader(catalog_path))
    return [item.paper for item in parsed if isinstance(item, ParsedPaper)]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A fresh, migrated database file."""
    database = await Database.open(tmp_path / "test.db")
    yield database
    await database.close()


@pytest.fixture
async def store(db: Database, catalog_path: Path) -> SqlitePaperStore:
    """A store with the bundled catalog loaded."""
    paper_store = SqlitePaperStore(db)
    await load_catalog(paper_store, catalog_path)
    return paper_store


@pytest.fixture
def search(store: SqlitePaperStore) -> SearchService:
    """The search service over the bundled catalog."""
    return SearchService(store)
