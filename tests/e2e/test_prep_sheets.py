"""Prep sheets end to end: the real bot with `[llm]` on the chat-completions stand-in posts a
session's discussion questions once in its thread, labelled, pinging nobody; `/group
prep-sheets` turns them off and on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client.bot import PaperclubBot
from bot.settings import load_settings
from discord_standin import Guild, Message, StandIn
from domain.paper import Paper
from llm_standin import LlmStandIn
from tests.clocks import FakeClock
from tests.e2e.harness import e2e_environment, start_paperclub
from tests.group import People


@pytest.fixture
async def preparing(standin: StandIn, tmp_path: Path, people: People,
                    clock: FakeClock) -> AsyncIterator[tuple[PaperclubBot, LlmStandIn]]:
    standin.set_clock(clock)
    async with LlmStandIn() as llm:
        env = {**e2e_environment(tmp_path, people), "PAPERCLUB_LLM__ENABLED": "true",
               "PAPERCLUB_LLM__BASE_URL": llm.base_url, "PAPERCLUB_LLM__MODEL": "standin-1",
               "PAPERCLUB_LLM__POLL_SECONDS": "86400",
               "PAPERCLUB_LLM__REQUESTS_PER_MINUTE": "10000"}
        paperclub = await start_paperclub(standin, load_settings(None, env), clock)
        yield paperclub, llm
        await standin.stop_bot(paperclub)


def _sheets(standin: StandIn, guild: Guild) -> list[Message]:
    (announcement,) = [m for m in standin.messages(guild.channel("general")) if m.embeds]
    assert announcement.thread is not None
    return [m for m in standin.messages(announcement.thread)
            if m.embeds and m.embeds[0].get("title") == "📝 Questions to prepare"]


async def test_a_session_gets_its_sheet_once_and_organisers_can_turn_it_off(
        preparing: tuple[PaperclubBot, LlmStandIn], standin: StandIn, guild: Guild,
        people: People, bundled_papers: list[Paper]) -> None:
    paperclub, llm = preparing
    off = await standin.slash("group prep-sheets", {"enabled": False}, guild=guild,
                              user=people.bob)
    assert (await off.reply()).content == "Sessions get no prep sheet."
    paper = bundled_papers[0]
    scheduled = await standin.slash("session schedule", {"paper": paper.id,
                                                         "when": "2026-12-01 04:00"},
                                    guild=guild, user=people.bob)  # 20 h ahead: due now
    assert "Scheduled session #1" in (await scheduled.followup()).content

    async def turn() -> None:
        await paperclub.digest_tick()
        await paperclub.background.wait()

    await turn()
    assert _sheets(standin, guild) == []
    assert not any("discussion questions" in r.user for r in llm.requests)
    on = await standin.slash("group prep-sheets", {"enabled": True}, guild=guild,
                             user=people.bob)
    assert (await on.reply()).content.startswith("Each session gets a prep sheet")
    await turn()
    await turn()
    (sheet,) = _sheets(standin, guild)
    embed = sheet.embeds[0]
    assert embed["footer"]["text"] == "AI-generated · standin-1 · not checked · 📝 #1"
    assert embed["description"].count("?") == 4 and "\n1. " in embed["description"]
    assert not sheet.pings.everyone and not sheet.pings.roles and not sheet.pings.users
