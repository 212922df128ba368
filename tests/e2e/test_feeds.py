"""arXiv feeds end to end: the real bot in the Discord stand-in, asking the arXiv stand-in."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from arxiv_standin import ArxivFault, ArxivStandIn, StandinPaper
from bot.client.bot import PaperclubBot
from bot.core.digest_types import Lease
from bot.core.feed_types import announcement_marker, announcement_nonce
from bot.core.lang import Lang
from bot.core.messages import t
from bot.services.feed_delivery import FeedPost
from bot.settings import Settings
from bot.sources.arxiv import ArxivClient
from bot.wiring import build_bot
from discord_standin import Guild, Message, StandIn
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


async def start(standin: StandIn, settings: Settings, clock: FakeClock,
                client: ArxivClient) -> PaperclubBot:
    """paperclub on the fake clock, asking the arXiv stand-in."""
    paperclub = await build_bot(settings, clock=clock, arxiv=client, guild_ready_timeout=0.05)
    await standin.start_bot(paperclub)
    await asyncio.wait_for(paperclub.caught_up.wait(), 10)
    await paperclub.background_done()  # the feeds' catch-up turn
    return paperclub


async def answer(standin: StandIn, guild: Guild, people: People, command: str,
                 options: dict[str, str | int] | None = None, *, as_admin: bool = True) -> str:
    handle = await standin.slash(command, options or {}, guild=guild,
                                 user=people.bob if as_admin else people.alice)
    response = await handle.response()
    return (await handle.followup()).content if response.type == 5 else response.content


def feed_posts(standin: StandIn, guild: Guild) -> list[Message]:
    return [m for m in standin.messages(guild.channel("papers")) if m.embeds]


async def test_a_poll_adds_papers_and_tells_a_subscriber_once_across_a_restart(
        standin: StandIn, settings: Settings, clock: FakeClock, guild: Guild, people: People,
        feed_arxiv: tuple[ArxivStandIn, ArxivClient], ticker: Ticker) -> None:
    server, client = feed_arxiv
    bot = await start(standin, settings, clock, client)
    try:
        handle = await standin.slash("subscribe", {"topic": "grokking", "delivery": "dm"},
                                     guild=guild, user=people.alice)
        await handle.response()
        papers_channel = guild.channel("papers").id
        handle = await standin.slash("feed add", {"query": f"  {QUERY} ",
                                                  "channel": papers_channel},
                                     guild=guild, user=people.bob)
        added = (await handle.response()).content
        assert "feed #1" in added and f"`{QUERY}`" in added
        await bot.services.feeds.tick()
        await bot.background_done()
    finally:
        await standin.stop_bot(bot)
    [post] = feed_posts(standin, guild)
    embed = post.embeds[0]
    assert QUERY in str(embed["title"])
    description = str(embed["description"])
    assert description.index("Part 2") < description.index("Part 1")  # newest first
    assert post.nonce and "feed 1" in str(embed["footer"]["text"])
    dms = standin.messages(standin.dm_channel(people.alice))
    assert len(dms) == 1 and "Part 1" in dms[0].content and "Part 2" in dms[0].content

    ticker.advance(3600)  # Discord's IDENTIFY spacing and nonce memory
    bot = await start(standin, settings, clock, client)  # the same database
    try:
        clock.advance(hours=3)
        tick = await bot.services.feeds.tick()
        await bot.background_done()
        assert [(p.fresh, p.added, p.error) for p in tick.polls] == [(0, 0, None)]
        listed = await answer(standin, guild, people, "feed list")
        assert listed == ""  # the list is an embed
    finally:
        await standin.stop_bot(bot)
    assert len(feed_posts(standin, guild)) == 1
    assert len(standin.messages(standin.dm_channel(people.alice))) == 1
    assert sum("search_query" in r.params for r in server.requests) == 2


async def test_a_poll_while_arxiv_says_rate_exceeded_waits_for_the_next_one(
        standin: StandIn, settings: Settings, clock: FakeClock, guild: Guild, people: People,
        feed_arxiv: tuple[ArxivStandIn, ArxivClient]) -> None:
    server, client = feed_arxiv
    bot = await start(standin, settings, clock, client)
    try:
        await answer(standin, guild, people, "feed add",
                     {"query": QUERY, "channel": guild.channel("papers").id})
        server.fail(ArxivFault.rate_exceeded(), times=3)  # the first try and both retries
        before = await bot.services.catalog.count()
        [poll] = (await bot.services.feeds.tick()).polls
        assert poll.error is not None and feed_posts(standin, guild) == []
        assert await bot.services.catalog.count() == before
        handle = await standin.slash("feed list", guild=guild, user=people.bob)
        listed = await handle.response()
        field = listed.embeds[0]["fields"][0]
        assert t(Lang.EN, "reason.arxiv_busy") in field["value"]
        clock.advance(hours=3)
        [poll] = (await bot.services.feeds.tick()).polls
        assert (poll.error, poll.added) == (None, 2)
        assert len(feed_posts(standin, guild)) == 1
    finally:
        await standin.stop_bot(bot)
    assert [r.status for r in server.requests] == [503, 503, 503, 200]


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
    assert "cat:cs.1" in (await handle.response()).content
    assert "no feed #2" in await answer(standin, guild, people, "feed remove", {"feed": 2})


async def test_a_deleted_channel_pauses_the_feed_and_tells_the_admins_once(
        standin: StandIn, settings: Settings, clock: FakeClock, guild: Guild, people: People,
        feed_arxiv: tuple[ArxivStandIn, ArxivClient]) -> None:
    server, client = feed_arxiv
    bot = await start(standin, settings, clock, client)
    try:
        await answer(standin, guild, people, "feed add",
                     {"query": QUERY, "channel": guild.channel("papers").id})
        await standin.delete_channel(guild.channel("papers"))
        [announced] = (await bot.services.feeds.tick()).announcements
        assert announced.paused
        first = await answer(standin, guild, people, "feed remove", {"feed": 99})
        assert first.startswith("⚠️ Feed #1") and "no feed #99" in first
        second = await answer(standin, guild, people, "feed remove", {"feed": 99})
        assert "⚠️" not in second
        server.add(paper(3))
        clock.advance(hours=3)
        tick = await bot.services.feeds.tick()
        assert tick.polls == () and tick.announcements == ()  # paused: not polled, not retried
    finally:
        await standin.stop_bot(bot)


async def test_a_post_sent_by_a_process_that_died_is_found_not_sent_again(
        standin: StandIn, settings: Settings, clock: FakeClock, guild: Guild, people: People,
        feed_arxiv: tuple[ArxivStandIn, ArxivClient], ticker: Ticker) -> None:
    _, client = feed_arxiv
    bot = await start(standin, settings, clock, client)
    try:
        await answer(standin, guild, people, "feed add",
                     {"query": QUERY, "channel": guild.channel("papers").id})
        feeds = bot.services.feeds
        poll = await feeds.poll(QUERY)  # the dead process polled, claimed the post, sent it
        assert poll is not None and poll.announcements == 1
        claim = await feeds.feeds.claim_announcement(
            1, poll.poll, Lease("dead", clock() + timedelta(minutes=5)), clock())
        assert claim is not None
        papers = tuple([p for p in [await bot.services.catalog.papers.get(i)
                                    for i in claim.paper_ids] if p])
        sent = await feeds.poster.send(
            FeedPost(guild.id, claim.channel_id, QUERY, papers,
                     announcement_marker(1, poll.poll)),
            announcement_nonce(1, poll.poll))
    finally:
        await standin.stop_bot(bot)

    ticker.advance(3600)  # Discord's IDENTIFY spacing; it forgot the nonce long ago
    bot = await start(standin, settings, clock, client)
    try:
        assert (await bot.services.feeds.tick()).announcements == ()  # its lease is live
        clock.advance(minutes=6)
        [found] = (await bot.services.feeds.tick()).announcements
        assert found.message_id == sent
    finally:
        await standin.stop_bot(bot)
    assert [m.id for m in feed_posts(standin, guild)] == [sent]


async def test_a_feed_due_while_the_bot_was_down_is_polled_when_it_starts(
        standin: StandIn, settings: Settings, clock: FakeClock, guild: Guild, people: People,
        feed_arxiv: tuple[ArxivStandIn, ArxivClient], ticker: Ticker) -> None:
    _, client = feed_arxiv
    bot = await start(standin, settings, clock, client)
    try:
        await answer(standin, guild, people, "feed add",
                     {"query": QUERY, "channel": guild.channel("papers").id})
    finally:
        await standin.stop_bot(bot)
    assert feed_posts(standin, guild) == []
    ticker.advance(3600)
    bot = await start(standin, settings, clock, client)  # catches up at once, not in an hour
    await standin.stop_bot(bot)
    assert len(feed_posts(standin, guild)) == 1
