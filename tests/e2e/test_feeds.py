"""arXiv feeds end to end: the real bot in the Discord stand-in, asking the arXiv stand-in."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from arxiv_standin import ArxivFault, ArxivStandIn, StandinPaper
from bot.client.bot import PaperclubBot
from bot.features.adding.arxiv_client import ArxivClient
from bot.features.feeds.delivery import FeedPost
from bot.settings import Settings
from bot.shared.lang import Lang
from bot.shared.messages import t
from bot.wiring import build_bot
from discord_standin import Guild, Message, StandIn
from domain.feeds import announcement_marker, announcement_nonce
from domain.leases import Lease
from tests.clocks import FakeClock, SleepTime, Ticker
from tests.group import People, assert_no_tasks_left

QUERY = "abs:grokking"


def paper(number: int) -> StandinPaper:
    return StandinPaper(
        id=f"2611.{number:05d}", title=f"Grokking Revisited, Part {number}",
        summary="We study grokking in small transformers.", authors=("Ada Lindqvist",),
        categories=("cs.LG",), published=datetime(2026, 11, number, 12, tzinfo=UTC))


@pytest.fixture
def ticker() -> Ticker:
    return Ticker()


@pytest.fixture
async def standin(guild: Guild, ticker: Ticker) -> AsyncIterator[StandIn]:
    """The stand-in whose nonce memory ages by `ticker`: a test lets Discord's window pass, so
    only finding the post keeps it single."""
    async with StandIn(guilds=[guild], clock=ticker) as server:
        yield server
        assert server.internal_errors == []
        assert server.unknown_requests == []
    assert_no_tasks_left()


@pytest.fixture
async def feed_arxiv(arxiv_time: SleepTime) -> AsyncIterator[tuple[ArxivStandIn, ArxivClient]]:
    """An arXiv stand-in with two papers, and a client on its fake seconds."""
    time = arxiv_time
    async with ArxivStandIn([paper(1), paper(2)], clock=time.clock, sleep=time.sleep) as server:
        client = ArxivClient(server.api_base, clock=time.clock, sleep=time.sleep,
                             jitter=lambda: 0.5, max_retries=2)
        try:
            yield server, client
        finally:
            await client.close()


async def answer(standin: StandIn, guild: Guild, people: People, command: str,
                 options: dict[str, str | int] | None = None, *, as_admin: bool = True) -> str:
    handle = await standin.slash(command, options or {}, guild=guild,
                                 user=people.bob if as_admin else people.alice)
    response = await handle.response()
    return (await handle.followup()).content if response.type == 5 else response.content


def feed_posts(standin: StandIn, guild: Guild) -> list[Message]:
    return [m for m in standin.messages(guild.channel("papers")) if m.embeds]


@dataclass
class Feeds:
    """A server following `QUERY` through the real bot, started and stopped as a test says."""

    standin: StandIn
    settings: Settings
    clock: FakeClock
    guild: Guild
    people: People
    arxiv: ArxivStandIn
    client: ArxivClient

    @asynccontextmanager
    async def running(self) -> AsyncIterator[PaperclubBot]:
        """paperclub on the fake clock and the database of `settings`, asking the arXiv
        stand-in, after its catch-up turn; stopped at the end."""
        paperclub = await build_bot(self.settings, clock=self.clock, arxiv=self.client,
                                    guild_ready_timeout=0.05)
        await self.standin.start_bot(paperclub)
        try:
            await asyncio.wait_for(paperclub.caught_up.wait(), 10)
            await paperclub.background_done()  # the feeds' catch-up turn
            yield paperclub
        finally:
            await self.standin.stop_bot(paperclub)

    async def add(self, query: str = QUERY) -> str:
        """`/feed add` by an admin, posting in #papers; the answer."""
        channel = self.guild.channel("papers").id
        handle = await self.standin.slash("feed add", {"query": query, "channel": channel},
                                          guild=self.guild, user=self.people.bob)
        response = await handle.response()
        return (await handle.followup()).content if response.type == 5 else response.content

    def posts(self) -> list[Message]:
        """The feed's posts in #papers."""
        return feed_posts(self.standin, self.guild)


@pytest.fixture
def feeds(standin: StandIn, settings: Settings, clock: FakeClock, guild: Guild, people: People,
          feed_arxiv: tuple[ArxivStandIn, ArxivClient]) -> Feeds:
    return Feeds(standin, settings, clock, guild, people, *feed_arxiv)


async def test_a_poll_adds_papers_and_tells_a_subscriber_once_across_a_restart(
        feeds: Feeds, ticker: Ticker) -> None:
    standin, guild, people, clock = feeds.standin, feeds.guild, feeds.people, feeds.clock
    async with feeds.running() as bot:
        handle = await standin.slash("subscribe", {"topic": "grokking", "delivery": "dm"},
                                     guild=guild, user=people.alice)
        await handle.response()
        added = await feeds.add(f"  {QUERY} ")
        assert "feed #1" in added and f"`{QUERY}`" in added
        await bot.services.feeds.tick()
        await bot.background_done()
    [post] = feeds.posts()
    embed = post.embeds[0]
    assert QUERY in str(embed["title"])
    description = str(embed["description"])
    assert description.index("Part 2") < description.index("Part 1")  # newest first
    assert post.nonce and str(embed["footer"]["text"]).startswith("📡 #1.")
    dms = standin.messages(standin.dm_channel(people.alice))
    assert len(dms) == 1 and "Part 1" in dms[0].content and "Part 2" in dms[0].content

    ticker.advance(3600)  # Discord's IDENTIFY spacing and nonce memory
    async with feeds.running() as bot:  # the same database
        clock.advance(hours=3)
        tick = await bot.services.feeds.tick()
        await bot.background_done()
        assert [(p.fresh, p.added, p.error) for p in tick.polls] == [(0, 0, None)]
        listed = await answer(standin, guild, people, "feed list")
        assert listed == ""  # the list is an embed
    assert len(feeds.posts()) == 1
    assert len(standin.messages(standin.dm_channel(people.alice))) == 1
    assert sum("search_query" in r.params for r in feeds.arxiv.requests) == 2


