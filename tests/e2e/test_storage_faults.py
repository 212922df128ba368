"""Commands that write while another process holds the write lock, or the disk refuses."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.client.bot import PaperclubBot
from bot.settings import Settings
from discord_standin import CallbackType, Guild, StandIn
from domain.storage_faults import DiskFull
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.group import People


async def test_a_write_behind_a_catalog_load_is_deferred_then_answered(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        settings: Settings) -> None:
    other = sqlite3.connect(settings.database.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # as `paperclub import` holds it during a batch
        handle = await standin.slash("subscribe", {"topic": "grokking"}, guild=guild,
                                     user=people.alice)
        first = await handle.response()
        assert first.type == CallbackType.DEFERRED_CHANNEL_MESSAGE
        other.execute("COMMIT")
        answer = await handle.followup()
        assert "Subscribed to **grokking**" in answer.content
    finally:
        other.close()


@pytest.fixture
def impatient(settings: Settings) -> Settings:
    return settings.model_copy(update={"database": settings.database.model_copy(
        update={"write_wait_seconds": 0.3})})


async def test_a_write_that_cannot_get_the_lock_says_try_again(
        standin: StandIn, guild: Guild, people: People, impatient: Settings,
        clock: FakeClock) -> None:
    paperclub = await start_paperclub(standin, impatient, clock)
    other = sqlite3.connect(impatient.database.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        handle = await standin.slash("subscribe", {"topic": "grokking"}, guild=guild,
                                     user=people.alice)
        assert (await handle.response()).type == CallbackType.DEFERRED_CHANNEL_MESSAGE
        answer = await handle.followup()
        assert answer.content == "The catalog is being reloaded; try again in a moment."
        other.execute("ROLLBACK")
    finally:
        other.close()
        await standin.stop_bot(paperclub)


async def test_a_storage_failure_says_paperclub_cannot_save_and_is_logged_once(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def full(*args: object, **kwargs: object) -> None:
        raise DiskFull("disk full: database or disk is full")

    monkeypatch.setattr(bot.services.subscriptions, "subscribe", full)
    for topic in ("grokking", "diffusion"):
        handle = await standin.slash("subscribe", {"topic": topic}, guild=guild,
                                     user=people.alice)
        answer = await handle.reply()
        assert answer.content.startswith("paperclub can't save right now")
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in logged] == [
        "storage failure: disk full: database or disk is full"]
