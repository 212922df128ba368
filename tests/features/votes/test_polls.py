"""Poll votes on in-memory fakes: the planner chooses the style, the close waits for Discord's
finalised counts, ties resolve as with buttons, one announcement however many processes; and
the live tally coalesces a burst of clicks into few edits that end on the true counts."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from datetime import timedelta
from typing import Any

from bot.features.votes.service import CloseStatus
from bot.features.votes.tally import LiveTally
from domain.paper import Paper
from domain.polls import PollPlan, Unfit, VoteStyle, plan_poll
from tests.features.votes.test_service import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    ORGANISER,
    PAPERS,
    World,
    world,
)

__all__ = ["world"]


def planner(options: Sequence[tuple[str, Paper | None]]) -> PollPlan | Unfit:
    return plan_poll("Which paper next?", [p.title_en if p else pid for pid, p in options],
                     timedelta(hours=2))


async def poll_vote(world: World) -> int:
    first, second, third, _ = PAPERS
    await world.suggest(first, ALICE)
    await world.suggest(second, ALICE, CAROL)
    await world.suggest(third, BOB)
    vote, _ = await world.service.start(GUILD, CHANNEL, ORGANISER, top=3, hours=2,
                                        poll=planner)
    assert vote.style is VoteStyle.POLL
    await world.votes.set_message(vote.id, 555)
    return vote.id


async def test_the_close_waits_for_finalised_counts_and_ties_go_to_queue_support(
        world: World) -> None:
    vote_id = await poll_vote(world)
    second = PAPERS[1]
    # The queue's order: the second paper (two supporters), the first, the third.
    world.announcer.polls[vote_id] = {1: 2, 3: 2}  # a tie: the second and the third
    world.announcer.counting = True
    world.clock.advance(hours=2)
    (waiting,) = await world.service.tick()
    assert waiting.status is CloseStatus.PENDING and world.posted() == []
    assert world.channels.calls.count("end_poll") == 1
    world.announcer.counting = False
    (done,) = await world.service.tick()
    assert done.status is CloseStatus.ANNOUNCED
    assert world.posted() == [second.id]  # 2 : 0 : 2, and the second has more support
    (announcement,) = world.announcer.announcements(CHANNEL)
    assert [r.votes for r in announcement.results] == [2, 0, 2] and announcement.tie
    assert world.announcer.closed_ballots == []  # a poll has no buttons to grey out
    assert await world.service.tick() == []


async def test_two_processes_closing_a_poll_announce_once(world: World) -> None:
    vote_id = await poll_vote(world)
    world.announcer.polls[vote_id] = {2: 3, 1: 1}
    world.clock.advance(hours=2)
    outcomes = await asyncio.gather(world.service.tick(), world.process("there").tick())
    statuses = sorted(c.status for found in outcomes for c in found)
    assert statuses.count(CloseStatus.ANNOUNCED) == 1  # the other saw it claimed or not due
    assert world.posted() == [PAPERS[0].id]  # position 2: the first paper


async def test_titles_that_shorten_alike_fall_back_to_buttons(world: World) -> None:
    long = "A Very Long Title About Grokking In Modular Arithmetic Networks, Part "
    titles = [long + "One", long + "Two"]
    assert plan_poll("q", titles, timedelta(hours=1)) is Unfit.AMBIGUOUS
    assert plan_poll("q", [f"t{n}" for n in range(11)], timedelta(hours=1)) is Unfit.TOO_MANY
    assert plan_poll("q", ["a", "b"], timedelta(hours=769)) is Unfit.DURATION
    plan = plan_poll("q", [long + "One", "Short"], timedelta(minutes=90))
    assert isinstance(plan, PollPlan) and plan.hours == 2 and plan.shortened == 1
    assert len(plan.answers[0]) == 55 and plan.answers[0].endswith("…")
    first, second, *_ = PAPERS
    await world.suggest(first, ALICE)
    await world.suggest(second, BOB)
    vote, _ = await world.service.start(
        GUILD, CHANNEL, ORGANISER, top=2, hours=1,
        poll=lambda options: plan_poll("q", titles, timedelta(hours=1)))
    assert vote.style is VoteStyle.BUTTONS


class Spawned:
    """Runs spawned work as tasks it keeps."""

    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[Any]] = []

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        self.tasks.append(asyncio.create_task(work, name=name))

    async def wait(self) -> None:
        while not all(t.done() for t in self.tasks):
            await asyncio.gather(*self.tasks)


async def test_a_burst_of_clicks_makes_few_edits_ending_on_the_true_counts() -> None:
    counts = {"n": 0}
    shown: list[int] = []

    async def refresh(vote_id: int) -> None:
        shown.append(counts["n"])

    spawned = Spawned()
    tally = LiveTally(refresh, spawned, interval=0.05)
    for _ in range(3):  # three bursts of 20 clicks
        for _ in range(20):
            counts["n"] += 1
            tally.changed(7)
            await asyncio.sleep(0)
        await spawned.wait()
    assert len(shown) <= 4 and shown[-1] == 60
    assert tally.pending == frozenset()
