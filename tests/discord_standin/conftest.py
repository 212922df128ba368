"""Fixtures: a guild with three people, a running stand-in, the test bot connected to it, and a
plain HTTP session for speaking the wire protocol directly."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from discord_standin import Guild, StandIn
from tests.discord_standin.testbot import TestBot
from tests.group import assert_no_tasks_left


@pytest.fixture
async def standin(guild: Guild) -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[guild], token="x") as server:
        yield server
        assert server.internal_errors == []
    assert_no_tasks_left()


@pytest.fixture
async def bot(standin: StandIn, guild: Guild) -> AsyncIterator[TestBot]:
    test_bot = TestBot(guild_id=guild.id)
    await standin.start_bot(test_bot, token="x")
    yield test_bot
    await standin.stop_bot(test_bot)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session
