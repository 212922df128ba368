"""Search by meaning joins the lexical tiers: lexical hits first, then, while the first page
has room, papers close in meaning (marked), above a threshold; lookups and subscriptions (no
`by_meaning`) stay lexical."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bot.features.meaning.keeper import MeaningKeeper
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService, Strategy
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
                           executor=pool)
    search = SearchService(papers, meaning=keeper, meaning_threshold=0.3)
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
