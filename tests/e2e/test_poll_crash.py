"""A native poll's end announced exactly once: the real bot process SIGKILLed mid-announcement
and restarted, and two processes closing the same poll at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.features.votes.service import CloseStatus
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from discord_standin import Channel, Guild, Message, StandIn, User
from domain.paper import Paper
from domain.polls import VoteStyle
from domain.votes import Vote, VoteOption, VoteStatus
from storage import backend as stores
from storage.backend import VOTES
from storage.sqlite.database import Database
from tests.clocks import FakeClock, Ticker
from tests.e2e.harness import start_claim_owner
from tests.e2e.test_digest_crash import BotProcess
from tests.e2e.test_group_crash import STEPS, _catalog, _kill_at_step_then_restart, _with_db
from tests.group import People, assert_no_tasks_left

pytestmark = pytest.mark.slow

VOTERS = ("ann", "ben", "cat", "dan", "eve")
CHOICES = (2, 2, 1, 2, 3)
"""Each voter's answer: the second option wins with 3 of 5."""


def _poll_message(standin: StandIn, channel: Channel, titles: list[str],
                  now: datetime) -> Message:
    """The bot's poll, as `/vote start style:poll` posts it, ending now."""
    message = standin.world.create_message(channel, standin.bot_user, {"poll": {
        "question": {"text": "Which paper next?"}, "duration": 2, "allow_multiselect": False,
        "answers": [{"poll_media": {"text": t[:55]}} for t in titles]}})
    assert message.poll is not None
    return message


async def _votes_cast(standin: StandIn, guild: Guild, message: Message) -> None:
    for name, choice in zip(VOTERS, CHOICES, strict=True):
        user = User(name)
        guild.add_member(user)
        await standin.poll_vote(message, user, choice)


def _announcements(standin: StandIn, channel: Channel) -> list[Message]:
    return [m for m in standin.messages(channel) if m.type == 0 and m.poll is None and m.embeds]


@pytest.mark.parametrize("step", list(STEPS))
async def test_a_poll_killed_mid_announcement_is_announced_exactly_once(tmp_path: Path,
                                                                        step: str) -> None:
    guild = Guild("Crash Group", channels=["general"])
    general = guild.channel("general")
    seconds = Ticker()
    async with StandIn(guilds=[guild], clock=seconds) as standin:
        bot = BotProcess(standin, tmp_path)
        vote_ids: list[int] = []

        async def prepare(db: Database) -> None:
            ids = await _catalog(db)
            now = datetime.now(UTC)
            options = [VoteOption(n + 1, pid, 1, now - timedelta(days=n))
                       for n, pid in enumerate(ids)]
            votes = VOTES.open(db)
            vote = await votes.open(guild.id, general.id, 1, now - timedelta(hours=2),
                                    now - timedelta(minutes=1), options, style=VoteStyle.POLL)
            assert vote is not None
            message = _poll_message(standin, general, ids, now)
            await _votes_cast(standin, guild, message)
            assert message.poll is not None
            message.poll.expiry = now - timedelta(minutes=1)  # the poll's end has come
            await votes.set_message(vote.id, message.id)
            vote_ids.append(vote.id)

        await _with_db(bot.db_path, prepare)

        async def recorded() -> bool:
            found: list[Vote | None] = []

            async def read(db: Database) -> None:
                found.append(await VOTES.open(db).get(vote_ids[0]))

            await _with_db(bot.db_path, read)
            return found[0] is not None and found[0].status is VoteStatus.ANNOUNCED

        await _kill_at_step_then_restart(standin, seconds, bot, guild, step, recorded)
        announcements = _announcements(standin, general)
        assert len(announcements) == 1, f"{step}: {len(announcements)} announcements"
        assert "3 votes" in announcements[0].content
        assert len([m for m in standin.messages(general) if m.type == 46]) == 1


@pytest.fixture
async def ticking(guild: Guild) -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[guild], clock=Ticker()) as server:
        yield server
        assert server.internal_errors == []
        assert server.unknown_requests == []
    assert_no_tasks_left()


async def test_two_processes_closing_one_poll_announce_it_once(
        ticking: StandIn, settings: Settings, guild: Guild, people: People, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    standin, papers = ticking, guild.channel("papers")
    standin.set_clock(clock)
    started = []
    try:
        for owner in ("first", "second"):
            started.append(await start_claim_owner(standin, settings, clock, owner))
        db = await open_configured(settings.database)
        try:
            votes = stores.VOTES.open(db)
            options = [VoteOption(n, p.id, 1, clock.now - timedelta(minutes=n))
                       for n, p in enumerate(bundled_papers[:3], start=1)]
            vote = await votes.open(guild.id, papers.id, people.bob.id, clock.now,
                                    clock.now + timedelta(hours=2), options,
                                    style=VoteStyle.POLL)
            assert vote is not None
            message = _poll_message(standin, papers, [p.title_en for p in bundled_papers[:3]],
                                    clock.now)
            await votes.set_message(vote.id, message.id)
            await _votes_cast(standin, guild, message)
            clock.advance(hours=2)
            results = await asyncio.gather(*(p.services.votes.tick() for p in started))
            closes = [c.status for done in results for c in done]
            assert closes.count(CloseStatus.ANNOUNCED) == 1
            (announcement,) = _announcements(standin, papers)
            assert bundled_papers[1].title_en[:30] in announcement.content
            assert "3 votes" in announcement.content
            announced = await votes.get(vote.id)
            assert announced is not None and announced.status is VoteStatus.ANNOUNCED
            assert announced.winner == bundled_papers[1].id
            assert [await p.services.votes.tick() for p in started] == [[], []]
            assert len(_announcements(standin, papers)) == 1
        finally:
            await db.close()
    finally:
        for paperclub in started:
            await standin.stop_bot(paperclub)
