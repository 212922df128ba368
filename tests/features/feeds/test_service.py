"""The feed service against the arXiv stand-in, on SQLite, with a recording Discord poster
(a unit: the end-to-end tests run the real poster through the Discord stand-in)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from arxiv_standin import ArxivFault, ArxivStandIn, StandinPaper
from bot.features.adding.arxiv_client import ArxivClient
from bot.features.catalog.service import CatalogService
from bot.features.feeds.delivery import FeedPost
from bot.features.feeds.service import FeedService
from bot.shared.delivery import DeliveryFailed
from bot.shared.leases import Leaser
from domain.catalog import ADD_SOURCE
from domain.feeds import FIRST_POLL_PAPERS, announcement_nonce
from domain.leases import Lease
from domain.paper import Paper
from domain.reasons import Reason, ReasonCode
from storage.backend import ANNOUNCEMENTS, FEEDS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.clocks import FakeClock, SleepTime
from tests.fakes import AnnouncedRecorder

GUILD, OTHER = 100, 200
CHANNEL, OTHER_CHANNEL = 11, 22
EVERY = timedelta(hours=3)
QUERY = "abs:grokking"


def paper(number: int, day: int) -> StandinPaper:
    return StandinPaper(
        id=f"2611.{number:05d}", title=f"Grokking Study Number {number}",
        summary="We study grokking once more.", authors=("Ada Lindqvist",),
        categories=("cs.LG",), published=datetime(2026, 11, day, 12, tzinfo=UTC))


@dataclass
class RecordingPoster:
    """Posts land in `channels`; `gone` channels answer like a deleted one (10003); the next
    `busy` sends are still rate limited after discord.py's own tries (retryable)."""

    channels: dict[int, list[tuple[str, FeedPost]]] = field(default_factory=dict)
    gone: set[int] = field(default_factory=set)
    next_id: int = 1000
    busy: int = 0

    async def send(self, post: FeedPost, nonce: str) -> int:
        if post.channel_id in self.gone:
            raise DeliveryFailed(Reason(ReasonCode.CHANNEL_MISSING), 10003)
        if self.busy:
            self.busy -= 1
            raise DeliveryFailed(Reason(ReasonCode.DISCORD_ERROR, {"status": 429, "code": 0}),
                                 429, retryable=True)
        self.channels.setdefault(post.channel_id, []).append((nonce, post))
        self.next_id += 1
        return self.next_id

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        sent = [n for n, _ in self.channels.get(channel_id, [])]
        return 999 if nonce in sent else None

    def titles(self, channel_id: int) -> list[list[str]]:
        return [[p.title_en for p in post.papers] for _, post in self.channels.get(channel_id,
                                                                                   [])]


@dataclass
class World:
    arxiv: ArxivStandIn
    client: ArxivClient
    db: Database
    clock: FakeClock
    poster: RecordingPoster
    announcer: AnnouncedRecorder

    def service(self, owner: str = "one") -> FeedService:
        papers = SqlitePaperStore(self.db)
        catalog = CatalogService(papers, Path("unused"), announcer=self.announcer)
        return FeedService(FEEDS.open(self.db), catalog, papers, self.client, self.poster,
                           poll_every=EVERY, clock=self.clock,
                           leases=Leaser(owner, clock=self.clock))

    def searches(self) -> int:
        return sum("search_query" in r.params for r in self.arxiv.requests)


@pytest.fixture
async def world(db: Database) -> AsyncIterator[World]:
    time = SleepTime()
    async with ArxivStandIn([paper(1, 1), paper(2, 2), paper(3, 3)], clock=time.clock,
                            sleep=time.sleep) as arxiv:
        client = ArxivClient(arxiv.api_base, clock=time.clock, sleep=time.sleep,
                             jitter=lambda: 0.5, max_retries=2)
        try:
            yield World(arxiv, client, db, FakeClock(datetime(2026, 11, 30, 8, tzinfo=UTC)),
                        RecordingPoster(), AnnouncedRecorder(ANNOUNCEMENTS.open(db),
                                                           SqlitePaperStore(db)))
        finally:
            await client.close()


