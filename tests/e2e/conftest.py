"""End-to-end fixtures: the real paperclub bot connected to the local Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from arxiv_standin import ArxivStandIn
from bot.client.bot import PaperclubBot
from bot.features.adding.arxiv_client import ArxivClient
from bot.settings import Settings, load_settings
from discord_standin import Guild, StandIn
from tests.clocks import FakeClock, SleepTime
from tests.e2e.harness import e2e_environment, start_paperclub
from tests.group import People, assert_no_tasks_left


@pytest.fixture
def settings(tmp_path: Path, people: People) -> Settings:
    """Settings for a test bot (`e2e_environment`)."""
    return load_settings(None, e2e_environment(tmp_path, people))


@pytest.fixture
async def standin(guild: Guild) -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[guild]) as server:
        yield server
        assert server.internal_errors == []
        assert server.unknown_requests == []
    assert_no_tasks_left()


@pytest.fixture
def clock() -> FakeClock:
    """08:00 UTC on 2026-11-30 (09:00 in Berlin)."""
    return FakeClock(datetime(2026, 11, 30, 8, 0, tzinfo=UTC))


@pytest.fixture
def arxiv_time() -> SleepTime:
    """The arXiv client's and the arXiv stand-in's seconds."""
    return SleepTime()


@pytest.fixture
async def arxiv(arxiv_time: SleepTime) -> AsyncIterator[ArxivStandIn]:
    """The local arXiv, serving the project's fixtures."""
    async with ArxivStandIn(clock=arxiv_time.clock, sleep=arxiv_time.sleep) as server:
        yield server


@pytest.fixture
async def bot(standin: StandIn, settings: Settings, clock: FakeClock, arxiv: ArxivStandIn,
              arxiv_time: SleepTime) -> AsyncIterator[PaperclubBot]:
    """paperclub with the bundled catalog, ready in the stand-in, asking the arXiv stand-in
    (retrying twice, on the fake seconds)."""
    client = ArxivClient(arxiv.api_base, clock=arxiv_time.clock, sleep=arxiv_time.sleep,
                         jitter=lambda: 0.0, max_retries=2)
    paperclub = await start_paperclub(standin, settings, clock, arxiv=client)
    yield paperclub
    await standin.stop_bot(paperclub)
