"""Guild scheduled events: Discord's validation, as a real discord.py client meets it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest

from discord_standin import Channel, ChannelType, Guild, StandIn
from tests.discord_standin.testbot import TestBot

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


@pytest.fixture
def guild() -> Guild:
    return Guild("Events", channels=["general", Channel("lounge", ChannelType.VOICE)])


@pytest.fixture
def fixed_clock(standin: StandIn) -> None:
    standin.set_clock(lambda: NOW)


def _guild(bot: TestBot, guild: Guild) -> discord.Guild:
    found = bot.get_guild(guild.id)
    assert found is not None
    return found


@pytest.mark.usefixtures("fixed_clock")
async def test_voice_and_external_events_are_created_edited_and_deleted(
        standin: StandIn, bot: TestBot, guild: Guild) -> None:
    server = _guild(bot, guild)
    start = NOW + timedelta(days=1)
    voice = await server.create_scheduled_event(
        name="Reading group", start_time=start, entity_type=discord.EntityType.voice,
        channel=discord.Object(id=guild.channel("lounge").id),
        privacy_level=discord.PrivacyLevel.guild_only)
    external = await server.create_scheduled_event(
        name="Reading group", start_time=start, end_time=start + timedelta(hours=1),
        entity_type=discord.EntityType.external, location="https://example.org",
        privacy_level=discord.PrivacyLevel.guild_only)
    assert voice.channel_id == guild.channel("lounge").id and external.location
    later = start + timedelta(hours=2)
    await bot.http.edit_scheduled_event(guild.id, external.id,
                                        scheduled_start_time=later.isoformat(),
                                        scheduled_end_time=(later + timedelta(hours=1)).isoformat())
    assert [e["scheduled_start_time"] for e in standin.scheduled_events(guild)][1] == \
        later.isoformat()
    await bot.http.delete_scheduled_event(guild.id, voice.id)
    with pytest.raises(discord.NotFound) as gone:
        await bot.http.delete_scheduled_event(guild.id, voice.id)
    assert gone.value.code == 10070
    assert len(standin.scheduled_events(guild)) == 1


@pytest.mark.usefixtures("fixed_clock")
async def test_discord_refuses_what_it_refuses(standin: StandIn, bot: TestBot,
                                               guild: Guild) -> None:
    server = _guild(bot, guild)
    cases = [
        dict(name="past", start_time=NOW - timedelta(minutes=1),
             entity_type=discord.EntityType.external, location="x",
             end_time=NOW + timedelta(hours=1)),
        dict(name="x" * 101, start_time=NOW + timedelta(hours=1),
             entity_type=discord.EntityType.external, location="x",
             end_time=NOW + timedelta(hours=2)),
        dict(name="text channel", start_time=NOW + timedelta(hours=1),
             entity_type=discord.EntityType.voice,
             channel=discord.Object(id=guild.channel("general").id)),
        dict(name="ends first", start_time=NOW + timedelta(hours=2),
             entity_type=discord.EntityType.external, location="x",
             end_time=NOW + timedelta(hours=1)),
    ]
    for case in cases:
        with pytest.raises(discord.HTTPException) as refused:
            await server.create_scheduled_event(
                privacy_level=discord.PrivacyLevel.guild_only, **case)  # type: ignore[call-overload]
        assert (refused.value.status, refused.value.code) == (400, 50035), case["name"]
    no_end: dict[str, Any] = {"name": "no end", "privacy_level": 2, "entity_type": 3,
              "entity_metadata": {"location": "x"},
              "scheduled_start_time": (NOW + timedelta(hours=1)).isoformat()}
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.create_guild_scheduled_event(guild.id, **no_end)
    assert refused.value.code == 50035
    assert standin.scheduled_events(guild) == []


async def test_events_need_the_manage_events_permission(guild: Guild) -> None:
    async with StandIn(guilds=[guild], token="x", bot_permissions=0) as server:
        server.set_clock(lambda: NOW)
        test_bot = TestBot(guild_id=guild.id)
        await server.start_bot(test_bot, token="x")
        try:
            with pytest.raises(discord.Forbidden) as refused:
                await _guild(test_bot, guild).create_scheduled_event(
                    name="n", start_time=NOW + timedelta(hours=1),
                    entity_type=discord.EntityType.external, location="x",
                    end_time=NOW + timedelta(hours=2),
                    privacy_level=discord.PrivacyLevel.guild_only)
            assert refused.value.code == 50013
        finally:
            await server.stop_bot(test_bot)
