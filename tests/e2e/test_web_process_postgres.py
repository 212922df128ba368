"""The web page's own process on PostgreSQL: the bot and its `paperclub web` child share one
database on the throwaway server; the child's page equals the bot's own and follows a rotation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.settings import Settings
from tests.e2e.test_web_process import (
    guild,
    http,
    same_clock,
    test_a_rotated_link_answers_404_from_the_child,
    test_the_childs_page_equals_the_bots_own,
)
from tests.e2e.web_server import web_settings
from tests.group import People

ON_POSTGRES = (test_the_childs_page_equals_the_bots_own,
               test_a_rotated_link_answers_404_from_the_child)
FIXTURES = (guild, http, same_clock)
"""The fixtures of the tests above, from their module."""


@pytest.fixture
def settings(tmp_path: Path, people: People, postgres_url: str) -> Settings:
    """The web page in its own process, the database on PostgreSQL (SQLite must stay unused)."""
    shared = web_settings(tmp_path, people)
    return shared.model_copy(update={
        "web": shared.web.model_copy(update={"process": "own"}),
        "database": shared.database.model_copy(update={"url": postgres_url,
                                                       "path": tmp_path / "unused.db"})})


@pytest.fixture(autouse=True)
def sqlite_stays_unused(tmp_path: Path) -> Iterator[None]:
    """Nothing falls back to a SQLite file (neither the bot nor its child)."""
    yield
    assert not (tmp_path / "unused.db").exists()
