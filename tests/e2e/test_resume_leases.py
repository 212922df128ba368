"""Two processes that both own a server race to resume the same unfinished claim (a reminder,
a vote's or a feed's announcement) left by a process that crashed, or one process's Discord
call is answered only after its lease lapsed: exactly one sends. Discord's nonce memory is
off, so the lease (taken before resuming, renewed before each Discord call) is the only
guard."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any, TypeVar

import pytest

from bot.client.bot import PaperclubBot
from bot.features.sessions.reminders import ReminderOutcome, reminder_nonce
from bot.features.votes.service import CloseStatus, vote_nonce
from bot.features.votes.store import VoteStore
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from bot.shared.leases import DEFAULT_LEASE
from discord_standin import Channel, Guild, StandIn
from domain.leases import Lease
from domain.paper import Paper
from domain.sessions import Place, ReminderStatus
from domain.votes import Vote, VoteOption, VoteStatus
from storage import backend as stores
from tests.clocks import FakeClock, Ticker
from tests.e2e.harness import start_claim_owner
from tests.group import assert_no_tasks_left

T = TypeVar("T")


@pytest.fixture
async def forgetful(guild: Guild) -> AsyncIterator[StandIn]:
    """A stand-in that forgets every nonce at once (a window shorter than no time)."""
    async with StandIn(guilds=[guild], clock=Ticker(), nonce_window=-1.0) as server:
        yield server
        assert server.internal_errors == []
        assert server.unknown_requests == []
    assert_no_tasks_left()


@contextlib.asynccontextmanager
async def _processes(standin: StandIn, settings: Settings,
                     clock: FakeClock) -> AsyncIterator[list[PaperclubBot]]:
    """Two paperclub processes on the shared database, both owning every server; each one
    started is stopped at the end."""
    started: list[PaperclubBot] = []
    try:
        for owner in ("first", "second"):
            started.append(await start_claim_owner(standin, settings, clock, owner))
        yield started
    finally:
        for paperclub in started:
            await standin.stop_bot(paperclub)


async def _race_past_the_lease(standin: StandIn, clock: FakeClock, stalled: tuple[str, str],
                               first: Callable[[], Coroutine[Any, Any, T]],
                               second: Callable[[], Awaitable[T]]) -> tuple[T, T]:
    """`first` runs until Discord holds its `stalled` (method, path) request; the first
    process's lease lapses and `second` runs to the end; then Discord answers the held request
    and `first` finishes. Their results, in that order."""
    held = standin.stall(*stalled)
    running = asyncio.create_task(first())
    await asyncio.wait_for(held.reached.wait(), 10)
    clock.now += DEFAULT_LEASE + timedelta(seconds=1)
    later = await second()
    held.release()
    return await running, later


def _sends(standin: StandIn, channel: Channel) -> int:
    return len(standin.requests("POST", f"/channels/{channel.id}/messages",
                                route="/channels/{channel_id}/messages"))


async def test_two_processes_resume_a_crashed_reminder_claim_once(
        forgetful: StandIn, settings: Settings, guild: Guild, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    standin = forgetful
    async with _processes(standin, settings, clock) as processes:
        await _race_to_resume_a_reminder(standin, processes, guild, clock, bundled_papers[0])


async def _race_to_resume_a_reminder(standin: StandIn, processes: list[PaperclubBot],
                                     guild: Guild, clock: FakeClock, paper: Paper) -> None:
    papers = guild.channel("papers")
    sessions = processes[0].services.reminders.sessions
    session = await sessions.create(guild.id, paper.id,
                                    clock.now + timedelta(minutes=50), None, Place(), papers.id)
    crashed = Lease("crashed", clock.now)  # expired: anyone may take the claim over
    # The hour-before reminder (a default) was claimed ten minutes ago, then the process died.
    entry = await sessions.claim_reminder(session.id, session.revision, 60,
                                          reminder_nonce(session.id, session.revision, 60),
                                          lease=crashed)
    assert entry is not None
    results = await asyncio.gather(*(p.services.reminders.tick() for p in processes))
    resumed = [s for sent in results for s in sent if s.offset_minutes == 60]
    assert [s.outcome for s in resumed] == [ReminderOutcome.POSTED]
    assert _sends(standin, papers) == 1
    (row,) = [r for r in await sessions.reminders(session.id, session.revision)
              if r.offset_minutes == 60]
    assert row.status is ReminderStatus.POSTED and row.message_id is not None


async def test_a_reminder_whose_lease_lapsed_during_a_slow_search_is_not_sent_again(
        forgetful: StandIn, settings: Settings, guild: Guild, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    """The first process resumes a crashed reminder; Discord answers its history search late,
    past the lease; the second process takes the claim over and posts. The first renews its
    lease before sending, finds the claim no longer its own, and sends nothing."""
    standin, papers = forgetful, guild.channel("papers")
    async with _processes(standin, settings, clock) as (first, second):
        sessions = first.services.reminders.sessions
        session = await sessions.create(guild.id, bundled_papers[0].id,
                                        clock.now + timedelta(minutes=50), None, Place(),
                                        papers.id)
        assert await sessions.claim_reminder(session.id, session.revision, 60,
                                             reminder_nonce(session.id, session.revision, 60),
                                             lease=Lease("crashed", clock.now)) is not None
        resumed, taken_over = await _race_past_the_lease(
            standin, clock, ("GET", f"/channels/{papers.id}/messages"),
            first.services.reminders.tick, second.services.reminders.tick)
        outcomes = [s.outcome for s in [*resumed, *taken_over] if s.offset_minutes == 60]
        assert outcomes == [ReminderOutcome.POSTED]
        assert _sends(standin, papers) == 1


async def _vote_due(votes: VoteStore, guild: Guild, clock: FakeClock,
                    papers: list[Paper]) -> Vote:
    """A vote in #papers on two papers, opened an hour ago and ending now."""
    options = [VoteOption(n, p.id, 1, clock.now) for n, p in enumerate(papers[:2], start=1)]
    vote = await votes.open(guild.id, guild.channel("papers").id, 1,
                            clock.now - timedelta(hours=1), clock.now, options)
    assert vote is not None
    return vote


