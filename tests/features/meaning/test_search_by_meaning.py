"""Search by meaning joins the lexical tiers: lexical hits first, then, while the first page
has room, papers close in meaning (marked), above a threshold; lookups and subscriptions (no
`by_meaning`) stay lexical."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from bot.features.meaning.keeper import Cut, MeaningKeeper
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService, Strategy
from bot.shared.server_view import Shown
from domain.paper import Paper
from storage.backend import EMBEDDINGS, PAPERS
from storage.sqlite.database import Database
from tests.features.meaning.tiny import TrigramEncoder


def _paper(title: str, summary: str) -> Paper:
    return Paper(title_en=title, title_zh="", authors=("A. Author",), summary_en=summary)


PAPERS_SHOWN = [
    _paper("Tactile grasping for robot hands", "Robots pick up objects by touch."),
    _paper("Robotic grasping of novel objects", "Grasp planning for unseen objects."),
    _paper("Bird migration over the Alps", "Where birds fly in spring."),
]


async def _service(db: Database, pool: ThreadPoolExecutor) -> SearchService:
    papers = PAPERS.open(db)
    await papers.add_papers(PAPERS_SHOWN, source="test")
    keeper = MeaningKeeper(papers, EMBEDDINGS.open(db), TrigramEncoder("tiny-search"),
                           cut=Cut(0.3, 0.1), executor=pool)
    search = SearchService(papers, meaning=keeper)
    await search.prepare()
    await keeper.built()
    await keeper.query_vector("warm", wait=True)
    return search


async def test_close_papers_join_after_the_lexical_hits_marked(db: Database) -> None:
    with ThreadPoolExecutor(1) as pool:
        search = await _service(db, pool)
        try:
            outcome = await search.search(parse_query("grasping robot hands"), by_meaning=True)
            ids = [hit.id for hit in outcome.hits]
            assert ids[0] == PAPERS_SHOWN[0].id and outcome.strategy is Strategy.EXACT
            assert PAPERS_SHOWN[1].id in ids[1:] and outcome.close == frozenset(ids[1:])
            assert PAPERS_SHOWN[2].id not in ids  # below the threshold
            lexical = await search.search(parse_query("grasping robot hands"))
            assert [hit.id for hit in lexical.hits] == [PAPERS_SHOWN[0].id]
            assert lexical.close == frozenset()
            nothing = await search.search(parse_query("xqzj vkwy"), by_meaning=True)
            assert nothing.hits == [] and nothing.strategy is Strategy.NONE
        finally:
            await search.close()


async def test_close_papers_go_before_papers_sharing_only_a_word(db: Database) -> None:
    with ThreadPoolExecutor(1) as pool:
        search = await _service(db, pool)
        try:
            query = parse_query("grasping birds xqzjv")  # no paper has every word
            lexical = await search.search(query)
            assert lexical.strategy is Strategy.ANY_WORD
            outcome = await search.search(query, by_meaning=True)
            assert outcome.strategy is Strategy.MEANING and outcome.close
            ids = [hit.id for hit in outcome.hits]
            assert set(ids[:len(outcome.close)]) == outcome.close
            assert {hit.id for hit in lexical.hits} <= set(ids)  # any-word hits still follow
        finally:
            await search.close()


async def test_papers_close_in_meaning_carry_what_is_attached(db: Database) -> None:
    """The AI summaries (`attach`) reach the papers found by meaning as well as the lexical
    hits: attaching runs after the close papers join the page."""
    asked: list[list[str]] = []

    async def attach(ids: Sequence[str]) -> Shown:
        asked.append(list(ids))
        return lambda paper: replace(paper, summary_zh=f"AI: {paper.title_en}")

    with ThreadPoolExecutor(1) as pool:
        papers = PAPERS.open(db)
        await papers.add_papers(PAPERS_SHOWN, source="test")
        keeper = MeaningKeeper(papers, EMBEDDINGS.open(db), TrigramEncoder("tiny-attach"),
                               cut=Cut(0.3, 0.1), executor=pool)
        search = SearchService(papers, meaning=keeper, attach=attach)
        await search.prepare()
        await keeper.built()
        try:
            outcome = await search.search(parse_query("grasping robot hands"), by_meaning=True)
            assert outcome.close and asked == [[hit.id for hit in outcome.hits]]
            assert [hit.paper.summary_zh for hit in outcome.hits] == [
                f"AI: {hit.paper.title_en}" for hit in outcome.hits]
        finally:
            await search.close()
