"""Start-up and shutdown: command sync skipped when unchanged, resources released on close."""

from __future__ import annotations

import asyncio
import gc
import threading

import pytest

from bot.settings import Settings
from bot.shared import heap
from bot.wiring import build_bot
from discord_standin import StandIn


def _command_puts(standin: StandIn) -> int:
    return len([r for r in standin.requests("PUT") if r.path.endswith("/commands")])


async def test_sync_is_skipped_when_the_commands_did_not_change(standin: StandIn,
                                                                 settings: Settings) -> None:
    first = await build_bot(settings, guild_ready_timeout=0.05)
    await standin.start_bot(first)
    await standin.stop_bot(first)
    assert _command_puts(standin) == 1
    second = await build_bot(settings, guild_ready_timeout=0.05)
    await standin.start_bot(second)
    await standin.stop_bot(second)
    assert _command_puts(standin) == 1
    assert {c["name"] for c in standin.commands()} >= {"paper", "catalog"}


async def test_close_releases_the_database_threads(standin: StandIn, settings: Settings) -> None:
    before = {t.ident for t in threading.enumerate()}
    bot = await build_bot(settings, guild_ready_timeout=0.05)
    await standin.start_bot(bot)
    handle = await standin.slash("paper", {"query": "grokking"}, guild=standin.world.guilds[
        next(iter(standin.world.guilds))])
    await handle.response()
    await standin.stop_bot(bot)
    await asyncio.sleep(0.05)
    # The event loop's own executor threads (asyncio_N) belong to the loop, not to the bot.
    extra = [t for t in threading.enumerate() if t.ident not in before and t.is_alive()
             and not t.name.startswith("asyncio_")]
    assert extra == []


async def test_the_start_up_heap_is_frozen_and_given_back_on_close(
        standin: StandIn, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "enabled", True)
    bot = await build_bot(settings, guild_ready_timeout=0.05)
    await standin.start_bot(bot)
    try:
        await asyncio.wait_for(bot.background.wait(), 10)  # the vocabulary, then the freeze
        assert gc.get_freeze_count() > 0
        handle = await standin.slash("paper", {"query": "grokking"}, guild=standin.world.guilds[
            next(iter(standin.world.guilds))])
        await handle.response()
    finally:
        await standin.stop_bot(bot)
    assert gc.get_freeze_count() == 0