async def follow(service: FeedService, guild: int = GUILD, channel: int | None = CHANNEL,
                 query: str = QUERY) -> None:
    added = await service.add(guild, query, channel, 7)
    assert added.feed is not None


def titles(numbers: Sequence[int]) -> list[str]:
    return [f"Grokking Study Number {n}" for n in numbers]


async def test_a_poll_adds_new_papers_and_announces_them_once(world: World) -> None:
    service = world.service()
    await follow(service)
    await follow(service, OTHER, None)  # the same query elsewhere, without a channel
    tick = await service.tick()
    assert [(p.fresh, p.added, p.announcements) for p in tick.polls] == [(3, 3, 1)]
    assert world.poster.titles(CHANNEL) == [titles([3, 2, 1])]  # newest first
    assert world.announcer.told == titles([3, 2, 1])
    assert world.searches() == 1

    assert (await service.tick()).polls == ()  # not due again yet
    world.clock.advance(hours=3)
    again = await service.tick()
    assert [(p.fresh, p.added) for p in again.polls] == [(0, 0)]
    world.arxiv.add(paper(4, 4), paper(5, 5))
    world.clock.advance(hours=3)
    await service.tick()
    assert world.poster.titles(CHANNEL) == [titles([3, 2, 1]), titles([5, 4])]
    assert world.announcer.told == titles([3, 2, 1, 5, 4])
    assert world.searches() == 3  # each poll: one page, stopped at a paper seen before


async def test_a_first_poll_takes_only_the_newest_papers(world: World) -> None:
    world.arxiv.add(*(paper(n, 4 + n % 20) for n in range(10, 40)))
    service = world.service()
    await follow(service)
    [poll] = (await service.tick()).polls
    assert poll.fresh == poll.added == FIRST_POLL_PAPERS


async def test_two_processes_ticking_at_once_poll_and_announce_once(world: World) -> None:
    one, two = world.service("one"), world.service("two")
    await follow(one)
    await follow(one, OTHER, OTHER_CHANNEL)
    ticks = await asyncio.gather(one.tick(), two.tick(), one.tick())
    assert sum(len(t.polls) for t in ticks) == 1
    assert world.searches() == 1
    assert world.poster.titles(CHANNEL) == [titles([3, 2, 1])]
    assert world.poster.titles(OTHER_CHANNEL) == [titles([3, 2, 1])]
    assert world.announcer.told == titles([3, 2, 1])


async def test_a_busy_arxiv_is_tried_at_the_next_poll_with_nothing_partial(
        world: World) -> None:
    service = world.service()
    await follow(service)
    world.arxiv.fail(ArxivFault.rate_exceeded(), times=3)  # every try of the client
    [poll] = (await service.tick()).polls
    assert poll.error == Reason(ReasonCode.ARXIV_BUSY)
    assert world.poster.channels == {} and world.announcer.told == []
    [feed] = await service.of_guild(GUILD)
    assert feed.last_error == Reason(ReasonCode.ARXIV_BUSY)
    world.clock.advance(hours=3)
    [poll] = (await service.tick()).polls
    assert poll.error is None and poll.added == 3
    assert world.poster.titles(CHANNEL) == [titles([3, 2, 1])]


