"""Helpers for end-to-end tests: a settable clock and starting the real bot in the stand-in."""

from __future__ import annotations

import asyncio

from bot.client.bot import PaperclubBot
from bot.services.arxiv_port import ArxivSource
from bot.settings import Settings
from bot.wiring import build_bot
from discord_standin import StandIn
from tests.clocks import FakeClock


async def start_paperclub(standin: StandIn, settings: Settings, clock: FakeClock, *,
                          arxiv: ArxivSource | None = None) -> PaperclubBot:
    """Build the bot on the fake clock (and `arxiv`'s client, if given) and connect it to the
    stand-in."""
    paperclub = await build_bot(settings, clock=clock, arxiv=arxiv, guild_ready_timeout=0.05)
    await standin.start_bot(paperclub)
    await asyncio.wait_for(paperclub.caught_up.wait(), 10)
    return paperclub
