"""Claims with an owner and a lease: two processes on one database, a crash between the steps
of the paper of the day, history paging past other messages, threads whose answer was lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.client.bot import PaperclubBot
from bot.features.digest.scheduler import digest_nonce
from bot.settings import Settings
from bot.shared.lang import Lang
from bot.shared.messages import t
from discord_standin import Channel, Fault, Guild, Member, Message, OptionValue, StandIn
from domain.digest import Claim, LedgerEntry
from domain.leases import Lease
from domain.reasons import ReasonCode
from tests.clocks import FakeClock, Ticker
from tests.e2e.harness import start_claim_owner
from tests.group import People

TODAY = date(2026, 11, 30)  # the fake clock's date; the digest is due at 09:00 Berlin (08:00 UTC)


@pytest.fixture
def clock() -> FakeClock:
    """07:00 UTC on 2026-11-30, an hour before the paper of the day is due."""
    return FakeClock(datetime(2026, 11, 30, 7, 0, tzinfo=UTC))


@pytest.fixture
def ticker() -> Ticker:
    return Ticker()


@pytest.fixture
async def standin(guild: Guild, ticker: Ticker) -> AsyncIterator[StandIn]:
    """The stand-in whose nonce memory ages by `ticker`: a test lets Discord's window pass."""
    async with StandIn(guilds=[guild], clock=ticker) as server:
        yield server
        assert server.internal_errors == []
        assert server.unknown_requests == []


async def _set(standin: StandIn, guild: Guild, people: People, **options: OptionValue) -> None:
    values = {"channel": guild.channel("papers").id, "time": "09:00",
              "timezone": "Europe/Berlin", **options}
    handle = await standin.slash("digest set", values, guild=guild, user=people.bob)
    assert "every day at 09:00" in (await handle.reply()).content


def _posts(standin: StandIn, channel: Channel) -> list[Message]:
    return [m for m in standin.messages(channel) if m.embeds]


def _sends(standin: StandIn, channel: Channel) -> int:
    return len(standin.requests("POST", f"/channels/{channel.id}/messages",
                                route="/channels/{channel_id}/messages"))


async def _ledger(paperclub: PaperclubBot, guild: Guild) -> dict[date, LedgerEntry]:
    store = paperclub.services.digest.digests
    return {e.local_date: e for e in await store.recent(guild.id, limit=10)}


async def _claim_of_a_dead_process(paperclub: PaperclubBot, guild: Guild, day: date,
                                   lease: Lease) -> None:
    """What a process that crashed right after claiming leaves in the ledger."""
    paper_id = (await paperclub.services.digest.papers.paper_ids())[0]
    await paperclub.services.digest.digests.claim(guild.id, day, Claim(
        paper_id=paper_id, cycle=1, position=1, cycle_size=30,
        nonce=digest_nonce(guild.id, day), channel_id=guild.channel("papers").id, late=False,
        lease=lease))


async def test_a_second_process_never_resumes_a_live_claim(
        standin: StandIn, settings: Settings, guild: Guild, people: People,
        clock: FakeClock) -> None:
    first = await start_claim_owner(standin, settings, clock, "first")
    await _set(standin, guild, people)
    second = await start_claim_owner(standin, settings, clock, "second")
    clock.advance(hours=1)  # 09:00 in Berlin: due
    papers = guild.channel("papers")
    # The first process's post fails once (500, not carried out): discord.py waits a second
    # and tries again. Meanwhile the second process wakes up and sees the first's claim.
    standin.fail("POST", f"/channels/{papers.id}/messages", Fault.server_error(500))
    turn = asyncio.create_task(first.services.digest_scheduler.tick())
    async with asyncio.timeout(5):
        while not standin.requests("POST", f"/channels/{papers.id}/messages"):
            await asyncio.sleep(0.01)
    assert [o.status for o in await second.services.digest_scheduler.tick()] != ["posted"]
    assert _sends(standin, papers) == 1  # the second process sent nothing
    assert [o.status for o in await turn] == ["posted"]
    (post,) = _posts(standin, papers)
    entry = (await _ledger(first, guild))[TODAY]
    assert (entry.message_id, entry.reason) == (post.id, None)
    assert post.thread is not None and entry.thread_id == post.thread.id
    assert _sends(standin, papers) == 2
    for paperclub in (first, second):
        await standin.stop_bot(paperclub)


async def test_an_expired_claim_is_taken_over_a_live_one_is_not(
        standin: StandIn, settings: Settings, guild: Guild, people: People,
        clock: FakeClock) -> None:
    survivor = await start_claim_owner(standin, settings, clock, "survivor")
    await _set(standin, guild, people)
    clock.advance(hours=1)
    dead = Lease("crashed", clock.now + timedelta(minutes=5))
    await _claim_of_a_dead_process(survivor, guild, TODAY, dead)
    papers = guild.channel("papers")
    assert [o.status for o in await survivor.services.digest_scheduler.tick()] == ["idle"]
    clock.advance(minutes=4)
    await survivor.services.digest_scheduler.tick()
    assert _sends(standin, papers) == 0  # still the crashed process's claim
    clock.advance(minutes=1)  # its lease has run out
    await survivor.services.digest_scheduler.tick()
    (post,) = _posts(standin, papers)
    entry = (await _ledger(survivor, guild))[TODAY]
    assert (entry.status, entry.message_id) == ("posted", post.id)
    assert entry.lease is not None and entry.lease.owner == "survivor"
    assert post.thread is not None and entry.thread_id == post.thread.id
    await standin.stop_bot(survivor)


