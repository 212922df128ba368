"""A server's search sees its corrections, on both backends alike: a corrected title is found
by its new words (first, when typed in full) in that server only, the words corrected away no
longer find the paper there, and SQLite and PostgreSQL give the same pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.features.catalog.loader import load_catalog
from bot.features.corrections.service import CorrectionService
from bot.features.corrections.store import CorrectionStore
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService, Strategy
from bot.features.papers.store import PaperStore
from domain.corrections import Field, Target
from domain.paper import Paper
from storage import backend as stores
from storage.postgres.database import PgDatabase
from storage.sqlite.database import Database
from tests.backends import Backend
from tools.throwaway_postgres import PostgresServer

GUILD, OTHER, MEMBER, CURATOR = 31, 32, 10, 20
NEW_TITLE = "Zebrafinch Songs Teach Transformers to Count"
NEW_TITLE_ZH = "斑马雀鸣唱教会变换器计数"


def _old_word(paper: Paper) -> str:
    """The longest word of the paper's English title that nothing else of it (once the
    title is corrected) contains: only the wrong title carries it."""
    rest = " ".join((paper.title_zh, " ".join(paper.authors), paper.summary_zh,
                     paper.summary_en, paper.comments, paper.journal_ref,
                     " ".join(a.en for a in paper.affiliations))).casefold()
    words = [w for w in paper.title_en.replace(":", " ").replace("-", " ").split()
             if w.isalpha() and len(w) >= 5 and w.casefold() not in rest]
    return max(words, key=len)


async def _corrected(papers: PaperStore, corrections: CorrectionStore, catalog: Path
                     ) -> tuple[SearchService, Paper]:
    """The bundled catalog, one paper's titles corrected in `GUILD`, and a search that sees it."""
    await load_catalog(papers, catalog)
    service = CorrectionService(corrections, papers)
    paper = next(p for p in [await papers.get(i) for i in sorted(await papers.paper_ids())]
                 if p is not None and p.title_zh)
    for field, value in ((Field.TITLE_EN, NEW_TITLE), (Field.TITLE_ZH, NEW_TITLE_ZH)):
        made = (await service.propose(GUILD, Target(paper.id, field), value, "",
                                      MEMBER)).proposal
        assert await service.decide(GUILD, made.id, approve=True, by=CURATOR)
    return SearchService(papers, view=service), paper


async def _page(search: SearchService, text: str, guild: int) -> tuple[str, list[str]]:
    outcome = await search.search(parse_query(text), limit=10, guild_id=guild)
    return outcome.strategy.value, [hit.id for hit in outcome.hits]


def _queries(paper: Paper) -> list[str]:
    return ["zebrafinch", "斑马雀", NEW_TITLE, "transformers count", paper.title_en,
            _old_word(paper), f"{_old_word(paper)} year:2026", "learning"]


async def test_the_corrected_title_is_found_in_its_server_only(
        backend: Backend, catalog_path: Path) -> None:
    search, paper = await _corrected(backend.papers(), backend.corrections(), catalog_path)
    for text in ("zebrafinch", "斑马雀", "斑馬雀", NEW_TITLE):
        strategy, ids = await _page(search, text, GUILD)
        assert strategy == Strategy.EXACT and ids[0] == paper.id, text
        assert paper.id not in (await _page(search, text, OTHER))[1]
    outcome = await search.search(parse_query("zebrafinch"), limit=10, guild_id=GUILD)
    assert outcome.hits[0].paper.title_en == NEW_TITLE
    old = _old_word(paper)
    assert paper.id not in (await _page(search, old, GUILD))[1]
    assert paper.id in (await _page(search, old, OTHER))[1]
    assert (await _page(search, paper.title_en, OTHER))[1][0] == paper.id
    assert (await _page(search, paper.title_en, GUILD))[1][:1] != [paper.id]
    # a later page only keeps or leaves out a corrected paper, never adds it again
    later = await search.search(parse_query("zebrafinch"), limit=10, offset=10, guild_id=GUILD)
    assert paper.id not in [hit.id for hit in later.hits]


async def test_both_backends_give_the_same_corrected_pages(
        tmp_path: Path, catalog_path: Path, postgres_server: PostgresServer | None) -> None:
    if postgres_server is None:
        pytest.skip("PostgreSQL not found: the PostgreSQL half of the contract suite was NOT run")
    sqlite = await Database.open(tmp_path / "agree.db")
    url = await postgres_server.fresh_database()
    pg = await PgDatabase.open(url)
    try:
        pages = []
        for db in (sqlite, pg):
            search, paper = await _corrected(stores.PAPERS.open(db), stores.CORRECTIONS.open(db),
                                             catalog_path)
            pages.append([await _page(search, text, guild) for text in _queries(paper)
                          for guild in (GUILD, OTHER)])
        assert pages[0] == pages[1]
        assert any(paper.id in ids for _, ids in pages[0])
    finally:
        await sqlite.close()
        await pg.close()
        await postgres_server.drop_database(url)


async def test_a_search_reading_its_first_papers_only_gives_the_same_pages(
        backend: Backend, catalog_path: Path) -> None:
    """`/paper` reads only its first page's papers (`papers=`): the hits, their order, scores
    and strategy are the same as a search reading every paper's, in a server with corrections
    and without, and the papers it read are the same."""
    search, paper = await _corrected(backend.papers(), backend.corrections(), catalog_path)
    compared = 0
    for text in (*_queries(paper), "model", "学习"):
        for guild in (GUILD, OTHER):
            every = await search.search(parse_query(text), limit=10, guild_id=guild)
            first = await search.search(parse_query(text), limit=10, guild_id=guild, papers=2)
            assert ([(h.id, h.score) for h in first.hits], first.strategy, first.crossed) == (
                [(h.id, h.score) for h in every.hits], every.strategy, every.crossed), text
            assert [h.paper for h in first.hits[:2]] == [h.paper for h in every.hits[:2]]
            compared += len(first.hits) > 2
    assert compared
