"""SIGKILL the real bot process while it posts a session reminder or announces a vote's winner;
restart it; exactly one message each."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.features.catalog.loader import load_catalog
from discord_standin import Fault, Guild, Message, StandIn
from domain.sessions import Place, ReminderStatus
from domain.votes import VoteOption
from storage.backend import SESSIONS, VOTES
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.clocks import Ticker
from tests.e2e.test_digest_crash import IDENTIFY_SPACING, ROOT, BotProcess, _until

pytestmark = pytest.mark.slow

# step -> (the fault on the post, whether Discord still carries the request out)
STEPS = {
    "after claim": (Fault.server_error(500), False),
    "after send": (Fault.server_error(502), True),
}


async def _with_db(db_path: Path, work: Callable[[Database], Awaitable[None]]) -> None:
    db = await Database.open(db_path)
    try:
        await work(db)
    finally:
        await db.close()


async def _catalog(db: Database) -> list[str]:
    papers = SqlitePaperStore(db)
    await load_catalog(papers, ROOT / "bot" / "data" / "icml2026.txt")
    return (await papers.paper_ids())[:3]


def _posts(standin: StandIn, guild: Guild) -> list[Message]:
    return standin.messages(guild.channel("general"))


async def _kill_at_step_then_restart(standin: StandIn, seconds: Ticker, bot: BotProcess,
                                     guild: Guild, step: str,
                                     recorded: Callable[[], Awaitable[bool]]) -> None:
    """Let the bot reach the post with `step`'s fault on, kill it, restart it without faults
    and wait until the ledger records the post. The restart comes `IDENTIFY_SPACING` of the
    stand-in's `seconds` later (its IDENTIFY is admitted at once; the nonces are remembered)."""
    fault, processed = STEPS[step]
    channel = guild.channel("general")
    standin.fail("POST", f"/channels/{channel.id}/messages", fault, times=1000,
                 after_processing=processed)
    await bot.start()
    try:
        def reached() -> bool:
            return bool(standin.requests("POST", f"/channels/{channel.id}/messages"))

        await _until(_async(reached), f"the bot to reach '{step}'")
        await bot.kill()
    finally:
        await bot.stop()
    assert not await recorded(), "the kill came after the post was recorded"
    standin.rest.faults.clear()
    seconds.advance(IDENTIFY_SPACING)
    await bot.start()
    try:
        await _until(recorded, "the restarted bot to record the post")
    finally:
        await bot.stop()


def _async(check: Callable[[], bool]) -> Callable[[], Awaitable[bool]]:
    async def checked() -> bool:
        return check()
    return checked


@pytest.mark.parametrize("step", list(STEPS))
async def test_a_reminder_killed_mid_post_is_posted_exactly_once(tmp_path: Path,
                                                                 step: str) -> None:
    guild = Guild("Crash Group", channels=["general"])
    seconds = Ticker()
    async with StandIn(guilds=[guild], clock=seconds) as standin:
        bot = BotProcess(standin, tmp_path)
        session_ids: list[int] = []

        async def prepare(db: Database) -> None:
            paper_id = (await _catalog(db))[0]
            # The one-hour reminder is two minutes overdue: well inside the grace period.
            starts = datetime.now(UTC) + timedelta(minutes=58)
            session = await SESSIONS.open(db).create(
                guild.id, paper_id, starts, None, Place(), guild.channel("general").id)
            session_ids.append(session.id)

        await _with_db(bot.db_path, prepare)

        async def reminder_status() -> list[ReminderStatus]:
            found: list[ReminderStatus] = []

            async def read(db: Database) -> None:
                entries = await SESSIONS.open(db).reminders(session_ids[0], 1)
                found.extend(e.status for e in entries)

            await _with_db(bot.db_path, read)
            return found

        async def recorded() -> bool:
            return ReminderStatus.POSTED in await reminder_status()

        await _kill_at_step_then_restart(standin, seconds, bot, guild, step, recorded)
        # The day-before reminder was missed long ago: skipped, never posted late.
        assert sorted(await reminder_status()) == sorted([ReminderStatus.POSTED,
                                                          ReminderStatus.SKIPPED])
        reminders = _posts(standin, guild)
        assert len(reminders) == 1, f"{step}: {len(reminders)} reminders"


@pytest.mark.parametrize("step", list(STEPS))
async def test_a_vote_killed_mid_announcement_is_announced_exactly_once(tmp_path: Path,
                                                                        step: str) -> None:
    guild = Guild("Crash Group", channels=["general"])
    seconds = Ticker()
    async with StandIn(guilds=[guild], clock=seconds) as standin:
        bot = BotProcess(standin, tmp_path)
        vote_ids: list[int] = []

        async def prepare(db: Database) -> None:
            ids = await _catalog(db)
            now = datetime.now(UTC)
            options = [VoteOption(n + 1, pid, 3 - n, now - timedelta(days=n))
                       for n, pid in enumerate(ids)]
            votes = VOTES.open(db)
            vote = await votes.open(guild.id, guild.channel("general").id, 1,
                                    now - timedelta(hours=2), now - timedelta(minutes=1),
                                    options)
            assert vote is not None
            await votes.cast(vote.id, 42, ids[1], now - timedelta(hours=1))
            vote_ids.append(vote.id)

        await _with_db(bot.db_path, prepare)

        async def recorded() -> bool:
            status: list[str] = []

            async def read(db: Database) -> None:
                vote = await VOTES.open(db).get(vote_ids[0])
                assert vote is not None
                status.append(str(vote.status))

            await _with_db(bot.db_path, read)
            return status == ["announced"]

        await _kill_at_step_then_restart(standin, seconds, bot, guild, step, recorded)
        announcements = _posts(standin, guild)
        assert len(announcements) == 1, f"{step}: {len(announcements)} announcements"
