"""`/digest set pick:recommended` end to end: in process through the stand-in (the group's
bookmarks pick the post, the note and `/digest status` say so, the cycle picks while there
are no signals), and the real bot process SIGKILLed between the claim and the post, then
restarted: the recommended paper recorded in the claim is posted, exactly once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.client.bot import PaperclubBot
from bot.features.catalog.loader import load_catalog
from bot.features.digest.recommended import RecommendedPicker
from bot.features.recommend.service import RecommendService
from discord_standin import Guild, StandIn
from domain.digest import DigestConfig, DigestPick
from domain.group import Bookmark
from domain.paper import Paper
from storage.backend import BOOKMARKS, DIGESTS, RECOMMENDATIONS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.clocks import FakeClock
from tests.e2e.test_digest_crash import (
    STEPS,
    TRIALS,
    BotProcess,
    _ledger,
    _until,
    restart_until_posted,
)
from tests.group import People

LIKED = ("To Grok Grokking", "How the Hessian-Spectrum of Neural Networks")


async def _set(standin: StandIn, guild: Guild, people: People, pick: str) -> str:
    handle = await standin.slash("digest set", {
        "channel": guild.channel("papers").id, "time": "09:00", "timezone": "Europe/Berlin",
        "pick": pick}, guild=guild, user=people.bob)
    return (await handle.reply()).content


async def _status(standin: StandIn, guild: Guild, people: People) -> dict[str, str]:
    handle = await standin.slash("digest status", guild=guild, user=people.bob)
    (embed,) = (await handle.reply()).embeds
    return {f["name"]: f["value"] for f in embed["fields"]}


async def test_the_group_s_bookmarks_pick_the_paper_of_the_day(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        clock: FakeClock) -> None:
    clock.now = clock.now.replace(hour=7)  # 08:00 in Berlin
    reply = await _set(standin, guild, people, "recommended")
    assert "the cycle picks until someone bookmarks" in reply
    assert "the cycle picks" in (await _status(standin, guild, people))["Options"]
    for title in LIKED:
        marked = await standin.slash("bookmark", {"paper": title}, guild=guild,
                                     user=people.alice)
        await marked.reply()
    options = (await _status(standin, guild, people))["Options"]
    assert "picked: the group's recommended paper" in options and "cycle picks" not in options
    preview = await standin.slash("digest preview", guild=guild, user=people.bob)
    (previewed,) = (await preview.reply()).embeds
    assert "recommended for the group, like *" in previewed["description"]
    clock.advance(hours=1)
    assert [o.status for o in await bot.services.digest_scheduler.tick()] == ["posted"]
    (post,) = [m for m in standin.messages(guild.channel("papers")) if m.embeds]
    embed = post.embeds[0]
    assert embed["title"] == previewed["title"]
    assert "**Paper of the day** · recommended for the group, like *" in embed["description"]
    assert not any(title in embed["title"] for title in LIKED)
    assert "recommended" in (await _status(standin, guild, people))["Recent"]
    group = await bot.services.recommend.group_picks(guild.id, exclude=(), limit=50)
    assert embed["title"] in [
        (paper.title_en if (paper := await bot.services.digest.papers.get(p.paper_id))
         else "") for p in group]


async def _bundled(db: Database) -> list[Paper]:
    return [p async for p in SqlitePaperStore(db).iter_papers()]


async def _configure_recommended(db_path: Path, guild: Guild, catalog_path: Path) -> None:
    """A `pick:recommended` digest due two minutes ago, with two papers bookmarked."""
    now = datetime.now(UTC)
    db = await Database.open(db_path)
    try:
        await load_catalog(SqlitePaperStore(db), catalog_path)
        await DIGESTS.open(db).save_config(DigestConfig(
            guild.id, guild.channel("papers").id, (now - timedelta(minutes=2)).strftime("%H:%M"),
            "UTC", enabled_since=now - timedelta(hours=1), pick=DigestPick.RECOMMENDED))
        for paper in await _bundled(db):
            if paper.title_en.startswith(LIKED):
                await BOOKMARKS.open(db).add(Bookmark(guild.id, 7, paper.id, now))
    finally:
        await db.close()


async def _recommended(db_path: Path, guild: Guild) -> tuple[str, str | None]:
    """What the picker picks now for the server's day (nothing posted before it)."""
    db = await Database.open(db_path)
    try:
        papers = SqlitePaperStore(db)
        picker = RecommendedPicker(RecommendService(
            papers, RECOMMENDATIONS.open(db), lambda: datetime.now(UTC)), papers)
        chosen = await picker.pick(guild.id, await papers.paper_ids(), set(),
                                   datetime.now(UTC).date())
        assert chosen is not None
        return chosen.paper_id, chosen.like
    finally:
        await db.close()


@pytest.mark.slow
@pytest.mark.parametrize("trial", TRIALS)
@pytest.mark.parametrize("step", ["after claim", "after send"])
async def test_killed_between_pick_and_post_then_restarted_posts_the_pick_once(
        tmp_path: Path, catalog_path: Path, step: str, trial: int) -> None:
    guild = Guild("Recommending Group", channels=["papers"])
    async with StandIn(guilds=[guild]) as standin:
        bot = BotProcess(standin, tmp_path)
        await _configure_recommended(bot.db_path, guild, catalog_path)
        expected, like = await _recommended(bot.db_path, guild)
        route, fault, processed = STEPS[step]
        standin.fail("POST", route, fault, times=1000, after_processing=processed)
        papers = guild.channel("papers")

        def sends() -> int:
            return len([r for r in standin.requests("POST", f"/channels/{papers.id}/")
                        if r.path.endswith("/messages")])

        await bot.start()
        try:
            async def reached() -> bool:
                return sends() > 0

            await _until(reached, f"the bot to reach '{step}'")
            await bot.kill()
        finally:
            await bot.stop()
        (entry,) = await _ledger(bot.db_path, guild.id)
        assert entry.status == "claimed"
        assert (entry.paper_id, entry.pick, entry.pick_like) == (
            expected, DigestPick.RECOMMENDED, like)
        standin.rest.faults.clear()
        sends_before = sends()
        await restart_until_posted(bot, guild.id)
        posts = [m for m in standin.messages(papers) if m.embeds]
        assert len(posts) == 1, f"{step} (trial {trial}): {len(posts)} posts"
        (entry,) = await _ledger(bot.db_path, guild.id)
        assert (entry.message_id, entry.paper_id) == (posts[0].id, expected)
        assert "recommended for the group" in posts[0].embeds[0]["description"]
        assert sends() - sends_before == {"after claim": 1, "after send": 0}[step]
