"""The web page's search by meaning: the lexical answers first, then papers close in meaning,
each marked on its card (a tiny deterministic encoder in a thread stands in for the model)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from markupsafe import escape

from bot.features.meaning.keeper import Cut, MeaningKeeper
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from tests.features.meaning.tiny import MemoryEmbeddings, TrigramEncoder
from tests.features.web.conftest import BASE, GUILD, Site


async def test_close_papers_follow_the_lexical_ones_marked(site: Site,
                                                          search: SearchService) -> None:
    with ThreadPoolExecutor(1) as pool:
        keeper = MeaningKeeper(search._store, MemoryEmbeddings(), TrigramEncoder("tiny-web"),
                               cut=Cut(0.1, 0.1), executor=pool)  # trigrams score lower
        search.meaning = keeper
        try:
            await search.prepare()
            await keeper.built()
            await keeper.query_vector("warm up", wait=True)
            query = "symbiosis inspired knowledge distillation"
            outcome = await search.search(parse_query(query), by_meaning=True, guild_id=GUILD)
            assert outcome.close
            url = await site.pages.link(GUILD)
            assert url is not None
            body = await (await site.http.get(url.removeprefix(BASE),
                                              params={"q": query})).text()
            first, close = outcome.hits[0], next(h for h in outcome.hits
                                                 if h.id in outcome.close)
            assert body.index(escape(first.paper.title_en)) < body.index(
                escape(close.paper.title_en))
            assert body.count("close in meaning") == len(outcome.close)
        finally:
            search.meaning = None
            await keeper.close()