async def test_a_claim_left_by_a_crash_is_finished_without_posting_twice(
        world: World) -> None:
    service = world.service()
    await follow(service)
    await follow(service, OTHER, OTHER_CHANNEL)
    store = FEEDS.open(world.db)
    claim = await store.claim_poll(QUERY, world.clock(), world.clock() + EVERY)
    assert claim is not None
    papers = SqlitePaperStore(world.db)
    [outcome] = await papers.add_papers([Paper(title_en="Grokking Study Number 1",
                                               title_zh="", authors=("Ada",))], source=ADD_SOURCE)
    await store.record_poll(QUERY, claim.number, [("2611.00001", outcome.paper.id)],
                            world.clock())
    feeds = {f.guild_id: f.id for g in (GUILD, OTHER) for f in await store.feeds(g)}
    # a dead process claimed both posts; it had sent the first when it died
    for guild in (GUILD, OTHER):
        assert await store.claim_announcement(
            feeds[guild], claim.number, Lease("dead", world.clock() + timedelta(minutes=5)),
            world.clock()) is not None
    sent_before = FeedPost(GUILD, CHANNEL, QUERY, (outcome.paper,), "marker")
    world.poster.channels[CHANNEL] = [(announcement_nonce(feeds[GUILD], claim.number),
                                       sent_before)]
    assert (await service.tick()).announcements == ()  # the dead process's lease is live
    world.clock.advance(minutes=6)
    done = (await service.tick()).announcements
    assert sorted(a.message_id or 0 for a in done) == [999, world.poster.next_id]
    assert len(world.poster.channels[CHANNEL]) == 1  # found, not sent again
    assert world.poster.titles(OTHER_CHANNEL) == [titles([1])]  # never sent: sent now
    world.clock.advance(hours=1)
    assert (await service.tick()).announcements == ()


async def test_a_deleted_channel_pauses_its_feed_only_and_tells_once(world: World) -> None:
    service = world.service()
    await follow(service)
    await follow(service, OTHER, OTHER_CHANNEL)
    world.poster.gone.add(CHANNEL)
    done = (await service.tick()).announcements
    assert [(a.feed_id, a.paused) for a in sorted(done, key=lambda a: a.feed_id)] == [
        (1, True), (2, False)]
    assert world.poster.titles(OTHER_CHANNEL) == [titles([3, 2, 1])]
    [paused] = await service.pending_notices(GUILD)
    assert paused.reason == Reason(ReasonCode.CHANNEL_MISSING)
    assert await service.pending_notices(GUILD) == []
    world.arxiv.add(paper(4, 4))
    world.clock.advance(hours=3)
    done = (await service.tick()).announcements
    assert [a.feed_id for a in done] == [2]  # the paused feed is neither announced nor retried
    assert world.announcer.told == titles([3, 2, 1, 4])


async def test_later_polls_page_newest_first_until_a_paper_seen_before(world: World) -> None:
    service = world.service()
    await follow(service)
    await service.tick()
    world.arxiv.add(*(paper(n, 5 + n % 20) for n in range(10, 40)))
    world.clock.advance(hours=3)
    [poll] = (await service.tick()).polls
    assert (poll.fresh, poll.added) == (30, 30)
    assert world.searches() == 3  # the first poll, then two pages: 25 new, then 5 and a seen one
    [_, second] = world.poster.titles(CHANNEL)
    assert len(second) == 30


async def test_a_paper_the_catalog_already_had_is_seen_but_not_announced_as_new(
        world: World) -> None:
    """The catalog had paper 2 (from another source, an older version): the poll adds 1 and 3
    and announces only those; paper 2 is seen, so it is never announced later either."""
    service = world.service()
    known = await world.client.search("id:2611.00002", max_results=1)
    await service.catalog.add_papers([e.to_paper() for e in known.entries], source="bibtex")
    await follow(service)
    tick = await service.tick()
    assert [(p.fresh, p.added, p.announcements) for p in tick.polls] == [(3, 2, 1)]
    assert world.poster.titles(CHANNEL) == [titles([3, 1])]
    world.clock.advance(hours=3)
    await service.tick()
    assert world.poster.titles(CHANNEL) == [titles([3, 1])]


async def test_a_rate_limited_post_is_given_back_and_sent_once_at_the_next_tick(
        world: World) -> None:
    service = world.service()
    await follow(service)
    world.poster.busy = 1
    [given_back] = (await service.tick()).announcements
    assert given_back.message_id is None and not given_back.paused
    assert given_back.reason is not None and given_back.reason.code is ReasonCode.DISCORD_ERROR
    assert world.poster.channels == {}
    [posted] = (await service.tick()).announcements  # at once: the claim was given back
    assert posted.message_id == world.poster.next_id
    assert world.poster.titles(CHANNEL) == [titles([3, 2, 1])]
    assert (await service.tick()).announcements == ()
