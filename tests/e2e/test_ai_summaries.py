"""AI summaries end to end: the real bot with `[llm]` pointing at the chat-completions stand-in
summarises the catalog in the background; `/paper` shows a generated summary labelled as such;
a paper added (as `/add` and feeds add them) reaches a Chinese reader within one pass; only the
owner sees the figures in `/catalog stats`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.client.bot import PaperclubBot
from bot.settings import load_settings
from discord_standin import Guild, StandIn
from domain.paper import Paper
from llm_standin import LlmStandIn
from tests.clocks import FakeClock
from tests.e2e.harness import e2e_environment, start_paperclub
from tests.group import People


@pytest.fixture
async def llm() -> AsyncIterator[LlmStandIn]:
    async with LlmStandIn() as standin:
        yield standin


@pytest.fixture
async def summarising(standin: StandIn, llm: LlmStandIn, tmp_path: Path, people: People,
                      clock: FakeClock) -> AsyncIterator[PaperclubBot]:
    env = {**e2e_environment(tmp_path, people), "PAPERCLUB_LLM__ENABLED": "true",
           "PAPERCLUB_LLM__BASE_URL": llm.base_url, "PAPERCLUB_LLM__MODEL": "standin-1",
           "PAPERCLUB_LLM__REQUESTS_PER_MINUTE": "10000", "PAPERCLUB_LLM__CONCURRENCY": "4"}
    paperclub = await start_paperclub(standin, load_settings(None, env), clock)
    yield paperclub
    await standin.stop_bot(paperclub)


async def _until(condition: Callable[[], Awaitable[bool]], seconds: float = 20.0) -> None:
    async def wait() -> None:
        while not await condition():
            await asyncio.sleep(0.05)
    await asyncio.wait_for(wait(), seconds)


async def test_summaries_are_made_in_the_background_and_shown_labelled(
        summarising: PaperclubBot, standin: StandIn, llm: LlmStandIn, guild: Guild,
        people: People) -> None:
    summaries = summarising.services.summaries
    assert summaries is not None

    async def all_english_made() -> bool:
        english = (await summaries.figures()).coverage[0]
        return english.wanted > 0 and english.done == english.wanted

    await _until(all_english_made)
    handle = await standin.slash("paper", {"query": "grokking"}, guild=guild, user=people.alice)
    (embed,) = (await handle.reply()).embeds
    assert "**AI summary · standin-1 · not checked**" in embed["description"]

    arxiv_paper = Paper(title_en="Sparse attention for long graphs", title_zh="",
                        authors=("Ada Lovelace",),
                        summary_en="We study sparse attention on long graphs and report gains.")
    asked = len(llm.requests)
    await summarising.services.catalog.add_papers([arxiv_paper])

    async def chinese_made() -> bool:
        return any(r.language == "zh-CN" for r in llm.requests[asked:]) and bool(
            (await summaries.figures()).coverage[1].done)

    await _until(chinese_made)
    handle = await standin.slash("paper", {"query": "sparse attention long graphs"}, guild=guild,
                                 user=people.alice, locale="zh-CN")
    (embed,) = (await handle.reply()).embeds
    assert "AI 总结 · standin-1 · 未经核对" in embed["description"]

    owner = await standin.slash("catalog stats", {}, guild=guild, user=people.bob)
    member = await standin.slash("catalog stats", {}, guild=guild, user=people.alice)
    (owners,) = (await owner.reply()).embeds
    (members,) = (await member.reply()).embeds
    field = {f["name"]: f["value"] for f in owners["fields"]}
    assert "Tokens today: " in field["AI summaries (only the owner sees this)"]
    assert "zh-CN: 1 of 1 made, 0 failed" in field["AI summaries (only the owner sees this)"]
    assert not any("AI summaries" in f["name"] for f in members["fields"])
