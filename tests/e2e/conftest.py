"""End-to-end fixtures: the real paperclub bot connected to the local Discord stand-in."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

from bot.client.bot import PaperclubBot
from bot.settings import Settings, load_settings
from bot.wiring import build_bot
from discord_standin import Guild, Member, Role, StandIn, User


@dataclass
class People:
    """A reading group: a member, an admin who owns the bot, an outsider, a DM-closed user."""

    alice: User
    bob: User
    carol: User
    admin_role: Role


@pytest.fixture
def people() -> People:
    admin = Role("admins", permissions=discord.Permissions(manage_guild=True).value)
    return People(User("alice"), User("bob"), User("carol", dms_open=False), admin)


@pytest.fixture
def guild(people: People) -> Guild:
    return Guild("Reading Group", channels=["general", "papers"],
                 members=[people.alice, Member(people.bob, roles=[people.admin_role]),
                          people.carol])


@pytest.fixture
def settings(tmp_path: Path, people: People) -> Settings:
    """Settings for a test bot: its own database, global sync, bob as an owner."""
    return load_settings(None, {
        "PAPERCLUB_DATABASE__PATH": str(tmp_path / "e2e.db"),
        "PAPERCLUB_DISCORD__SYNC": "global",
        "PAPERCLUB_DISCORD__OWNER_IDS": f"[{people.bob.id}]",
        "PAPERCLUB_DIGEST__TICK_SECONDS": "3600",
        "PAPERCLUB_SUBSCRIPTIONS__DM_PER_SECOND": "50",
    })


@pytest.fixture
async def standin(guild: Guild) -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[guild]) as server:
        yield server
        assert server.internal_errors == []
        assert server.unknown_requests == []
    leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    owners = [t.get_coro().cr_frame.f_locals.get("self") for t in leftover]  # type: ignore[union-attr]
    assert leftover == [], f"tasks left running: {leftover} {owners}"


class FakeClock:
    """A settable clock for the digest: tests move time instead of waiting for it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    """08:00 UTC on 2026-11-30 (09:00 in Berlin)."""
    return FakeClock(datetime(2026, 11, 30, 8, 0, tzinfo=UTC))


async def start_paperclub(standin: StandIn, settings: Settings,
                          clock: FakeClock) -> PaperclubBot:
    """Build the bot on the fake clock and connect it to the stand-in."""
    paperclub = await build_bot(settings, clock=clock, guild_ready_timeout=0.05)
    await standin.start_bot(paperclub)
    await asyncio.wait_for(paperclub.caught_up.wait(), 10)
    return paperclub


@pytest.fixture
async def bot(standin: StandIn, settings: Settings,
              clock: FakeClock) -> AsyncIterator[PaperclubBot]:
    """paperclub with the bundled catalog, ready in the stand-in."""
    paperclub = await start_paperclub(standin, settings, clock)
    yield paperclub
    await standin.stop_bot(paperclub)