async def _crashed_while_announcing(votes: VoteStore, vote: Vote, clock: FakeClock) -> None:
    """The vote closed by a process that died before announcing (its lease has expired)."""
    assert await votes.claim(vote.id, vote.options[0].paper_id, vote_nonce(vote.id),
                             clock.now, early=False, lease=Lease("crashed", clock.now))


async def test_two_processes_resume_a_crashed_vote_announcement_once(
        forgetful: StandIn, settings: Settings, guild: Guild, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    standin, papers = forgetful, guild.channel("papers")
    async with _processes(standin, settings, clock) as processes:
        db = await open_configured(settings.database)
        try:
            votes = stores.VOTES.open(db)
            vote = await _vote_due(votes, guild, clock, bundled_papers)
            await _crashed_while_announcing(votes, vote, clock)
            results = await asyncio.gather(*(p.services.votes.tick() for p in processes))
            closes = sorted(c.status for done in results for c in done)
            assert closes == [CloseStatus.ALREADY, CloseStatus.ANNOUNCED]
            assert _sends(standin, papers) == 1
            announced = await votes.get(vote.id)
            assert announced is not None and announced.status is VoteStatus.ANNOUNCED
        finally:
            await db.close()


FEED_QUERY = "abs:grokking"


async def _feed_owing_a_post(paperclub: PaperclubBot, guild: Guild, clock: FakeClock,
                             papers: list[Paper]) -> int:
    """A feed posting in #papers whose first poll (by a process that died) owes one post of
    two papers; returns the feed's id."""
    store = paperclub.services.feeds.feeds
    added = await store.add_feed(guild.id, FEED_QUERY, guild.channel("papers").id, 1,
                                 clock.now, limit=10)
    assert added.feed is not None
    poll = await store.claim_poll(FEED_QUERY, clock.now, clock.now + timedelta(hours=3))
    assert poll is not None
    found = [(f"2611.0000{n}", p.id) for n, p in enumerate(papers[:2], start=1)]
    assert await store.record_poll(FEED_QUERY, poll.number, found, clock.now) == 1
    return added.feed.id


async def test_a_feed_post_whose_lease_lapsed_during_a_slow_search_is_not_sent_again(
        forgetful: StandIn, settings: Settings, guild: Guild, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    """The first process resumes a crashed feed announcement; Discord answers its history
    search late, past the lease; the second process takes the claim over and posts. The first
    renews its lease before sending, finds the claim no longer its own, and leaves it."""
    standin, papers = forgetful, guild.channel("papers")
    async with _processes(standin, settings, clock) as (first, second):
        feed_id = await _feed_owing_a_post(first, guild, clock, bundled_papers)
        store = first.services.feeds.feeds
        assert await store.claim_announcement(feed_id, 1, Lease("crashed", clock.now),
                                              clock.now) is not None
        resumed, taken_over = await _race_past_the_lease(
            standin, clock, ("GET", f"/channels/{papers.id}/messages"),
            first.services.feeds.deliver, second.services.feeds.deliver)
        assert [(o.feed_id, o.poll) for o in taken_over] == [(feed_id, 1)]
        assert resumed == []  # left to the new owner
        assert _sends(standin, papers) == 1
        assert taken_over[0].message_id is not None
        assert await store.open_announcements(clock.now + 2 * DEFAULT_LEASE) == []


async def test_a_feed_post_answered_after_its_lease_lapsed_is_found_not_sent_again(
        forgetful: StandIn, settings: Settings, guild: Guild, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    """The first process sends a feed's post; Discord carries it out but answers only after
    the lease lapsed; the second process takes the claim over, renews it, finds the post in
    the channel and records it: one post, recorded once with its message."""
    standin, papers = forgetful, guild.channel("papers")
    async with _processes(standin, settings, clock) as (first, second):
        await _feed_owing_a_post(first, guild, clock, bundled_papers)
        sent, taken_over = await _race_past_the_lease(
            standin, clock, ("POST", f"/channels/{papers.id}/messages"),
            first.services.feeds.deliver, second.services.feeds.deliver)
        assert _sends(standin, papers) == 1
        (post,) = [m for m in standin.messages(papers) if m.embeds]
        assert [o.message_id for o in [*taken_over, *sent]] == [post.id, post.id]
        rows = await second.services.feeds.feeds.open_announcements(
            clock.now + 2 * DEFAULT_LEASE)
        assert rows == []


async def test_a_vote_announcement_whose_lease_lapsed_during_a_slow_search_is_not_sent_again(
        forgetful: StandIn, settings: Settings, guild: Guild, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    """The first process resumes a crashed vote announcement; Discord answers its history
    search late, past the lease; the second process takes the claim over and announces. The
    first renews its lease before sending, finds the claim no longer its own, and leaves it."""
    standin, papers = forgetful, guild.channel("papers")
    async with _processes(standin, settings, clock) as (first, second):
        db = await open_configured(settings.database)
        try:
            votes = stores.VOTES.open(db)
            vote = await _vote_due(votes, guild, clock, bundled_papers)
            await _crashed_while_announcing(votes, vote, clock)
            resumed, taken_over = await _race_past_the_lease(
                standin, clock, ("GET", f"/channels/{papers.id}/messages"),
                first.services.votes.tick, second.services.votes.tick)
            assert [c.status for c in taken_over] == [CloseStatus.ANNOUNCED]
            assert [c.status for c in resumed] == [CloseStatus.ALREADY]  # left to the new owner
            assert _sends(standin, papers) == 1
            announced = await votes.get(vote.id)
            assert announced is not None and announced.status is VoteStatus.ANNOUNCED
            assert taken_over[0].message_id is not None
            assert announced.announcement_id == taken_over[0].message_id
        finally:
            await db.close()


async def test_a_vote_announcement_answered_after_its_lease_lapsed_is_found_not_sent_again(
        forgetful: StandIn, settings: Settings, guild: Guild, clock: FakeClock,
        bundled_papers: list[Paper]) -> None:
    """The first process closes a vote and sends its announcement; Discord carries it out but
    answers only after the lease lapsed; the second process takes the claim over, finds the
    announcement in the channel and records it: one announcement, recorded with its message."""
    standin, papers = forgetful, guild.channel("papers")
    async with _processes(standin, settings, clock) as (first, second):
        db = await open_configured(settings.database)
        try:
            votes = stores.VOTES.open(db)
            vote = await _vote_due(votes, guild, clock, bundled_papers)
            closed, taken_over = await _race_past_the_lease(
                standin, clock, ("POST", f"/channels/{papers.id}/messages"),
                first.services.votes.tick, second.services.votes.tick)
            assert _sends(standin, papers) == 1
            (post,) = [m for m in standin.messages(papers) if m.embeds]
            assert [(c.status, c.message_id) for c in [*taken_over, *closed]] == [
                (CloseStatus.ANNOUNCED, post.id)] * 2
            announced = await votes.get(vote.id)
            assert announced is not None and announced.status is VoteStatus.ANNOUNCED
            assert announced.announcement_id == post.id
        finally:
            await db.close()
