"""Helpers for end-to-end tests: starting the real bot in the stand-in, alone or as one of
several processes sharing a database."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client.bot import PaperclubBot
from bot.features.adding.arxiv_port import ArxivSource
from bot.settings import Settings
from bot.wiring import build_bot
from discord_standin import StandIn
from tests.clocks import FakeClock, Ticker
from tests.group import People

IDENTIFY_SPACING = 5.0
"""Discord's interval between two IDENTIFYs of one concurrency bucket."""


def e2e_environment(tmp_path: Path, people: People) -> dict[str, str]:
    """A test bot's settings as variables: its own database, global sync, bob as an owner; arXiv
    on a local port nothing listens on, asked once (tests that add papers use the stand-in)."""
    return {
        "PAPERCLUB_DATABASE__PATH": str(tmp_path / "e2e.db"),
        "PAPERCLUB_DISCORD__SYNC": "global",
        "PAPERCLUB_DISCORD__OWNER_IDS": f"[{people.bob.id}]",
        "PAPERCLUB_DIGEST__TICK_SECONDS": "3600",
        "PAPERCLUB_SUBSCRIPTIONS__DM_PER_SECOND": "50",
        "PAPERCLUB_ARXIV__API_BASE": "http://127.0.0.1:9/api/query",
        "PAPERCLUB_ARXIV__MAX_RETRIES": "0",
    }


async def start_paperclub(standin: StandIn, settings: Settings, clock: FakeClock, *,
                          arxiv: ArxivSource | None = None) -> PaperclubBot:
    """Build the bot on the fake clock (and `arxiv`'s client, if given) and connect it to the
    stand-in."""
    paperclub = await build_bot(settings, clock=clock, arxiv=arxiv, guild_ready_timeout=0.05)
    await standin.start_bot(paperclub)
    await asyncio.wait_for(paperclub.caught_up.wait(), 10)
    return paperclub


async def start_claim_owner(standin: StandIn, settings: Settings, clock: FakeClock,
                            owner: str) -> PaperclubBot:
    """One paperclub process (named `owner` in its claims) on the shared database; its
    IDENTIFY comes Discord's 5 s after the last one (the stand-in's clock, a `Ticker`, is moved
    by hand). It has caught up and finished its start's background work (the feeds' catch-up,
    which would otherwise race a test's own claims); a process that does not is stopped before
    the failure is raised."""
    paperclub = await build_bot(settings, clock=clock, claim_owner=owner,
                                guild_ready_timeout=0.05)
    ticker = standin.world.clock
    assert isinstance(ticker, Ticker)
    ticker.advance(IDENTIFY_SPACING)
    await standin.start_bot(paperclub)
    try:
        await asyncio.wait_for(paperclub.caught_up.wait(), 10)
        await asyncio.wait_for(paperclub.background.wait(), 10)
    except BaseException:
        await standin.stop_bot(paperclub)
        raise
    return paperclub
