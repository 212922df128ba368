"""What the full-text index holds: Traditional Chinese folded, venue boilerplate left out."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

from bot.features.papers.query import parse_query
from bot.features.subscriptions.topic_match import CompiledTopic, PaperTerms
from domain.catalog import LoadSource
from domain.paper import Paper, Track, Venue, paper_id
from storage.papers.fts import COLUMNS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from storage.sqlite.migrations import MIGRATIONS

PROCEEDINGS = Paper(
    title_en="Sparse Probing of Grokked Transformers",
    title_zh="稀疏探测",
    authors=("Ada Lovelace",),
    comments="Accepted at ICML 2026. 12 pages, 4 figures",
    journal_ref="Proceedings of the 43rd International Conference on Machine Learning, PMLR 267",
    venue=Venue(conference="ICML", year=2026, track=Track.MAIN),
)


async def _titles(store: SqlitePaperStore, text: str) -> list[str]:
    return [hit.paper.title_en for hit in await store.search(parse_query(text))]


async def test_a_traditional_query_finds_the_simplified_catalog(store: SqlitePaperStore) -> None:
    for text in ("嶺迴歸", "嶺迴歸 Grokking", "理解Grokking：嶺迴歸"):
        titles = await _titles(store, text)
        assert titles and "Ridge Regression" in titles[0], text


async def test_a_traditional_catalog_is_found_in_simplified(db: Database) -> None:
    store = SqlitePaperStore(db)
    paper = dataclasses.replace(PROCEEDINGS, title_zh="嶺迴歸中的頓悟", summary_zh="證明了泛化")
    await store.load([(1, paper)], source=LoadSource("t"))
    for text in ("岭回归", "嶺迴歸", "证明", "頓悟"):
        assert await _titles(store, text) == [paper.title_en], text
        topic = CompiledTopic.compile(text)
        assert topic is not None and topic.matches(PaperTerms.of(paper)), text


async def test_venue_boilerplate_is_no_topic(db: Database) -> None:
    store = SqlitePaperStore(db)
    await store.load([(1, PROCEEDINGS)], source=LoadSource("t"))
    terms = PaperTerms.of(PROCEEDINGS)
    for text in ("learning", "machine", "proceedings", "pmlr", "international conference",
                 "pages", "figures", "accepted"):
        assert await _titles(store, text) == [], text
        topic = CompiledTopic.compile(text)
        assert topic is not None and not topic.matches(terms), text
    for text in ("ICML", "icml 2026", "grokked venue:ICML", "probing venue:main", "267"):
        assert await _titles(store, text) == [PROCEEDINGS.title_en], text
        topic = CompiledTopic.compile(text)
        assert topic is not None and topic.matches(terms), text


async def test_the_migration_rebuilds_an_index_made_the_old_way(tmp_path: Path) -> None:
    """Rows indexed before folding and boilerplate removal are indexed anew."""
    path = tmp_path / "old.db"
    folding = next(m for m in MIGRATIONS if "Traditional Chinese" in m.name)
    before = [m for m in MIGRATIONS if m.version < folding.version]
    with sqlite3.connect(path) as conn:
        conn.create_function("paperclub_id", 1, paper_id)
        for migration in before:
            for statement in migration.statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {before[-1].version}")
        conn.execute(
            "INSERT INTO papers (id, public_id, title_key, title_en, title_zh, authors, "
            "affiliations, summary_zh, comments, journal_ref, conference, year, track, honours, "
            "source, content_hash, added_at, updated_at) VALUES (1, 'x', 'k', ?, ?, "
            "'[\"Ada Lovelace\"]', '[]', '', ?, ?, 'ICML', 2026, 'main', '[]', 's', 'h', "
            "'now', 'now')",
            (PROCEEDINGS.title_en, "嶺迴歸", PROCEEDINGS.comments, PROCEEDINGS.journal_ref))
        conn.execute(  # as the old index held it (six columns then): Traditional, journal
            # reference whole
            f"INSERT INTO paper_fts (rowid, {', '.join(COLUMNS[:6])}) VALUES (1, ?, '嶺迴 迴歸', "
            "'Ada Lovelace', '', '', 'ICML 2026 main Proceedings Machine Learning')",
            (PROCEEDINGS.title_en,))
    db = await Database.open(path)
    try:
        store = SqlitePaperStore(db)
        assert await _titles(store, "岭回归") == [PROCEEDINGS.title_en]
        assert await _titles(store, "learning") == []
        assert await _titles(store, "ICML") == [PROCEEDINGS.title_en]
    finally:
        await db.close()


def _paper(title: str, summary: str = "") -> Paper:
    return Paper(title_en=title, title_zh="", authors=("Ada Lovelace",), summary_zh=summary)


async def test_an_exact_title_ranks_first_then_the_phrase(db: Database) -> None:
    store = SqlitePaperStore(db)
    exact = _paper("Attention Is All You Need")
    containing = _paper("Attention Is All You Need? Attention, Attention and Attention Need You")
    scattered = _paper("You Need Attention: All Is Attention Attention Attention")
    papers = [containing, scattered, exact]
    await store.load(enumerate(papers, start=1), source=LoadSource("t"))
    assert (await _titles(store, "attention is all you need"))[:2] == [
        exact.title_en, containing.title_en]
    assert (await _titles(store, "Attention is all you need author:lovelace"))[0] == exact.title_en
    assert (await _titles(store, "is all you"))[-1] == scattered.title_en
    assert len(await store.search(parse_query("attention need"), limit=2, offset=1)) == 2


async def test_words_in_no_title_as_a_phrase_are_found_headline_first(db: Database) -> None:
    """The phrase step is skipped when the bare phrase is in no title (the summary's phrase
    does not count): the words are found as before, title matches above summary matches."""
    store = SqlitePaperStore(db)
    both_in_title = _paper("Ridge Models of Grokked Networks")
    phrase_in_summary = _paper("Salamander Notes", summary="grokked ridge 的再生。")
    one_in_title = _paper("Grokked Salamanders", summary="ridge 回归")
    await store.load(enumerate([phrase_in_summary, one_in_title, both_in_title], start=1),
                     source=LoadSource("t"))
    titles = await _titles(store, "grokked ridge")
    assert titles[0] == both_in_title.title_en
    assert set(titles[1:]) == {phrase_in_summary.title_en, one_in_title.title_en}
    assert await _titles(store, "ridge grokked networks") == [both_in_title.title_en]


async def test_a_title_phrase_hit_is_scored_as_the_headline_tier_scores_it(db: Database) -> None:
    """The phrase step reads the headline index: a phrase hit's score is its headline bm25,
    the same whichever order the words come in, and its summary does not move it."""
    store = SqlitePaperStore(db)
    wordy = _paper("Grokked Ridge Networks", summary="grokked ridge, grokked ridge 的再生。")
    plain = _paper("Grokked Ridge Models")
    await store.load(enumerate([wordy, plain], start=1), source=LoadSource("t"))
    async def scores(text: str) -> dict[str, float]:
        return {hit.paper.title_en: hit.score for hit in await store.search(parse_query(text))}

    as_phrase, reversed_ = await scores("grokked ridge"), await scores("ridge grokked")
    assert as_phrase == reversed_
    assert as_phrase[wordy.title_en] == as_phrase[plain.title_en]


async def test_the_english_abstract_is_found_and_ranks_below_titles(db: Database) -> None:
    store = SqlitePaperStore(db)
    in_abstract = dataclasses.replace(_paper("Limb Regrowth"),
                                      summary_en="The axolotl regrows limbs.")
    in_title = _paper("Axolotl Genomes", summary="本文研究蝾螈。")
    in_chinese = _paper("Salamander Notes", summary="axolotl 的再生。")
    await store.load(enumerate([in_abstract, in_chinese, in_title], start=1),
                     source=LoadSource("t"))
    titles = await _titles(store, "axolotl")
    assert titles[0] == in_title.title_en
    assert set(titles[1:]) == {in_abstract.title_en, in_chinese.title_en}
    assert await _titles(store, "regrows") == [in_abstract.title_en]
