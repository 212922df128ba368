"""Search by meaning through Discord: `/catalog stats` tells how far the catalog is embedded,
and `/paper` marks the papers that joined by meaning alone (a tiny deterministic encoder in a
thread stands in for the bundled model and its worker process)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.client.bot import PaperclubBot
from bot.features.meaning.keeper import MeaningKeeper
from bot.features.papers.query import parse_query
from bot.features.papers.search import MEANING_THRESHOLD
from discord_standin import Guild, StandIn
from tests.features.meaning.tiny import MemoryEmbeddings, TrigramEncoder


@pytest.fixture
async def meaning(bot: PaperclubBot) -> AsyncIterator[MeaningKeeper]:
    search = bot.services.search
    with ThreadPoolExecutor(1) as pool:
        keeper = MeaningKeeper(search._store, MemoryEmbeddings(),
                               TrigramEncoder("tiny-e2e"), executor=pool)
        search.meaning, search.meaning_threshold = keeper, 0.1  # trigrams score lower
        await search.prepare()
        await keeper.built()
        await keeper.query_vector("warm up", wait=True)
        yield keeper
        search.meaning, search.meaning_threshold = None, MEANING_THRESHOLD
        await keeper.close()


async def test_catalog_stats_tells_how_far_search_by_meaning_is(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    handle = await standin.slash("catalog stats", guild=guild)
    (embed,) = (await handle.reply()).embeds
    assert "Search by meaning: 30 of 30 papers embedded." in embed["description"]


async def test_paper_marks_the_papers_close_in_meaning(
        bot: PaperclubBot, standin: StandIn, guild: Guild, meaning: MeaningKeeper) -> None:
    query = "symbiosis inspired knowledge distillation"
    lexical = await bot.services.search.search(parse_query(query))
    outcome = await bot.services.search.search(parse_query(query), by_meaning=True)
    assert [h.id for h in outcome.hits][:len(lexical.hits)] == [h.id for h in lexical.hits]
    assert outcome.close and len(outcome.hits) > len(lexical.hits)
    handle = await standin.slash("paper", {"query": query}, guild=guild)
    reply = await handle.reply()
    assert "close in meaning" in reply.embeds[0]["description"]
