"""SIGKILL the real bot process while it posts a feed's "new in" message; restart it; exactly
one post, and the subscriber told once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from arxiv_standin import ArxivStandIn, StandinPaper
from bot.features.subscriptions.topic_match import normalise_topic
from discord_standin import Fault, Guild, Member, StandIn, User
from domain.subscriptions import Delivery, Subscription
from storage.backend import FEEDS, SUBSCRIPTIONS
from storage.sqlite.database import Database
from tests.clocks import Ticker
from tests.e2e.test_digest_crash import IDENTIFY_SPACING, BotProcess, _until

pytestmark = pytest.mark.slow

QUERY = "abs:grokking"
# step -> (the fault on the post, whether Discord still carries the request out)
STEPS = {
    "after claim": (Fault.server_error(500), False),
    "after send": (Fault.server_error(502), True),
}


def paper(number: int) -> StandinPaper:
    return StandinPaper(
        id=f"2611.{number:05d}", title=f"Grokking Revisited, Part {number}",
        summary="We study grokking in small transformers.", authors=("Ada Lindqvist",),
        categories=("cs.LG",), published=datetime(2026, 11, number, 12, tzinfo=UTC))


async def _follow(db_path: Path, guild: Guild, reader: User) -> None:
    """A feed with a channel, and a member subscribed to its topic by DM."""
    db = await Database.open(db_path)
    try:
        await FEEDS.open(db).add_feed(guild.id, QUERY, guild.channel("papers").id, 1,
                                           datetime.now(UTC), limit=10)
        await SUBSCRIPTIONS.open(db).add(Subscription(
            guild.id, reader.id, "grokking", normalise_topic("grokking"), Delivery.DM))
    finally:
        await db.close()


async def _posted(db_path: Path) -> bool:
    db = await Database.open(db_path)
    try:
        return await db.fetch("SELECT status FROM feed_announcements") == [("posted",)]
    finally:
        await db.close()


@pytest.mark.parametrize("step", list(STEPS))
async def test_killed_while_announcing_then_restarted_posts_and_tells_once(
        tmp_path: Path, step: str) -> None:
    reader = User("reader")
    guild = Guild("Crash Group", channels=["papers"], members=[Member(reader)])
    fault, processed = STEPS[step]
    seconds = Ticker()  # the stand-in's: the restart's IDENTIFY comes 5 of them later
    async with ArxivStandIn([paper(1), paper(2)]) as arxiv, \
            StandIn(guilds=[guild], clock=seconds) as standin:
        bot = BotProcess(standin, tmp_path)
        bot.config.write_text(bot.config.read_text(encoding="utf-8")
                              + f'[arxiv]\napi_base = "{arxiv.api_base}"\n', encoding="utf-8")
        await _follow(bot.db_path, guild, reader)
        channel = guild.channel("papers")
        route = f"/channels/{channel.id}/messages"
        standin.fail("POST", route, fault, times=1000, after_processing=processed)
        await bot.start()
        try:
            async def reached() -> bool:
                return bool(standin.requests("POST", route))

            await _until(reached, f"the bot to reach '{step}'")
            await bot.kill()
        finally:
            await bot.stop()
        assert not await _posted(bot.db_path), "the kill came after the post was recorded"
        standin.rest.faults.clear()
        seconds.advance(IDENTIFY_SPACING)
        await bot.start()
        try:
            await _until(lambda: _posted(bot.db_path), "the restarted bot to record the post")

            async def told() -> bool:
                return bool(standin.messages(standin.dm_channel(reader)))

            await _until(told, "the subscriber's DM")
        finally:
            await bot.stop()
        posts = [m for m in standin.messages(channel) if m.embeds]
        assert len(posts) == 1, [m.embeds for m in posts]
        assert "Part 2" in str(posts[0].embeds[0]["description"])
        dms = standin.messages(standin.dm_channel(reader))
        assert len(dms) == 1 and "Part 1" in dms[0].content
        assert sum("search_query" in r.params for r in arxiv.requests) == 1