async def test_a_post_sent_but_not_recorded_is_found_past_other_messages_and_the_nonce_window(
        standin: StandIn, settings: Settings, guild: Guild, people: People, clock: FakeClock,
        ticker: Ticker) -> None:
    crashed = await start_claim_owner(standin, settings, clock, "crashed")
    await _set(standin, guild, people)
    clock.advance(hours=1)
    papers = guild.channel("papers")
    # The post is carried out but its answer is lost; the process dies before recording it.
    standin.fail("POST", f"/channels/{papers.id}/messages", Fault.server_error(502),
                 after_processing=True)
    turn = asyncio.create_task(crashed.services.digest_scheduler.tick())
    async with asyncio.timeout(5):
        while not _posts(standin, papers):
            await asyncio.sleep(0.01)
    turn.cancel()
    await asyncio.gather(turn, return_exceptions=True)
    await standin.stop_bot(crashed)
    (sent,) = _posts(standin, papers)
    for i in range(120):  # more than one page of history after the post
        await standin.say(papers, people.alice, f"comment {i}")
    ticker.advance(600)  # Discord has forgotten the nonce
    clock.advance(minutes=10)  # the crashed process's lease has expired
    restarted = await start_claim_owner(standin, settings, clock, "restarted")
    async with asyncio.timeout(5):
        while (await _ledger(restarted, guild))[TODAY].thread_id is None:
            await asyncio.sleep(0.01)
    assert _posts(standin, papers) == [sent]
    entry = (await _ledger(restarted, guild))[TODAY]
    assert (entry.status, entry.message_id, entry.reason) == ("posted", sent.id, None)
    assert sent.thread is not None and entry.thread_id == sent.thread.id
    await standin.stop_bot(restarted)


async def test_a_thread_created_but_not_recorded_is_found_on_160004(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        clock: FakeClock) -> None:
    await _set(standin, guild, people)
    clock.advance(hours=1)
    papers = guild.channel("papers")
    # Discord opens the thread but the answer is lost; discord.py's retry gets 160004.
    standin.fail("POST", f"/channels/{papers.id}/messages/*/threads", Fault.server_error(500),
                 after_processing=True)
    assert [o.status for o in await bot.services.digest_scheduler.tick()] == ["posted"]
    threads = standin.requests("POST", "/threads")
    assert [r.status for r in threads] == [500, 400]
    (post,) = _posts(standin, papers)
    entry = (await _ledger(bot, guild))[TODAY]
    assert post.thread is not None
    assert (entry.thread_id, entry.reason) == (post.thread.id, None)


async def test_a_claim_past_the_grace_window_is_skipped_not_posted(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        clock: FakeClock) -> None:
    await _set(standin, guild, people)
    clock.advance(hours=1)
    await _claim_of_a_dead_process(bot, guild, TODAY, Lease("crashed", clock.now))
    clock.advance(days=2, hours=2)  # back two days later, two hours after the third day's time
    await bot.services.digest_scheduler.tick()
    papers = guild.channel("papers")
    (post,) = _posts(standin, papers)
    ledger = await _ledger(bot, guild)
    first, second, third = (ledger[TODAY + timedelta(days=n)] for n in range(3))
    assert first.status == "skipped" and first.reason is not None
    assert first.reason.code is ReasonCode.OFFLINE_PAST_GRACE
    assert first.reason.params == {"grace_minutes": 360}
    assert second.status == "skipped"
    assert (third.status, third.message_id) == ("posted", post.id)
    assert "2026-12-02" in post.embeds[0]["footer"]["text"]


@pytest.mark.parametrize("lang", [Lang.EN, Lang.ZH_HANS, Lang.ZH_HANT])
async def test_a_thread_missing_after_a_crash_is_named_in_the_servers_language(
        settings: Settings, people: People, clock: FakeClock, ticker: Ticker,
        lang: Lang) -> None:
    """The post went out and was recorded, then the process died before opening its thread,
    and the paper has left the catalog since: the thread is named from the catalogue, in the
    server's language."""
    guild = Guild("Reading Group", channels=["general", "papers"], locale=lang.value,
                  members=[people.alice, Member(people.bob, roles=[people.admin_role])])
    papers = guild.channel("papers")
    async with StandIn(guilds=[guild], clock=ticker) as standin:
        paperclub = await start_claim_owner(standin, settings, clock, "restarted")
        try:
            handle = await standin.slash("digest set", {  # nothing due today by itself
                "channel": papers.id, "time": "12:00", "timezone": "Europe/Berlin"},
                guild=guild, user=people.bob)
            assert "12:00" in (await handle.reply()).content
            digests = paperclub.services.digest.digests
            await digests.claim(guild.id, TODAY, Claim(
                paper_id="gone-from-the-catalog", cycle=1, position=1, cycle_size=30,
                nonce=digest_nonce(guild.id, TODAY), channel_id=papers.id, late=False,
                lease=Lease("crashed", clock.now)))
            post = await standin.say(papers, people.alice, "the post of the crashed process")
            await digests.mark_posted(guild.id, TODAY, post.id)
            await paperclub.services.digest_scheduler.tick()
            entry = (await _ledger(paperclub, guild))[TODAY]
            thread = standin.message(post.id).thread
            assert thread is not None and entry.thread_id == thread.id
            assert thread.name == t(lang, "digest.thread.name")
        finally:
            await standin.stop_bot(paperclub)
