"""StandIn itself: a bot logs in and syncs; one stand-in owns discord.py at a time."""

from __future__ import annotations

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from discord_standin import Guild, StandIn
from tests.discord_standin.testbot import TestBot


async def test_connects_logs_in_and_syncs(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    assert bot.user is not None and bot.user.id == standin.bot_user.id
    assert bot.application_id == standin.application_id
    [seen] = bot.guilds
    assert seen.id == guild.id and seen.name == "Reading Group"
    assert {c.name for c in seen.text_channels} == {"general", "papers"}
    names = {c["name"] for c in standin.commands()}
    assert names == set(
        "echo counter announce ask slow poke whereami settings feedback paper steps upload".split()
    )
    assert [c["name"] for c in standin.commands(guild)] == ["club_only"]
    global_sync, guild_sync = standin.requests("PUT", "/commands")
    assert global_sync.headers["Authorization"] == "Bot x"
    assert guild_sync.path == f"/applications/{standin.application_id}/guilds/{guild.id}/commands"
    assert [r.path for r in standin.requests()][:2] == ["/users/@me", "/oauth2/applications/@me"]
    assert standin.gateway_stats.identifies == 1
    assert standin.unknown_requests == []


async def test_one_standin_at_a_time_and_endpoints_are_restored() -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    async with StandIn() as standin:
        assert standin.rest_base == Route.BASE
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == standin.gateway_url
        with pytest.raises(RuntimeError, match="another StandIn"):
            async with StandIn():
                pass
        assert standin.rest_base == Route.BASE
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_forget_history_keeps_only_the_last_interactions(
        standin: StandIn, bot: TestBot, guild: Guild) -> None:
    handles = []
    for n in range(3):
        handle = await standin.slash("echo", {"text": f"hello {n}"}, guild=guild)
        await handle.response()
        handles.append(handle)
    standin.forget_history(keep=1)
    assert [h.message is None for h in handles] == [True, True, False]
    assert standin.requests() == []
    again = await standin.slash("echo", {"text": "still answering"}, guild=guild)
    assert "still answering" in (await again.reply()).content
