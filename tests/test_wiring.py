"""The wiring opens the configured backend; only the bot's start checks a SQLite file whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.graphs.catalog import open_configured, opened_catalog
from bot.settings import load_settings
from domain.paper import Paper
from domain.storage_faults import CorruptDatabase
from storage.postgres.database import PgDatabase
from tests.storage.test_storage_faults import damaged_database


async def test_only_the_bot_start_reads_every_page(tmp_path: Path,
                                                   bundled_papers: list[Paper]) -> None:
    """The full check costs about a second at 150k papers: a command-line lookup skips it
    (and meets damage only where it reads); the bot's start (`verify`) finds it."""
    path = tmp_path / "damaged.db"
    await damaged_database(path, bundled_papers, last_only=True)
    settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(path)})
    async with opened_catalog(settings):
        pass
    with pytest.raises(CorruptDatabase, match=r"corrupt|malformed"):
        await open_configured(settings.database, verify=True)


async def test_a_postgresql_url_selects_the_server(postgres_url: str, tmp_path: Path) -> None:
    settings = load_settings(None, {"PAPERCLUB_DATABASE__URL": postgres_url,
                                    "PAPERCLUB_DATABASE__PATH": str(tmp_path / "x.db")})
    db = await open_configured(settings.database, verify=True)
    try:
        assert isinstance(db, PgDatabase)
    finally:
        await db.close()
    assert not (tmp_path / "x.db").exists()
