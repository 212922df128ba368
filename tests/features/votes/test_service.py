"""`VoteService` on in-memory fakes: starting from the queue, ballots, the close claimed once,
the announcement sent exactly once whatever the announcer does, results and ties. The
end-to-end tests (tests/e2e/test_group_vote.py) run the same rules through Discord."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from bot.features.papers.lookup import PaperLookup
from bot.features.papers.search import SearchService
from bot.features.papers.store import PaperStore
from bot.features.queue.service import QueueService
from bot.features.votes.service import CloseStatus, VoteService, vote_marker, vote_nonce
from bot.features.votes.store import VoteStore
from bot.shared.leases import DEFAULT_LEASE, Leaser
from bot.shared.messages import Refusal
from domain.paper import Paper
from domain.reasons import Reason, ReasonCode
from domain.votes import BallotOutcome, VoteStatus
from storage.backend import QUEUE, VOTES
from storage.sqlite.database import Database
from tests.clocks import FakeClock
from tests.fakes import (
    FakeChannels,
    LoseAnswer,
    Refuse,
    Stall,
    catalog_paper,
    catalog_store,
    drop_paper,
    refused,
)
from tests.features.votes.fakes import FakeVotePoster

GUILD, CHANNEL = 100, 10
ORGANISER, ALICE, BOB, CAROL = 1, 2, 3, 4
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
PAPERS = [catalog_paper(f"Grokking in Setting {n}") for n in range(1, 5)]
TRANSIENT = refused(ReasonCode.DISCORD_ERROR)
FORBIDDEN = refused(ReasonCode.NO_PERMISSION, 50013)


@dataclass
class World:
    """The service under test and the fakes around it."""

    clock: FakeClock
    votes: VoteStore
    papers: PaperStore
    channels: FakeChannels
    announcer: FakeVotePoster
    queue: QueueService
    service: VoteService

    def process(self, owner: str) -> VoteService:
        """Another process on the same store (its own leases)."""
        lookup = PaperLookup(SearchService(self.papers))
        return VoteService(self.votes, self.queue, lookup, self.announcer, self.clock,
                           leases=Leaser(owner, clock=self.clock))

    async def suggest(self, paper: Paper, *users: int) -> None:
        """Members suggest (or +1) a paper, a minute apart."""
        for user in users:
            await self.queue.suggest(GUILD, user, paper.id, "")
            self.clock.advance(minutes=1)

    def posted(self) -> list[str]:
        """Winners announced in the channel, in order."""
        return [a.winner.paper_id for a in self.announcer.announcements(CHANNEL)]


@pytest.fixture
async def world(memory_db: Database) -> World:
    clock = FakeClock(START)
    papers = await catalog_store(memory_db, PAPERS)
    lookup = PaperLookup(SearchService(papers))
    queue = QueueService(QUEUE.open(memory_db), lookup, clock)
    votes = VOTES.open(memory_db)
    channels = FakeChannels(clock)
    announcer = FakeVotePoster(channels)
    service = VoteService(votes, queue, lookup, announcer, clock,
                          leases=Leaser("here", clock=clock))
    return World(clock, votes, papers, channels, announcer, queue, service)


async def started(world: World, *, top: int = 3, hours: int = 2) -> int:
    """Queue three papers (the second most supported) and open a vote on them."""
    first, second, third, _ = PAPERS
    await world.suggest(first, ALICE)
    await world.suggest(second, ALICE, CAROL)
    await world.suggest(third, CAROL)
    vote, _ = await world.service.start(GUILD, CHANNEL, ORGANISER, top=top, hours=hours)
    return vote.id


async def test_a_vote_opens_on_the_queue_top_in_queue_order(world: World) -> None:
    with pytest.raises(Refusal) as short:
        await world.service.start(GUILD, CHANNEL, ORGANISER, top=5, hours=1)
    assert short.value.key == "vote.queue_too_short"
    first, second, third, _ = PAPERS
    await world.suggest(first, ALICE)
    await world.suggest(second, ALICE, CAROL)
    await world.suggest(third, CAROL)
    opened_at = world.clock()
    vote, papers = await world.service.start(GUILD, CHANNEL, ORGANISER, top=2, hours=5)
    assert [(o.position, o.paper_id, o.support) for o in vote.options] == [
        (1, second.id, 2), (2, first.id, 1)]
    assert vote.ends_at == opened_at + timedelta(hours=5) and vote.status is VoteStatus.OPEN
    assert set(papers) == {first.id, second.id}
    with pytest.raises(Refusal) as again:
        await world.service.start(GUILD, CHANNEL, ORGANISER, top=2, hours=5)
    assert again.value.key == "vote.already_open"


async def test_ballots_cast_change_and_stop_at_the_deadline(world: World) -> None:
    vote_id = await started(world)
    ballot = world.service.ballot
    assert (await ballot(vote_id, 1, ALICE))[0] is BallotOutcome.CAST
    assert (await ballot(vote_id, 1, ALICE))[0] is BallotOutcome.SAME
    outcome, paper = await ballot(vote_id, 3, ALICE)
    assert outcome is BallotOutcome.CHANGED and paper == PAPERS[2]
    assert await ballot(vote_id, 9, BOB) == (BallotOutcome.UNKNOWN, None)
    assert await ballot(vote_id + 1, 1, BOB) == (BallotOutcome.UNKNOWN, None)
    report = await world.service.report(GUILD)
    assert report is not None
    assert [(r.position, r.votes) for r in report.results] == [(1, 0), (2, 0), (3, 1)]
    world.clock.advance(hours=2)
    assert (await ballot(vote_id, 1, BOB))[0] is BallotOutcome.CLOSED
    assert await world.votes.ballots(vote_id) == {ALICE: PAPERS[2].id}


async def test_an_early_close_is_claimed_once_and_announced_once(world: World) -> None:
    vote_id = await started(world)
    await world.votes.set_message(vote_id, 777)
    await world.service.ballot(vote_id, 3, ALICE)
    closes = await asyncio.gather(world.service.close(GUILD), world.process("there").close(GUILD),
                                  return_exceptions=True)
    statuses = sorted(c.status if not isinstance(c, BaseException) else "refused"
                      for c in closes)
    assert statuses in (["already", "announced"], ["announced", "refused"])
    vote = await world.votes.get(vote_id)
    assert vote is not None and vote.status is VoteStatus.ANNOUNCED and vote.closed_early
    assert vote.winner == PAPERS[2].id and vote.announcement_id is not None
    assert world.posted() == [PAPERS[2].id]
    post = world.channels.in_channel(CHANNEL)[0]
    assert (post.nonce, post.marker) == (vote_nonce(vote_id), vote_marker(vote_id))
    assert world.announcer.closed_ballots == [vote_id]
    with pytest.raises(Refusal) as none:
        await world.service.close(GUILD)
    assert none.value.key == "vote.none_open"
    world.clock.advance(hours=3)
    assert await world.service.tick() == []
    assert world.posted() == [PAPERS[2].id]


async def test_the_deadline_closes_the_vote_on_the_tick(world: World) -> None:
    vote_id = await started(world)
    await world.service.ballot(vote_id, 2, BOB)
    assert await world.service.tick() == []
    world.clock.advance(hours=2)
    closed = await world.service.tick()
    assert [(c.vote_id, c.status) for c in closed] == [(vote_id, CloseStatus.ANNOUNCED)]
    vote = await world.votes.get(vote_id)
    assert vote is not None and not vote.closed_early
    assert world.posted() == [PAPERS[0].id]
    assert await world.service.tick() == []


async def test_a_send_that_fails_once_is_sent_on_the_next_tick(world: World) -> None:
    vote_id = await started(world)
    world.channels.script("announce", Refuse(TRANSIENT))
    first = await world.service.close(GUILD)
    assert (first.status, first.reason) == (CloseStatus.PENDING, TRANSIENT.reason)
    vote = await world.votes.get(vote_id)
    assert vote is not None and vote.status is VoteStatus.CLAIMED and world.posted() == []
    [again] = await world.service.tick()
    assert again.status is CloseStatus.ANNOUNCED
    assert world.posted() == [PAPERS[1].id]
    assert world.channels.calls == ["announce", "find", "announce", "close_ballot"]


async def test_a_send_whose_answer_was_lost_is_found_not_sent_again(world: World) -> None:
    vote_id = await started(world)
    world.channels.script("announce", LoseAnswer(TRANSIENT))
    assert (await world.service.close(GUILD)).status is CloseStatus.PENDING
    [resumed] = await world.service.tick()
    sent = world.channels.in_channel(CHANNEL)
    assert resumed.status is CloseStatus.ANNOUNCED and resumed.message_id == sent[0].message_id
    assert len(sent) == 1
    vote = await world.votes.get(vote_id)
    assert vote is not None and vote.announcement_id == sent[0].message_id


async def test_a_refusal_for_good_fails_the_close_and_frees_the_server(world: World) -> None:
    vote_id = await started(world)
    world.channels.script("announce", Refuse(FORBIDDEN))
    failed = await world.service.close(GUILD)
    assert (failed.status, failed.reason) == (CloseStatus.FAILED,
                                              Reason(ReasonCode.NO_PERMISSION))
    vote = await world.votes.get(vote_id)
    assert vote is not None and vote.status is VoteStatus.FAILED
    assert vote.reason == Reason(ReasonCode.NO_PERMISSION)
    assert await world.service.tick() == [] and world.posted() == []
    again, _ = await world.service.start(GUILD, CHANNEL, ORGANISER, top=2, hours=1)
    assert again.id != vote_id


async def test_a_stalled_send_is_left_to_its_owner_by_another_process(world: World) -> None:
    vote_id = await started(world)
    stall = Stall(asyncio.Event())
    world.channels.script("announce", stall)
    world.clock.advance(hours=2)
    closing = asyncio.create_task(world.service.tick())
    await stall.started.wait()
    other = world.process("there")
    assert [c.status for c in await other.tick()] == [CloseStatus.ALREADY]
    stall.go.set()
    assert [c.status for c in await closing] == [CloseStatus.ANNOUNCED]
    assert world.posted() == [PAPERS[1].id]
    vote = await world.votes.get(vote_id)
    assert vote is not None and vote.status is VoteStatus.ANNOUNCED


async def test_an_abandoned_claim_is_taken_over_once_its_lease_expires(world: World) -> None:
    await started(world)
    world.channels.script("announce", Refuse(TRANSIENT))
    assert (await world.service.close(GUILD)).status is CloseStatus.PENDING
    other = world.process("there")
    assert [c.status for c in await other.tick()] == [CloseStatus.ALREADY]
    assert world.posted() == []
    world.clock.advance(seconds=DEFAULT_LEASE.total_seconds() + 1)
    assert [c.status for c in await other.tick()] == [CloseStatus.ANNOUNCED]
    assert [c.status for c in await world.service.tick()] == []
    assert world.posted() == [PAPERS[1].id]


async def test_greying_out_the_ballot_is_best_effort(world: World) -> None:
    vote_id = await started(world)
    world.channels.script("close_ballot", Refuse(FORBIDDEN))
    assert (await world.service.close(GUILD)).status is CloseStatus.ANNOUNCED
    assert world.announcer.closed_ballots == []
    vote = await world.votes.get(vote_id)
    assert vote is not None and vote.status is VoteStatus.ANNOUNCED


async def test_a_tie_goes_to_more_support_then_the_older_suggestion(world: World) -> None:
    vote_id = await started(world)  # options: 1 second (support 2), 2 first, 3 third
    await world.service.ballot(vote_id, 2, ALICE)
    await world.service.ballot(vote_id, 3, BOB)
    await world.service.close(GUILD)
    [announced] = world.announcer.announcements(CHANNEL)
    assert announced.winner.paper_id == PAPERS[0].id and announced.tie
    assert announced.ballots == 2
    await world.queue.drop(GUILD, PAPERS[0].id)
    vote, _ = await world.service.start(GUILD, CHANNEL, ORGANISER, top=3, hours=1)
    for user, position in ((ALICE, 1), (BOB, 2)):  # second (support 2) vs third (1)
        await world.service.ballot(vote.id, position, user)
    await world.service.close(GUILD)
    assert world.announcer.announcements(CHANNEL)[-1].winner.paper_id == PAPERS[1].id


async def test_no_ballots_picks_the_most_supported_and_a_clear_win_is_no_tie(
        world: World) -> None:
    await started(world)
    await world.service.close(GUILD)
    [quiet] = world.announcer.announcements(CHANNEL)
    assert quiet.ballots == 0 and quiet.winner.paper_id == PAPERS[1].id
    vote, _ = await world.service.start(GUILD, CHANNEL, ORGANISER, top=3, hours=1)
    for user in (ALICE, BOB):
        await world.service.ballot(vote.id, 3, user)
    await world.service.ballot(vote.id, 1, CAROL)
    await world.service.close(GUILD)
    clear = world.announcer.announcements(CHANNEL)[-1]
    assert clear.winner.paper_id == PAPERS[2].id and clear.winner.votes == 2 and not clear.tie


async def test_results_show_the_last_vote_and_papers_gone_from_the_catalog(
        world: World) -> None:
    assert await world.service.report(GUILD) is None
    vote_id = await started(world)
    await world.service.ballot(vote_id, 1, ALICE)
    await world.service.close(GUILD)
    await drop_paper(world.papers, PAPERS[2].id)
    report = await world.service.report(GUILD)
    assert report is not None and report.vote.status is VoteStatus.ANNOUNCED
    assert [(r.paper_id, r.paper is not None, r.votes) for r in report.results] == [
        (PAPERS[1].id, True, 1), (PAPERS[0].id, True, 0), (PAPERS[2].id, False, 0)]
