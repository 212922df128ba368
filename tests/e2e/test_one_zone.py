"""One time zone rule: the group's zone (`/group timezone`), when set, is the zone of its
sessions everywhere; the paper of the day's zone is the paper of the day's alone."""

from __future__ import annotations

from datetime import datetime

from bot.client.bot import PaperclubBot
from bot.shared.lang import Lang
from discord_standin import Guild, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.group import People


async def _say(standin: StandIn, guild: Guild, people: People, command: str,
               values: dict[str, object]) -> str:
    handle = await standin.slash(command, values, guild=guild,  # type: ignore[arg-type]
                                 user=people.bob)
    return (await handle.reply()).content


async def test_the_group_zone_stays_the_sessions_zone_after_a_digest_in_another(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], clock: FakeClock) -> None:
    standin.set_clock(clock)
    set_zone: dict[str, object] = {"timezone": "Europe/Berlin"}
    assert (await _say(standin, guild, people, "group timezone", set_zone)
            == "Sessions use the time zone Europe/Berlin.")
    digest = await _say(standin, guild, people, "digest set", {
        "channel": guild.channel("papers").id, "time": "09:00", "timezone": "Asia/Shanghai"})
    assert "Asia/Shanghai" in digest
    assert (await bot.services.group.zone(guild.id)).key == "Europe/Berlin"
    again = await _say(standin, guild, people, "group timezone", set_zone)
    assert again == ("Sessions use the time zone Europe/Berlin.\n"
                     "The paper of the day keeps its own time zone (Asia/Shanghai).")
    handle = await standin.slash("session schedule", {
        "paper": bundled_papers[0].id, "when": "2026-12-03 18:00"}, guild=guild,
        user=people.bob)
    assert "2026-12-03 18:00 Europe/Berlin" in (await handle.followup()).content
    (event,) = standin.scheduled_events(guild)
    assert datetime.fromisoformat(event["scheduled_start_time"]) == datetime.fromisoformat(
        "2026-12-03T17:00:00+00:00")
    feed = await bot.services.calendar.feed(guild.id, server_name="Reading Group",
                                         lang=Lang.EN)
    assert b"TZID=Europe/Berlin:20261203T180000" in feed


async def test_without_a_zone_of_its_own_the_group_follows_the_paper_of_the_day(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    assert (await bot.services.group.zone(guild.id)).key == "UTC"
    await _say(standin, guild, people, "digest set", {
        "channel": guild.channel("papers").id, "time": "09:00", "timezone": "Asia/Shanghai"})
    assert (await bot.services.group.zone(guild.id)).key == "Asia/Shanghai"
