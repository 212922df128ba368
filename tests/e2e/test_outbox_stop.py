"""A clean stop while DMs are being paced: the units the stopping process leased and will not
finish are given back (owner and lease cleared), so the next start sends them at once rather
than after `subscriptions.outbox_lease_seconds`; and that within systemd's stop timeout even
while a paper-of-the-day turn takes its whole wait."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.client.bot import PaperclubBot
from bot.settings import Settings
from discord_standin import Stall, StandIn
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from storage.backend import OUTBOX
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.backends import enqueue, queued
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.group import People


@pytest.fixture
def paced(settings: Settings) -> Settings:
    """Two DMs a second, a short drain, the default one-minute lease."""
    subscriptions = settings.subscriptions.model_copy(
        update={"drain_seconds": 0.1, "dm_per_second": 2.0, "outbox_lease_seconds": 60.0})
    return settings.model_copy(update={"subscriptions": subscriptions})


@pytest.fixture
async def db(paced: Settings) -> AsyncIterator[Database]:
    """The bot's SQLite file, opened beside it as a second process would."""
    database = await Database.open(paced.database.sqlite_path)
    yield database
    await database.close()


async def _sending(standin: StandIn, paced: Settings, clock: FakeClock, db: Database,
                   people: People) -> tuple[PaperclubBot, Stall]:
    """The bot with three DMs queued, Discord holding the answer to the first."""
    bot = await start_paperclub(standin, paced, clock)
    paper = (await SqlitePaperStore(db).paper_ids())[0]
    stall = standin.stall("POST", "/channels/*/messages", times=1)
    await enqueue(db, [
        OutboxUnit(f"new:1:{p.id}", OutboxKind.NEW_PAPERS_DM,
                   (OutboxEntry(1, p.id, paper, ("x",)),))
        for p in (people.alice, people.bob, people.carol)])
    bot.outbox.wake()
    await asyncio.wait_for(stall.reached.wait(), 5)
    return bot, stall


async def _leased(db: Database) -> list[str]:
    return [str(row[0]) for row in await db.fetch(
        "SELECT unit FROM outbox WHERE owner IS NOT NULL OR lease_until IS NOT NULL")]


async def test_a_stop_mid_send_gives_back_what_it_leased(
        standin: StandIn, paced: Settings, clock: FakeClock, db: Database,
        people: People) -> None:
    bot, stall = await _sending(standin, paced, clock, db, people)
    assert len(await _leased(db)) == 1
    try:
        await standin.stop_bot(bot)
    finally:
        stall.release()
    assert await _leased(db) == []
    assert await queued(db) == 3
    unit = await OUTBOX.open(db).claim("next start", now=0, lease_until=60)
    assert unit is not None and unit.entries[0].user_id == people.alice.id


async def test_the_outbox_is_given_back_while_a_digest_turn_finishes(
        standin: StandIn, paced: Settings, clock: FakeClock, db: Database,
        people: People) -> None:
    bot, stall = await _sending(standin, paced, clock, db, people)
    turn = bot._tick_lock  # a paper-of-the-day turn is running
    await turn.acquire()
    closing = asyncio.ensure_future(standin.stop_bot(bot))
    try:
        for _ in range(40):  # well before the turn's 10 s wait is over
            if not await _leased(db):
                break
            await asyncio.sleep(0.05)
        assert await _leased(db) == [] and not closing.done()
    finally:
        turn.release()
        stall.release()
        await closing


async def test_a_scheduled_turn_running_at_a_stop_finishes_uncancelled(
        standin: StandIn, paced: Settings, clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler is paused, not shut down, while the running turn finishes: shutting it
    down first cancelled the turn mid-statement (APScheduler cancels its running jobs)."""
    bot = await start_paperclub(standin, paced, clock)
    started, proceed, finished = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def slow_turn() -> list[object]:
        started.set()
        await proceed.wait()
        finished.set()
        return []

    monkeypatch.setattr(bot.services.digest_scheduler, "tick", slow_turn)
    job = next(j for j in bot.scheduler.get_jobs() if "digest_tick" in j.name)
    job.modify(next_run_time=datetime.now(UTC))
    bot.scheduler.wakeup()
    await asyncio.wait_for(started.wait(), 5)
    closing = asyncio.ensure_future(standin.stop_bot(bot))
    await asyncio.sleep(0.2)
    assert not closing.done()
    proceed.set()
    await asyncio.wait_for(closing, 15)
    assert finished.is_set()
