"""A catalog of papers on an in-memory SQLite database, the stand-in, and workers on both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.features.summaries.llm_client import LlmClient
from bot.features.summaries.store import SummaryStore
from bot.features.summaries.worker import SummaryWorker
from bot.settings_llm import LlmSettings
from domain.paper import Paper
from llm_standin import LlmStandIn
from storage import backend as stores
from storage.sqlite.database import Database
from tests.clocks import FakeClock

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)


def english_paper(n: int, abstract: str = "") -> Paper:
    """An arXiv-style paper: English abstract, no Chinese summary."""
    return Paper(title_en=f"Paper number {n} on sparse attention", title_zh="",
                 authors=(f"Author {n}",),
                 summary_en=abstract or f"We study attention sparsity, case {n}, on benchmarks.")


def chinese_paper(n: int) -> Paper:
    """A listing paper: Chinese AI summary, no English abstract."""
    return Paper(title_en=f"Listing paper {n} about graph learning", title_zh=f"图学习论文 {n}",
                 authors=(f"作者 {n}",), summary_zh=f"本文研究图学习问题 {n}，提出新方法。")


@pytest.fixture
async def llm() -> AsyncIterator[LlmStandIn]:
    async with LlmStandIn() as standin:
        yield standin


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


def settings_for(llm: LlmStandIn, **more: object) -> LlmSettings:
    values: dict[str, object] = {"enabled": True, "base_url": llm.base_url, "model": "standin-1",
                                 "requests_per_minute": 10_000, "concurrency": 4,
                                 "timeout_seconds": 5.0, "daily_token_budget": 10_000_000,
                                 **more}
    return LlmSettings.model_validate(values, strict=False)


def summary_store(db: Database) -> SummaryStore:
    return stores.SUMMARIES.open(db)


def worker(db: Database, client: LlmClient, settings: LlmSettings, owner: str,
           clock: FakeClock) -> SummaryWorker:
    return SummaryWorker(summary_store(db), client, settings, owner=owner, clock=clock)


async def add(db: Database, papers: list[Paper]) -> None:
    await stores.PAPERS.open(db).add_papers(papers)
