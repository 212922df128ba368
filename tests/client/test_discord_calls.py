"""How long one Discord call may take: the bound the leases are checked against is discord.py's
own retry schedule, measured here against the stand-in, and the bot cuts a call at it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from unittest import mock

import discord
import pytest

from bot.client.endpoints import BoundedHTTPClient, bound_calls
from bot.settings import DISCORD_BACKOFF_SECONDS, DISCORD_CALL_SECONDS, DISCORD_TRIES
from discord_standin import Fault, Guild, StandIn

GUILD = Guild("G", channels=["papers"])


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[GUILD]) as server:
        yield server


async def _client() -> discord.Client:
    client = discord.Client(intents=discord.Intents.none())
    await client.login("standin-token")
    return client


async def test_the_backoff_is_discord_py_s_own(standin: StandIn) -> None:
    """A request Discord answers with 500 every time: discord.py tries DISCORD_TRIES times and
    sleeps DISCORD_BACKOFF_SECONDS in all before it gives up."""
    client = await _client()
    channel = GUILD.channel("papers")
    standin.fail("POST", f"/channels/{channel.id}/messages", Fault.server_error(500), times=99)
    slept: list[float] = []

    async def no_wait(seconds: float) -> None:
        slept.append(seconds)

    try:
        with mock.patch("discord.http.asyncio.sleep", no_wait), \
                pytest.raises(discord.DiscordServerError):
            await client.get_partial_messageable(channel.id).send("hello")
    finally:
        await client.close()
    tries = standin.requests("POST", f"/channels/{channel.id}/messages")
    assert len(tries) == DISCORD_TRIES
    assert sum(slept) == DISCORD_BACKOFF_SECONDS
    assert DISCORD_CALL_SECONDS == DISCORD_BACKOFF_SECONDS + DISCORD_TRIES


async def test_a_call_discord_holds_is_cut_at_the_bound(standin: StandIn) -> None:
    client = await _client()
    bound_calls(client.http, 0.3)
    assert isinstance(client.http, BoundedHTTPClient)
    channel = GUILD.channel("papers")
    stall = standin.stall("POST", f"/channels/{channel.id}/messages")
    started = time.monotonic()
    try:
        with pytest.raises(TimeoutError):
            await client.get_partial_messageable(channel.id).send("hello")
        assert time.monotonic() - started < 2
        await asyncio.wait_for(stall.reached.wait(), 1)
    finally:
        stall.release()
        await client.close()
