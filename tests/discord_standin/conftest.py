"""Fixtures: a guild with three people, a running stand-in, the test bot connected to it, and a
plain HTTP session for speaking the wire protocol directly."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from discord_standin import Guild, Member, Role, StandIn, User
from tests.discord_standin.testbot import People, TestBot


@pytest.fixture
def people() -> People:
    admin = Role("admins", permissions=discord.Permissions(manage_guild=True).value)
    return People(User("alice"), User("bob"), User("carol", dms_open=False), admin)


@pytest.fixture
def guild(people: People) -> Guild:
    return Guild(
        "Reading Group",
        channels=["general", "papers"],
        members=[people.alice, Member(people.bob, roles=[people.admin_role]), people.carol],
    )


@pytest.fixture
async def standin(guild: Guild) -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[guild], token="x") as server:
        yield server
        assert server.internal_errors == []
    leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    assert leftover == [], f"tasks left running: {leftover}"


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
