"""`/digest` and the paper of the day, end to end through the local Discord stand-in."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date, timedelta

import discord
import pytest

from bot.client.bot import PaperclubBot
from bot.features.papers.card import fit
from bot.settings import Settings
from bot.shared.lang import Lang
from bot.shared.messages import render_reason
from discord_standin import Channel, Fault, Guild, Member, Message, OptionValue, Overwrite, StandIn
from domain.digest import Claim, DigestConfig, LedgerEntry
from domain.leases import Lease
from domain.reasons import Reason, ReasonCode
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.group import People


async def _recent(paperclub: PaperclubBot, guild_id: int) -> list[LedgerEntry]:
    """The server's latest ledger rows, as `/digest status` lists them."""
    status = await paperclub.services.digest.status(guild_id)
    return list(status.recent) if status else []

async def _until(predicate: Callable[[], object], timeout: float = 5.0) -> None:
    """Wait for something the bot does on its own (a catch-up turn, a guild arriving)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


def _posts(standin: StandIn, channel: Channel) -> list[Message]:
    return [m for m in standin.messages(channel) if m.embeds]


async def _set(standin: StandIn, guild: Guild, people: People, **options: OptionValue) -> str:
    values = {"channel": guild.channel("papers").id, "time": "09:00",
              "timezone": "Europe/Berlin", **options}
    handle = await standin.slash("digest set", values, guild=guild, user=people.bob)
    return (await handle.reply()).content


async def test_set_then_due_time_gives_one_post_and_one_thread(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        clock: FakeClock) -> None:
    clock.now = clock.now.replace(hour=7)  # 08:00 in Berlin
    reply = await _set(standin, guild, people)
    assert "every day at 09:00 Europe/Berlin" in reply
    assert "Next post: Mon 2026-11-30 09:00" in reply
    assert [o.status for o in await bot.services.digest_scheduler.tick()] == ["idle"]
    clock.advance(hours=1)  # 09:00 Berlin
    outcomes = await bot.services.digest_scheduler.tick()
    assert [o.status for o in outcomes] == ["posted"]
    papers = guild.channel("papers")
    (post,) = _posts(standin, papers)
    embed = post.embeds[0]
    assert "Paper of the day** · 1 of 30 in this cycle" in embed["description"]
    assert embed["footer"]["text"].endswith(" · 📅 2026-11-30")
    assert post.thread is not None and post.thread.name == fit(embed["title"], 100)
    assert not post.pings.everyone and not post.pings.users
    clock.advance(minutes=1)
    assert [o.status for o in await bot.services.digest_scheduler.tick()] == ["idle"]
    assert len(_posts(standin, papers)) == 1
    clock.advance(days=1)
    await bot.services.digest_scheduler.tick()
    second = _posts(standin, papers)
    assert len(second) == 2
    assert "2 of 30" in second[1].embeds[0]["description"]
    assert second[1].embeds[0]["title"] != embed["title"]


async def test_digest_now_twice_posts_once(bot: PaperclubBot, standin: StandIn, guild: Guild,
                                           people: People) -> None:
    await _set(standin, guild, people, thread=False)
    first = await standin.slash("digest now", guild=guild, user=people.bob)
    assert "Posted today's paper" in (await first.followup()).content
    second = await standin.slash("digest now", guild=guild, user=people.bob)
    assert "already out" in (await second.followup()).content
    (post,) = _posts(standin, guild.channel("papers"))
    assert post.thread is None
    await bot.services.digest_scheduler.tick()
    assert len(_posts(standin, guild.channel("papers"))) == 1
    await _set(standin, guild, people, thread=True)  # threads on later: no thread on old posts
    await bot.services.digest_scheduler.tick()
    assert standin.message(post.id).thread is None


async def test_members_without_manage_server_and_dms_are_refused(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    for command in ("digest set", "digest status", "digest now", "digest off",
                    "digest preview"):
        options: dict[str, OptionValue] = ({"channel": guild.channel("papers").id,
                                            "time": "09:00", "timezone": "UTC"}
                                           if command == "digest set" else {})
        denied = await standin.slash(command, options, guild=guild, user=people.alice)
        answer = await denied.reply()
        assert answer.ephemeral and "Manage Server" in answer.content, command
        from_dm = await standin.slash(command, options if command != "digest set" else {
            "channel": guild.channel("papers").id, "time": "09:00", "timezone": "UTC"},
            user=people.bob)
        assert "only in a server" in (await from_dm.reply()).content, command
    assert await bot.services.digest.config(guild.id) is None


@pytest.mark.parametrize(("time", "zone", "expected"), [
    ("25:00", "Europe/Berlin", "time"),
    ("09:00", "UTC+3", "UTC+3"),
    ("09:00", "Mars/Olympus", "zone"),
])
async def test_bad_time_or_zone_is_refused_with_a_hint(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, time: str,
        zone: str, expected: str) -> None:
    reply = await _set(standin, guild, people, time=time, timezone=zone)
    assert expected.lower() in reply.lower()
    assert await bot.services.digest.config(guild.id) is None


async def test_lower_case_zone_is_normalised_and_autocompleted(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    reply = await _set(standin, guild, people, timezone="europe/berlin")
    assert "Europe/Berlin" in reply
    choices = await standin.autocomplete(
        "digest set", {"channel": guild.channel("papers").id, "time": "09:00",
                       "timezone": "berl"}, focused="timezone", guild=guild, user=people.bob)
    assert choices[0]["value"] == "Europe/Berlin"


async def test_missing_channel_permission_is_named(bot: PaperclubBot, standin: StandIn,
                                                   people: People) -> None:
    deny = Overwrite.for_member(standin.bot_user,
                                deny=discord.Permissions(create_public_threads=True).value)
    locked = await standin.add_guild(Guild(
        "Locked Group", channels=[Channel("papers", overwrites=[deny])],
        members=[Member(people.bob, roles=[people.admin_role])]))
    await _until(lambda: bot.get_guild(locked.id) is not None)
    reply = await _set(standin, locked, people)
    assert "missing Create Public Threads" in reply
    assert await bot.services.digest.config(locked.id) is None


async def test_status_preview_and_off(bot: PaperclubBot, standin: StandIn, guild: Guild,
                                      people: People, clock: FakeClock) -> None:
    await _set(standin, guild, people)
    preview = await standin.slash("digest preview", guild=guild, user=people.bob)
    answer = await preview.reply()
    assert answer.ephemeral
    assert "Next paper of the day" in answer.embeds[0]["description"]
    await bot.services.digest_scheduler.tick()
    posted_title = _posts(standin, guild.channel("papers"))[0].embeds[0]["title"]
    assert posted_title == answer.embeds[0]["title"]
    status = await standin.slash("digest status", guild=guild, user=people.bob)
    (embed,) = (await status.reply()).embeds
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["State"] == "on" and "Europe/Berlin" in fields["Time"]
    assert "2026-12-01 09:00" in fields["Next post"]
    assert "2026-11-30 ✅ posted · 1 of 30" in fields["Recent"]
    off = await standin.slash("digest off", guild=guild, user=people.bob)
    assert "off" in (await off.reply()).content
    clock.advance(days=1)
    assert await bot.services.digest_scheduler.tick() == []
    assert len(_posts(standin, guild.channel("papers"))) == 1


@pytest.mark.parametrize(("hours_late", "posted"), [(2, True), (7, False)])
async def test_restart_after_the_due_time_inside_and_outside_grace(
        standin: StandIn, settings: Settings, guild: Guild, people: People, clock: FakeClock,
        hours_late: int, posted: bool) -> None:
    clock.now = clock.now.replace(hour=7)
    first = await start_paperclub(standin, settings, clock)
    await _set(standin, guild, people)
    await standin.stop_bot(first)
    clock.now = clock.now.replace(hour=8 + hours_late)  # the bot was down at 09:00 Berlin
    second = await start_paperclub(standin, settings, clock)
    ledger: list[object] = []

    async def handled() -> bool:
        ledger[:] = await _recent(second, guild.id)
        return bool(ledger) and getattr(ledger[0], "status", "") != "claimed"

    async with asyncio.timeout(5):
        while not await handled():
            await asyncio.sleep(0.01)
    posts = _posts(standin, guild.channel("papers"))
    if posted:
        (post,) = posts
        assert "Posted late" in post.embeds[0]["description"]
    else:
        assert posts == []
        (entry,) = await _recent(second, guild.id)
        assert entry.status == "skipped" and entry.reason is not None
        assert "offline" in render_reason(Lang.EN, entry.reason)
    await standin.stop_bot(second)


async def test_one_servers_failures_never_block_another(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        clock: FakeClock) -> None:
    others = []
    for name in ("Second Group", "Third Group"):
        other = await standin.add_guild(Guild(name, channels=["papers"],
                                              members=[Member(people.bob,
                                                              roles=[people.admin_role])]))
        others.append(other)
    await _until(lambda: all(bot.get_guild(o.id) for o in others))
    for server in (guild, *others):
        await _set(standin, server, people)
    second, third = others
    standin.fail("POST", f"/channels/{guild.channel('papers').id}/messages",
                 Fault.missing_permissions(), times=10)
    standin.fail("POST", f"/channels/{second.channel('papers').id}/messages",
                 Fault.unknown_channel(), times=10)
    outcomes = {o.guild_id: o for o in await bot.services.digest_scheduler.tick()}
    for server, code in ((guild, "50013"), (second, "10003")):
        outcome = outcomes[server.id]
        assert outcome.status == "failed" and outcome.reason is not None
        assert code in render_reason(Lang.EN, outcome.reason)
    assert outcomes[third.id].status == "posted"
    assert len(_posts(standin, third.channel("papers"))) == 1
    status = await standin.slash("digest status", guild=guild, user=people.bob)
    (embed,) = (await status.reply()).embeds
    assert "50013" in {f["name"]: f["value"] for f in embed["fields"]}["Recent"]
    for _ in range(2):
        clock.advance(days=1)
        await bot.services.digest_scheduler.tick()
    config = await bot.services.digest.config(guild.id)
    assert config is not None and config.paused_reason
    notice = await standin.slash("digest status", guild=guild, user=people.bob)
    assert "paused" in (await notice.reply()).content
    again = await standin.slash("digest status", guild=guild, user=people.bob)
    assert not (await again.reply()).content
    assert len(_posts(standin, third.channel("papers"))) == 3


async def test_429_and_502_on_the_post_give_exactly_one_message(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    await _set(standin, guild, people, thread=False)
    path = f"/channels/{guild.channel('papers').id}/messages"
    standin.fail("POST", path, Fault.rate_limited(retry_after=0.05))
    standin.fail("POST", path, Fault.server_error(502), after_processing=True)
    (outcome,) = await bot.services.digest_scheduler.tick()
    assert outcome.status == "posted"
    assert len(_posts(standin, guild.channel("papers"))) == 1
    assert len(standin.requests("POST", path)) == 3


async def test_a_failed_post_is_retried_by_digest_now_after_set(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    await _set(standin, guild, people, thread=False, channel=guild.channel("general").id)
    standin.fail("POST", f"/channels/{guild.channel('general').id}/messages",
                 Fault.unknown_channel(), times=10)
    failed = await standin.slash("digest now", guild=guild, user=people.bob)
    answer = (await failed.followup()).content
    assert "10003" in answer and "/digest set" in answer
    await _set(standin, guild, people, thread=False)  # #papers works
    retried = await standin.slash("digest now", guild=guild, user=people.bob)
    assert "Posted today's paper" in (await retried.followup()).content
    (post,) = _posts(standin, guild.channel("papers"))
    again = await standin.slash("digest now", guild=guild, user=people.bob)
    assert "already out" in (await again.followup()).content
    assert _posts(standin, guild.channel("papers")) == [post]
    (entry,) = await _recent(bot, guild.id)
    assert entry.status == "posted" and entry.message_id == post.id
    assert entry.reason is not None and "10003" not in render_reason(Lang.EN, entry.reason)


async def test_digest_now_while_off_says_so_and_posts_nothing(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    await _set(standin, guild, people)
    await (await standin.slash("digest off", guild=guild, user=people.bob)).reply()
    now = await standin.slash("digest now", guild=guild, user=people.bob)
    answer = await now.reply()
    assert answer.ephemeral and "off" in answer.content and "/digest set" in answer.content
    assert not _posts(standin, guild.channel("papers"))
    assert await _recent(bot, guild.id) == []


async def test_skip_discussed_leaves_out_what_the_group_discussed(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        clock: FakeClock) -> None:
    await _set(standin, guild, people)
    first = await bot.services.digest.preview(await _config(bot, guild))
    assert first is not None
    discussed, _ = first
    await bot.services.sessions.history.record_discussed(
        guild.id, discussed.id, clock.now, None, "", None)
    assert (await bot.services.digest.preview(await _config(bot, guild)) or first)[0] == discussed
    await _set(standin, guild, people, skip_discussed=True)
    status = await standin.slash("digest status", guild=guild, user=people.bob)
    (embed,) = (await status.reply()).embeds
    assert "skip discussed papers on" in {f["name"]: f["value"] for f in embed["fields"]}["Options"]
    shown = []
    for _ in range(30):  # a whole cycle of the 30 test papers, and into the next
        await bot.services.digest_scheduler.post_now(await _config(bot, guild))
        shown.append(_posts(standin, guild.channel("papers"))[-1].embeds[0]["title"])
        clock.advance(days=1)
    assert discussed.title_en not in " ".join(shown)
    assert len(set(shown)) == 29


async def _config(bot: PaperclubBot, guild: Guild) -> DigestConfig:
    config = await bot.services.digest.config(guild.id)
    assert config is not None
    return config


async def test_a_pause_note_whose_answer_was_lost_is_given_by_the_next_command_once(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        clock: FakeClock) -> None:
    digests = bot.services.digest.digests
    await digests.save_config(DigestConfig(guild.id, guild.channel("papers").id, "09:00", "UTC"))
    lease = Lease("elsewhere", clock() + timedelta(minutes=5))
    for day in range(1, 4):
        await digests.claim(guild.id, date(2026, 11, day), Claim(
            f"p{day}", 1, day, 3, f"n{day}", guild.channel("papers").id, late=False,
            lease=lease))
        await digests.mark_failed(guild.id, date(2026, 11, day), Reason(ReasonCode.NO_PERMISSION))
    gone = Fault.error(404, 10062, "Unknown interaction")
    standin.fail("POST", "/interactions/*/*/callback", gone, times=2)  # the answer and apology
    await standin.slash("digest status", guild=guild, user=people.bob)
    await _until(lambda: len(standin.requests("POST", "/callback")) >= 2)
    await asyncio.sleep(0.1)  # the failed command ends
    clock.advance(minutes=6)  # the lost answer's lease on the note ends
    notice = await standin.slash("digest status", guild=guild, user=people.bob)
    assert "is paused" in (await notice.reply()).content
    again = await standin.slash("digest status", guild=guild, user=people.bob)
    assert not (await again.reply()).content  # given once
