"""Search by meaning through Discord: `/catalog stats` tells how far the catalog is embedded,
and `/paper` answers by the words at once, then edits that answer once to add the papers close
in meaning, marked (a tiny deterministic encoder in a thread stands in for the bundled model
and its worker process)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.client.bot import PaperclubBot
from bot.features.meaning.keeper import Cut, MeaningKeeper
from bot.features.papers.answer import FIRST_ANSWER
from bot.features.papers.cog import FIRST_SEARCH
from bot.features.papers.query import parse_query
from bot.features.papers.results_view import ResultList
from bot.features.papers.search import MEANING_ROOM
from discord_standin import Fault, Guild, InteractionHandle, Message, RecordedRequest, StandIn
from tests.features.meaning.tiny import MemoryEmbeddings, TrigramEncoder
from tests.group import People


@pytest.fixture
async def meaning(bot: PaperclubBot) -> AsyncIterator[MeaningKeeper]:
    search = bot.services.search
    with ThreadPoolExecutor(1) as pool:
        keeper = MeaningKeeper(search._store, MemoryEmbeddings(), TrigramEncoder("tiny-e2e"),
                               cut=Cut(0.1, 0.1), executor=pool)  # trigrams score lower
        search.meaning = keeper
        await search.prepare()
        await keeper.built()
        await keeper.query_vector("warm up", wait=True)
        yield keeper
        search.meaning = None
        await keeper.close()


async def test_catalog_stats_tells_how_far_search_by_meaning_is(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    handle = await standin.slash("catalog stats", guild=guild)
    (embed,) = (await handle.reply()).embeds
    assert "Search by meaning: 30 of 30 papers embedded." in embed["description"]


def _edits(standin: StandIn, handle: InteractionHandle) -> list[RecordedRequest]:
    """The edits of the answer's message through its interaction's token."""
    return [r for r in standin.requests("PATCH", f"/{handle.token}/messages/")]


async def _settled(bot: PaperclubBot, standin: StandIn) -> None:
    """Until the step by meaning (run in the background) and its requests are done."""
    await bot.background.wait()
    await standin.settle()


async def _by_meaning(bot: PaperclubBot, query: str) -> list[str]:
    """The ids an inline search by meaning answers, as `/paper`'s first answer holds them."""
    outcome = await bot.services.search.search(parse_query(query), limit=FIRST_SEARCH,
                                                by_meaning=True)
    assert outcome.close
    return [hit.id for hit in outcome.hits][:FIRST_ANSWER]


def _live(bot: PaperclubBot, handle: InteractionHandle) -> ResultList:
    live = bot.lists.peek(handle.id)
    assert isinstance(live, ResultList)
    return live