async def test_a_poll_while_arxiv_says_rate_exceeded_waits_for_the_next_one(
        feeds: Feeds) -> None:
    async with feeds.running() as bot:
        await feeds.add()
        feeds.arxiv.fail(ArxivFault.rate_exceeded(), times=3)  # the first try and both retries
        before = await bot.services.catalog.count()
        [poll] = (await bot.services.feeds.tick()).polls
        assert poll.error is not None and feeds.posts() == []
        assert await bot.services.catalog.count() == before
        handle = await feeds.standin.slash("feed list", guild=feeds.guild, user=feeds.people.bob)
        listed = await handle.reply()
        field = listed.embeds[0]["fields"][0]
        assert t(Lang.EN, "reason.arxiv_busy") in field["value"]
        feeds.clock.advance(hours=3)
        [poll] = (await bot.services.feeds.tick()).polls
        assert (poll.error, poll.added) == (None, 2)
        assert len(feeds.posts()) == 1
    assert [r.status for r in feeds.arxiv.requests] == [503, 503, 503, 200]


async def test_feed_commands_are_refused_without_manage_server(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    tried: list[tuple[str, dict[str, str | int]]] = [
        ("feed add", {"query": QUERY}), ("feed list", {}), ("feed remove", {"feed": 1})]
    for command, options in tried:
        refused = await answer(standin, guild, people, command, options, as_admin=False)
        assert t(Lang.EN, "perm.manage_guild") in refused, command
    assert await bot.services.feeds.of_guild(guild.id) == []


async def test_bad_queries_and_limits_are_refused_with_reasons(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    refused = await answer(standin, guild, people, "feed add", {"query": "title:grokking"})
    assert "`title:`" in refused and "ti:" in refused
    refused = await answer(standin, guild, people, "feed add", {"query": "@everyone AND"})
    assert "`@`" in refused
    for n in range(10):
        await answer(standin, guild, people, "feed add", {"query": f"cat:cs.{n}"})
    assert "10 feeds" in await answer(standin, guild, people, "feed add", {"query": "cat:x"})
    assert "already follows" in await answer(standin, guild, people, "feed add",
                                             {"query": "cat:cs.1"})
    handle = await standin.slash("feed remove", {"feed": 2}, guild=guild, user=people.bob)
    assert "cat:cs.1" in (await handle.reply()).content
    assert "no feed #2" in await answer(standin, guild, people, "feed remove", {"feed": 2})


async def test_a_deleted_channel_pauses_the_feed_and_tells_the_admins_once(
        feeds: Feeds) -> None:
    standin, guild, people = feeds.standin, feeds.guild, feeds.people
    async with feeds.running() as bot:
        await feeds.add()
        await standin.delete_channel(guild.channel("papers"))
        [announced] = (await bot.services.feeds.tick()).announcements
        assert announced.paused
        first = await answer(standin, guild, people, "feed remove", {"feed": 99})
        assert first.startswith("⚠️ Feed #1") and "no feed #99" in first
        second = await answer(standin, guild, people, "feed remove", {"feed": 99})
        assert "⚠️" not in second
        feeds.arxiv.add(paper(3))
        feeds.clock.advance(hours=3)
        tick = await bot.services.feeds.tick()
        assert tick.polls == () and tick.announcements == ()  # paused: not polled, not retried


async def test_a_post_sent_by_a_process_that_died_is_found_not_sent_again(
        feeds: Feeds, ticker: Ticker) -> None:
    clock = feeds.clock
    async with feeds.running() as bot:
        await feeds.add()
        service = bot.services.feeds
        poll = await service.poll(QUERY)  # the dead process polled, claimed the post, sent it
        assert poll is not None and poll.announcements == 1
        claim = await service.feeds.claim_announcement(
            1, poll.poll, Lease("dead", clock() + timedelta(minutes=5)), clock())
        assert claim is not None
        papers = tuple([p for p in [await bot.services.catalog.papers.get(i)
                                    for i in claim.paper_ids] if p])
        sent = await service.poster.send(
            FeedPost(feeds.guild.id, claim.channel_id, QUERY, papers,
                     announcement_marker(1, poll.poll)),
            announcement_nonce(1, poll.poll))

    ticker.advance(3600)  # Discord's IDENTIFY spacing; it forgot the nonce long ago
    async with feeds.running() as bot:
        assert (await bot.services.feeds.tick()).announcements == ()  # its lease is live
        clock.advance(minutes=6)
        [found] = (await bot.services.feeds.tick()).announcements
        assert found.message_id == sent
    assert [m.id for m in feeds.posts()] == [sent]


async def test_a_feed_due_while_the_bot_was_down_is_polled_when_it_starts(
        feeds: Feeds, ticker: Ticker) -> None:
    async with feeds.running():
        await feeds.add()
    assert feeds.posts() == []
    ticker.advance(3600)
    async with feeds.running():  # catches up at once, not in an hour
        pass
    assert len(feeds.posts()) == 1
