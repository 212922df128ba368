"""A poll vote whose poll's message id is not recorded yet: a close never takes it for a poll
over with no votes. It waits for the post under the vote lock, finds a poll whose record was
lost by its marker, and closes a poll never posted with no votes only after the grace."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import discord
import pytest

from bot.features.votes.poster import DiscordVotePoster
from bot.features.votes.service import POST_GRACE, Closed, CloseStatus
from domain.paper import Paper
from domain.polls import VoteStyle
from domain.votes import Vote, VoteOption, VoteStatus
from tests.fakes import Refuse
from tests.features.votes.test_polls import planner
from tests.features.votes.test_service import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    ORGANISER,
    PAPERS,
    TRANSIENT,
    World,
    world,
)

__all__ = ["world"]

COUNTS = {1: 1, 3: 2}
"""Votes per position in the poll (in queue order: the second paper, the first, the third):
the third paper wins with 2 of 3."""


async def _queued(world: World) -> None:
    """Three papers; in queue order the second, the first, the third."""
    first, second, third, _ = PAPERS
    await world.suggest(first, ALICE)
    await world.suggest(second, ALICE, CAROL)
    await world.suggest(third, BOB)


async def _poll_vote(world: World) -> Vote:
    """A poll vote opened with no message recorded (the post or its record still to come)."""
    await _queued(world)
    vote, _ = await world.service.start(GUILD, CHANNEL, ORGANISER, top=3, hours=2,
                                        poll=planner)
    assert vote.style is VoteStyle.POLL and vote.message_id is None
    world.announcer.polls[vote.id] = dict(COUNTS)
    return vote


def _announced_counts(world: World) -> list[int]:
    (announcement,) = world.announcer.announcements(CHANNEL)
    return [r.votes for r in announcement.results]


async def test_a_close_during_the_post_waits_for_its_record_then_counts_the_poll(
        world: World) -> None:
    await _queued(world)
    posted, go = asyncio.Event(), asyncio.Event()

    async def post(vote: Vote, papers: dict[str, Paper]) -> int:
        message_id = world.announcer.post_poll(vote)
        world.announcer.polls[vote.id] = dict(COUNTS)
        posted.set()
        await go.wait()  # Discord has the poll; its id is not recorded yet
        return message_id

    starting = asyncio.create_task(world.service.start(
        GUILD, CHANNEL, ORGANISER, top=3, hours=2, poll=planner, post=post))
    await posted.wait()
    closing = asyncio.create_task(world.service.close(GUILD))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not closing.done() and world.posted() == []  # not "over with no votes"
    go.set()
    vote, _ = await starting
    closed = await closing
    assert closed.status is CloseStatus.ANNOUNCED
    assert world.announcer.ended == [vote.message_id]
    assert _announced_counts(world) == [1, 0, 2]
    assert world.posted() == [PAPERS[2].id]


Closer = Callable[[World], Awaitable[Closed]]


async def _early(world: World) -> Closed:
    return await world.service.close(GUILD)


async def _at_the_deadline(world: World) -> Closed:
    world.clock.advance(hours=2)
    (closed,) = await world.service.tick()
    return closed


@pytest.mark.parametrize("closer", [_early, _at_the_deadline], ids=["early", "deadline"])
async def test_a_poll_whose_record_was_lost_is_found_by_its_marker_and_counted(
        world: World, closer: Closer) -> None:
    vote = await _poll_vote(world)
    message_id = world.announcer.post_poll(vote)  # a crash came before `attach`
    closed = await closer(world)
    assert closed.status is CloseStatus.ANNOUNCED
    recorded = await world.votes.get(vote.id)
    assert recorded is not None and recorded.message_id == message_id
    assert world.announcer.ended == [message_id]
    assert _announced_counts(world) == [1, 0, 2]
    assert world.posted() == [PAPERS[2].id]
    assert await world.service.tick() == []


async def test_the_marker_search_covers_only_the_grace_after_the_vote_opened(
        world: World) -> None:
    vote = await _poll_vote(world)
    world.clock.advance(seconds=POST_GRACE.total_seconds() + 600)
    world.announcer.post_poll(vote)  # too late to be the vote's poll
    closed = await world.service.close(GUILD)
    assert closed.status is CloseStatus.ANNOUNCED
    assert world.announcer.ended == [] and _announced_counts(world) == [0, 0, 0]


async def test_a_poll_never_posted_waits_out_the_grace_then_closes_with_no_votes(
        world: World) -> None:
    vote = await _poll_vote(world)
    waiting = await world.service.close(GUILD)
    assert waiting.status is CloseStatus.PENDING and world.posted() == []
    assert world.announcer.ended == []
    world.clock.advance(seconds=POST_GRACE.total_seconds())
    closed = await world.service.close(GUILD)
    assert closed.status is CloseStatus.ANNOUNCED
    (announcement,) = world.announcer.announcements(CHANNEL)
    assert announcement.ballots == 0
    assert world.posted() == [PAPERS[1].id]  # no votes: the queue's favourite
    final = await world.votes.get(vote.id)
    assert final is not None and final.status is VoteStatus.ANNOUNCED


async def test_a_status_while_the_poll_cannot_be_read_shows_no_counts(world: World) -> None:
    vote = await _poll_vote(world)
    await world.votes.set_message(vote.id, world.announcer.post_poll(vote))
    world.channels.script("poll_counts", Refuse(TRANSIENT))
    unreadable = await world.service.report(GUILD)
    assert unreadable is not None and [r.votes for r in unreadable.results] == [0, 0, 0]
    readable = await world.service.report(GUILD)
    assert readable is not None and [r.votes for r in readable.results] == [1, 0, 2]


async def test_the_discord_side_does_not_call_an_unrecorded_poll_over() -> None:
    start = datetime(2026, 12, 1, 12, tzinfo=UTC)
    options = tuple(VoteOption(n, f"p{n}", 1, start) for n in (1, 2))
    vote = Vote(1, GUILD, CHANNEL, ORGANISER, start, start, VoteStatus.OPEN, options,
                style=VoteStyle.POLL)
    announcer = DiscordVotePoster(discord.Client(intents=discord.Intents.none()))
    counts = await announcer.poll_counts(vote)
    assert not counts.finalized and counts.counts == {}