async def test_a_card_answers_at_once_then_becomes_the_list_with_the_close_papers(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    """One paper has the words: its card is the first answer; the papers close in meaning
    join it in one edit, as the list an inline search by meaning would have shown."""
    query = "symbiosis inspired knowledge distillation"
    lexical = await bot.services.search.search(parse_query(query), limit=FIRST_SEARCH)
    assert len(lexical.hits) == 1
    handle = await standin.slash("paper", {"query": query}, guild=guild)
    first = await handle.response()
    (card,) = first.embeds
    assert card["footer"]["text"].endswith(lexical.hits[0].id)  # the card, nothing else
    assert "close in meaning" not in str(first.data)
    edited = await handle.edited()
    await _settled(bot, standin)
    assert len(_edits(standin, handle)) == 1 and edited.edits == 1
    (embed,) = edited.embeds
    assert embed["footer"]["text"].startswith("Page 1 of")
    assert "close in meaning" in embed["description"]
    assert embed["description"].startswith(f"**1. {lexical.hits[0].paper.title_en}")
    assert list(_live(bot, handle).paper_ids) == await _by_meaning(bot, query)
    assert _edits(standin, handle)[0].json["allowed_mentions"]["parse"] == []


async def test_a_list_answers_at_once_then_grows_by_the_close_papers(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    query = "language model"
    lexical = await bot.services.search.search(parse_query(query), limit=FIRST_SEARCH)
    assert 1 < len(lexical.hits) < MEANING_ROOM
    handle = await standin.slash("paper", {"query": query}, guild=guild)
    (listed,) = (await handle.response()).embeds
    assert listed["title"] == f"{len(lexical.hits)} papers match “{query}”"
    edited = await handle.edited()
    await _settled(bot, standin)
    assert len(_edits(standin, handle)) == 1 and edited.edits == 1
    wanted = await _by_meaning(bot, query)
    assert edited.embeds[0]["title"] == f"{len(wanted)} papers match “{query}”"
    assert list(_live(bot, handle).paper_ids) == wanted
    assert wanted[:len(lexical.hits)] == [hit.id for hit in lexical.hits]
    assert _live(bot, handle).source.close == frozenset(wanted[len(lexical.hits):])


async def test_a_list_turned_past_its_first_page_is_not_edited_but_holds_the_close_papers(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        meaning: MeaningKeeper, monkeypatch: pytest.MonkeyPatch) -> None:
    """The member turned the page before the papers close in meaning came: the page they
    read stays as it is; the close papers are on the pages they turn to next."""
    query = "language model"
    release, close_to = asyncio.Event(), meaning.close_to

    async def held_back(*args: Any, **kwargs: Any) -> list[tuple[str, float]]:
        await release.wait()
        return await close_to(*args, **kwargs)

    monkeypatch.setattr(meaning, "close_to", held_back)
    handle = await standin.slash("paper", {"query": query}, guild=guild, user=people.alice)
    results = await handle.answer()
    turned = await standin.click(results, _button(results, "▶"), user=people.alice)
    assert (await turned.response()).embeds[0]["footer"]["text"] == "Page 2 of 2"
    release.set()
    await _settled(bot, standin)
    assert _edits(standin, handle) == []
    wanted = await _by_meaning(bot, query)
    assert list(_live(bot, handle).paper_ids) == wanted
    back = await standin.click(results, _button(results, "◀"), user=people.alice)
    assert (await back.response()).embeds[0]["title"] == f"{len(wanted)} papers match “{query}”"


async def test_a_list_no_longer_live_is_left_as_it_is(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    """A list forgotten before the close papers came (the registry full) has controls that
    answer nothing: no edit brings them back."""
    bot.lists.cap = 0
    handle = await standin.slash("paper", {"query": "language model"}, guild=guild)
    assert "papers match" in (await handle.response()).embeds[0]["title"]
    await _settled(bot, standin)
    assert _edits(standin, handle) == [] and bot.lists.peek(handle.id) is None


async def test_nothing_by_the_words_says_so_then_shows_the_close_papers(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    query = "symbiotic distillery"
    handle = await standin.slash("paper", {"query": query}, guild=guild)
    first = await handle.response()
    assert first.embeds == [] and first.content == (
        f"No paper has the words **{query}**; looking for papers close in meaning…")
    edited = await handle.edited()
    await _settled(bot, standin)
    assert len(_edits(standin, handle)) == 1 and edited.edits == 1
    assert edited.content == "" and "close in meaning" in edited.embeds[0]["description"]
    assert list(_live(bot, handle).paper_ids) == await _by_meaning(bot, query)


async def test_nothing_close_either_turns_looking_into_no_match(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    meaning.cut = Cut(0.99, 0.1)  # nothing is that close
    handle = await standin.slash("paper", {"query": "symbiotic distillery"}, guild=guild,
                                 locale="zh-CN")
    first = await handle.response()
    assert first.content.startswith("没有论文包含 **symbiotic distillery** 这些词；正在查找")
    edited = await handle.edited()
    await _settled(bot, standin)
    assert len(_edits(standin, handle)) == 1 and edited.edits == 1
    assert edited.content.startswith("没有找到与 **symbiotic distillery** 相关的论文。")
    assert edited.embeds == [] and edited.components == []


async def test_a_failed_step_by_meaning_is_logged_and_answers_no_match(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def broken(*args: Any, **kwargs: Any) -> list[tuple[str, float]]:
        raise RuntimeError("the encoder fell over")

    monkeypatch.setattr(meaning, "close_to", broken)
    handle = await standin.slash("paper", {"query": "symbiotic distillery"}, guild=guild)
    assert "looking for papers close in meaning" in (await handle.response()).content
    edited = await handle.edited()
    await _settled(bot, standin)
    assert edited.content.startswith("No paper matches **symbiotic distillery**.")
    assert len(_edits(standin, handle)) == 1
    assert "could not be looked for" in caplog.text


async def test_an_answer_deleted_before_the_edit_is_logged_not_raised(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.features.papers.answer")
    standin.fail("PATCH", "/webhooks/*/*/messages/*", Fault.error(404, 10008, "Unknown Message"))
    handle = await standin.slash("paper", {"query": "language model"}, guild=guild)
    await handle.response()
    await _settled(bot, standin)
    assert [r.status for r in _edits(standin, handle)] == [404]
    assert "could not add the papers close in meaning" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def _button(message: Message, label: str) -> str:
    (button,) = [c for c in message.walk_components() if c.get("label") == label]
    return str(button["custom_id"])
