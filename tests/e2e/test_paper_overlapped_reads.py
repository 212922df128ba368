"""`/paper`'s search starts while the exact-title check runs (and is dropped when the text is a
title): each read waits for a database thread, so overlapping them shortens the answer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.client.bot import PaperclubBot
from bot.features.papers.lookup import names_by_identifier
from bot.features.papers.search import FirstAnswer
from discord_standin import Guild, StandIn
from domain.paper import Paper
from tests.group import People

GROKKING = "To Grok Grokking: Provable Grokking in Ridge Regression"


def _search_waits_for_title_check(bot: PaperclubBot, monkeypatch: pytest.MonkeyPatch,
                                  started: list[str]) -> None:
    """The title check (`SearchService.paper`) finishes only once the search has started:
    run one after the other, the lookup would never be answered."""
    search = bot.services.search
    searching = asyncio.Event()
    by_id, run = search.paper, search.search_first

    async def paper(public_id: str, guild_id: int | None = None) -> Paper | None:
        await asyncio.wait_for(searching.wait(), timeout=10)
        started.append("title check")
        return await by_id(public_id, guild_id)

    async def searched(*args: Any, **kwargs: Any) -> FirstAnswer:
        searching.set()
        started.append("search")
        return await run(*args, **kwargs)

    monkeypatch.setattr(search, "paper", paper)
    monkeypatch.setattr(search, "search_first", searched)


async def test_the_search_runs_while_the_title_is_checked(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    _search_waits_for_title_check(bot, monkeypatch, started)
    handle = await standin.slash("paper", {"query": "learning"}, guild=guild, user=people.alice)
    callback = await handle.response(timeout=8)
    assert started == ["search", "title check"]
    assert "papers match" in callback.embeds[0]["title"]


async def test_an_exact_title_still_answers_with_its_card_and_drops_the_search(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    _search_waits_for_title_check(bot, monkeypatch, started)
    handle = await standin.slash("paper", {"query": GROKKING}, guild=guild, user=people.alice)
    (embed,) = (await handle.reply(timeout=8)).embeds
    assert embed["title"] == GROKKING and started[-1] == "title check"


def test_identifiers_are_told_apart_without_a_read() -> None:
    assert names_by_identifier("2401.01234v2") and names_by_identifier("arXiv: math/0309136")
    assert names_by_identifier("doi:10.1000/xyz") and names_by_identifier("0123456789abcdef")
    assert not names_by_identifier(GROKKING) and not names_by_identifier("grokking")
