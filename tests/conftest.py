"""Shared fixtures: the bundled catalog, a migrated database, a loaded store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.features.catalog.files import LineReader
from bot.features.catalog.listing import ListingParser, ParsedPaper
from bot.features.catalog.loader import load_catalog
from bot.features.papers.search import SearchService
from bot.settings import bundled_catalog
from bot.shared import heap
from discord_standin import Guild
from domain.paper import Paper
from storage.papers.sqlite import SqlitePaperStore
from storage.postgres.database import PgDatabase
from storage.sqlite.database import Database
from tests.backends import NOT_RUN, Backend
from tests.group import People, new_people, reading_group
from tools.throwaway_postgres import PostgresServer, started_server

REAL_PROCESSES = "real-processes"
"""The pytest-xdist group of the end-to-end tests that run real bot processes on the real clock
(the `slow` ones in tests/e2e): one worker runs them one after another, so they never compete
with each other for the CPU; pytest-xdist hands out the largest groups first."""

heap.enabled = False  # each bot's start would walk the whole test process (`bot.shared.heap`)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group tests for `--dist loadgroup` (see dev.py): the real-process tests together, and a
    module's tests together when they share a module-scoped fixture (so it is built once)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        group = _xdist_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a grouped test that pytest-xdist scheduled without its group (it marks the group in
    the node id, which pytest 9.2 ignores: pytest-xdist#1386), rather than run it unguarded."""
    if (item.config.getoption("loadgroup", default=False)
            and item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid):
        pytest.fail("pytest-xdist ignored this test's group: pin pytest as pyproject.toml says",
                    pytrace=False)


def _xdist_group(item: pytest.Item) -> str | None:
    module = item.nodeid.split("::", 1)[0]
    if module.startswith("tests/e2e/") and item.get_closest_marker("slow") is not None:
        return REAL_PROCESSES
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.values() if info is not None else ()
    if any(d.scope in {"module", "class", "package"} for chain in defs for d in chain):
        return module
    return None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say loudly when the PostgreSQL half of the contract suite could not run (read from the
    skip reports, which reach this process also from pytest-xdist's workers)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if any(NOT_RUN in str(getattr(report, "longrepr", "")) for report in skipped):
        terminalreporter.write_sep("!", NOT_RUN, red=True, bold=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer | None]:
    """A throwaway PostgreSQL server for the session (each pytest-xdist worker starts its own),
    or None where no binaries exist."""
    with started_server() as server:
        yield server


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer | None) -> AsyncIterator[str]:
    """A fresh, migrated PostgreSQL database for one test (skipped without PostgreSQL)."""
    if postgres_server is None:
        pytest.skip(NOT_RUN)
    url = await postgres_server.fresh_database()
    yield url
    await postgres_server.drop_database(url)


@pytest.fixture
async def memory_db() -> AsyncIterator[Database]:
    """A migrated in-memory SQLite database: real stores for a service's unit tests
    (`storage.backend`'s entries open on it), instead of hand-written fakes."""
    database = await Database.open(":memory:")
    yield database
    await database.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """A fresh, migrated database of each backend in turn: the contract suite."""
    database: Database | PgDatabase
    if request.param == "sqlite":
        database = await Database.open(tmp_path / "test.db")
        yield Backend(request.param, database)
        await database.close()
        return
    server: PostgresServer | None = request.getfixturevalue("postgres_server")
    if server is None:
        pytest.skip(NOT_RUN)
    url = await server.fresh_database()
    database = await PgDatabase.open(url)
    yield Backend(request.param, database)
    await database.close()
    await server.drop_database(url)


@pytest.fixture
def people() -> People:
    """Alice (member), bob (admin), carol (DMs closed)."""
    return new_people()


@pytest.fixture
def guild(people: People) -> Guild:
    """The reading group's server."""
    return reading_group(people)


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
