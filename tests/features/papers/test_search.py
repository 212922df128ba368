"""Search over the bundled catalog: ranking, filters, typos and hostile input."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService, Strategy
from domain.paper import Links, Paper
from domain.storage_faults import StorageError
from storage.db import Row
from storage.papers import sqlite_ranking as ranking
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database

RIGHT_FIRST = [
    ("grokking", "To Grok Grokking: Provable Grokking in Ridge Regression"),
    ("grok", "To Grok Grokking: Provable Grokking in Ridge Regression"),
    ("grokkng", "To Grok Grokking: Provable Grokking in Ridge Regression"),
    ("岭回归", "To Grok Grokking: Provable Grokking in Ridge Regression"),
    ("蒸馏", "Symbiosis-Inspired Knowledge Distillation for Incremental Object Detection"),
    ("知识蒸馏", "Symbiosis-Inspired Knowledge Distillation for Incremental Object Detection"),
    ("whistleblower", "Plausible Deniability Guarantees for Whistleblowers"),
    ("Oostermeijer", "Accuracy and Normalized Accuracy under Length Bias: Analysis, Guidelines, "
                     "and a Bayesian Alternative"),
    ("low-rank pretraining", "Stabilizing Native Low-Rank LLM Pretraining"),
    ("Vardi", "To Grok Grokking: Provable Grokking in Ridge Regression"),
]


@pytest.mark.parametrize(("text", "title"), RIGHT_FIRST)
async def test_right_paper_ranks_first(search: SearchService, text: str, title: str) -> None:
    outcome = await search.search(parse_query(text))
    assert outcome.hits, text
    assert outcome.hits[0].paper.title_en.startswith(title[:60])


async def test_typo_is_corrected_with_did_you_mean(search: SearchService) -> None:
    outcome = await search.search(parse_query("grokkng"))
    assert outcome.strategy is Strategy.CORRECTED
    assert outcome.did_you_mean == "grokking"


async def test_spotlight_filter_finds_exactly_the_two_spotlights(search: SearchService) -> None:
    outcome = await search.search(parse_query("honours:spotlight"), limit=50)
    titles = sorted(hit.paper.title_en.split(":")[0] for hit in outcome.hits)
    assert titles == ["Adaptive Testing for LLM Evaluation", "Local Redundancy"]


async def test_workshop_and_main_filters_partition_icml(search: SearchService) -> None:
    workshop = await search.search(parse_query("venue:workshop"), limit=100)
    main = await search.search(parse_query("venue:main"), limit=100)
    assert len(workshop.hits) == 12
    assert len(main.hits) == 18
    assert {h.paper.id for h in workshop.hits}.isdisjoint({h.paper.id for h in main.hits})


async def test_words_with_filters(search: SearchService) -> None:
    outcome = await search.search(parse_query("interpretability venue:workshop"), limit=50)
    assert outcome.hits
    assert all(h.paper.venue.track.value == "workshop" for h in outcome.hits)
    assert not (await search.search(parse_query("grokking venue:workshop"))).hits


async def test_author_filter_matches_surname_only_in_authors(search: SearchService) -> None:
    outcome = await search.search(parse_query("author:vardi"))
    assert [h.paper.title_en[:16] for h in outcome.hits] == ["To Grok Grokking"]
    assert not (await search.search(parse_query("author:grokking"))).hits


async def test_year_and_conference_filters(search: SearchService) -> None:
    assert len((await search.search(parse_query("year:2025"))).hits) == 1
    icmlcn = await search.search(parse_query("venue:ICMLCN"))
    assert [h.paper.venue.conference for h in icmlcn.hits] == ["ICMLCN"]


async def test_title_hits_rank_above_summary_hits(search: SearchService) -> None:
    outcome = await search.search(parse_query("distillation"), limit=30)
    assert "Distillation" in outcome.hits[0].paper.title_en


async def test_multi_word_falls_back_to_any_word(search: SearchService) -> None:
    outcome = await search.search(parse_query("grokking zzzqqq"))
    assert outcome.strategy is Strategy.ANY_WORD
    assert outcome.hits[0].paper.title_en.startswith("To Grok Grokking")


async def test_nonsense_is_no_match(search: SearchService) -> None:
    outcome = await search.search(parse_query("qqqqzzzz"))
    assert outcome.hits == []
    assert outcome.strategy is Strategy.NONE


HOSTILE = [
    '"', '""', "grokking\"", "AND", "OR", "NOT", "NEAR(", "NEAR(a b)", "*", "grok*", "-x",
    "-grokking", "title_en:grokking", "col:term", "(", ")", "((grokking", "%", "_", "%_%",
    "' OR 1=1 --", "'; DROP TABLE papers; --", "C++", "R&D", ":", "^grok", "🤖🔥", "gro\u200bkking",
    "\x00", "\u202egnikkorg", "\u200f", "a" * 10_000, "蒸" * 10_000, "grokking " * 2000,
    "\ud800", "{title_en}: x", "papers", "paper_fts MATCH 'x'",
]


@pytest.mark.parametrize("text", HOSTILE)
async def test_hostile_input_never_raises(search: SearchService, text: str) -> None:
    outcome = await search.search(parse_query(text))
    assert isinstance(outcome.hits, list)


async def test_zero_width_inside_a_word_still_matches(search: SearchService) -> None:
    outcome = await search.search(parse_query("gro\u200bkking"))
    assert outcome.hits[0].paper.title_en.startswith("To Grok Grokking")


HOSTILE_ALPHABET = st.text(
    alphabet=st.sampled_from(list('"\'*()-:^%_&|+~!@#$ ANDORNTEAgrokking蒸馏\u200b\x00\u202e😀')),
    max_size=80,
)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=HOSTILE_ALPHABET)
async def test_fuzzed_queries_never_raise(search: SearchService, text: str) -> None:
    try:
        query = parse_query(text)
    except ValueError:
        return
    outcome = await search.search(query)
    assert isinstance(outcome.hits, list)


async def test_broad_words_are_ranked_among_their_newest_matches(
        search: SearchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """bm25 work is bounded: beyond RANK_WINDOW matches only the newest are scored."""
    import storage.papers.sqlite_ranking

    everything = await search.search(parse_query("本文"), limit=50)
    assert len(everything.hits) > 5
    monkeypatch.setattr(storage.papers.sqlite_ranking, "RANK_WINDOW", 3)
    windowed = await search.search(parse_query("本文"), limit=50)
    # at most 3 from the headline tier plus 3 from the whole-text tier
    assert 0 < len(windowed.hits) <= 3 * 2
    assert len(windowed.hits) < len(everything.hits)
    narrow = await search.search(parse_query("grokking"))
    assert narrow.hits[0].paper.title_en.startswith("To Grok Grokking")


async def test_papers_by_id_keep_order_and_skip_missing(search: SearchService,
                                                         bundled_papers: list[Paper]) -> None:
    first, second = bundled_papers[3], bundled_papers[0]
    found = await search.papers([first.id, "0" * 16, second.id])
    assert [p.id for p in found] == [first.id, second.id]


class CountingStore(SqlitePaperStore):
    """The bundled catalog's store, counting how often the typo vocabulary is read."""

    vocabulary_reads = 0

    async def vocabulary(self) -> list[tuple[str, int]]:
        self.vocabulary_reads += 1
        return await super().vocabulary()


async def test_prepare_builds_the_typo_vocabulary_before_the_first_typo_search(
        store: SqlitePaperStore) -> None:
    counting = CountingStore(store._db)
    search = SearchService(counting)
    await search.prepare()
    await search.built()
    assert counting.vocabulary_reads == 1
    outcome = await search.search(parse_query("grokkng"))
    assert outcome.strategy is Strategy.CORRECTED
    assert counting.vocabulary_reads == 1  # the typo search found it built
    await search.prepare()  # the catalog did not change: nothing to rebuild
    await search.built()
    assert counting.vocabulary_reads == 1


async def test_a_change_rebuilds_the_vocabulary_in_the_background(
        store: SqlitePaperStore) -> None:
    search = SearchService(store)
    await search.prepare()
    await search.built()
    new = Paper(title_en="Zyxwvutian Manifolds", title_zh="", authors=("Ada Lovelace",),
                links=Links(arxiv_id="2401.00009", arxiv_version=1))
    await store.add_papers([new])
    await search.prepare()
    await search.built()
    outcome = await search.search(parse_query("zyxwvutain"))
    assert outcome.strategy is Strategy.CORRECTED and outcome.did_you_mean == "zyxwvutian"
    await search.close()


class StatementCounter:
    """Wraps the store's reads to count the statements a search runs."""

    def __init__(self, store: SqlitePaperStore) -> None:
        self.statements = 0
        read = store._db.fetch

        async def counted(sql: str, *args: Any) -> list[Row]:
            self.statements += 1
            return await read(sql, *args)

        store._db.fetch = counted  # type: ignore[method-assign]


@pytest.mark.parametrize("text", ["zyxwvutain", "grokking", "low-rank pretraining",
                                  "knowledge distillation object", "author:vardi ridge"])
async def test_a_search_without_filters_runs_one_statement(
        store: SqlitePaperStore, text: str) -> None:
    """Phrase, headline and whole-paper matches are ranked in one round trip (a typo once cost
    two before its correction and two after, a phrase three). Prefix words' completions are
    looked up once per catalog version: a search again costs the ranking alone, whose rows
    (one row of NULLs when nothing matches, as for the typo) carry the version the cached
    completions are checked against."""
    counter = StatementCounter(store)
    first = await store.search(parse_query(text), limit=50)
    counter.statements = 0
    assert await store.search(parse_query(text), limit=50) == first
    assert counter.statements == 1


class BlockedVersionStore(SqlitePaperStore):
    """A store whose catalog version answers only when the test lets it."""

    release = asyncio.Event()

    async def catalog_version(self) -> int:
        await self.release.wait()
        return await super().catalog_version()


async def test_a_typo_search_does_not_wait_for_the_catalog_check(
        store: SqlitePaperStore) -> None:
    """With a vocabulary at hand, whether the catalog changed is checked after the search, in
    the background: the search answers while the check is still pending."""
    blocked = BlockedVersionStore(store._db)
    blocked.release = asyncio.Event()
    search = SearchService(blocked)
    blocked.release.set()
    await search.prepare()
    await search.built()
    blocked.release.clear()
    outcome = await asyncio.wait_for(search.search(parse_query("grokkng")), timeout=30)
    assert outcome.strategy is Strategy.CORRECTED
    new = Paper(title_en="Zyxwvutian Manifolds", title_zh="", authors=("Ada Lovelace",),
                links=Links(arxiv_id="2401.00009", arxiv_version=1))
    await store.add_papers([new])  # as another process's load would: no prepare()
    blocked.release.set()
    await search.built()  # the check saw the change and rebuilt the vocabulary
    outcome = await search.search(parse_query("zyxwvutain"))
    assert outcome.strategy is Strategy.CORRECTED and outcome.did_you_mean == "zyxwvutian"
    await search.close()


async def test_a_mistyped_author_gets_a_did_you_mean(search: SearchService) -> None:
    outcome = await search.search(parse_query("author:vardy"))
    assert outcome.strategy is Strategy.CORRECTED
    assert outcome.did_you_mean == 'author:"vardi"'
    assert [h.paper.title_en[:16] for h in outcome.hits] == ["To Grok Grokking"]


async def test_warming_up_compiles_the_ranking_statements_on_every_reader(
        store: SqlitePaperStore) -> None:
    """Compiling the ranking statement costs ~15 ms on a connection that has not run it; the
    warm-up leaves all four compiled in every reader connection's statement cache (SQLite's
    `sqlite_stmt` lists a connection's prepared statements) and changes no answer."""
    before = await store.search(parse_query("grokking"), limit=10)
    await store.warm_up()
    readers = store._db._readers
    assert len(readers) > 1
    for conn in readers:
        try:
            compiled = {row[0] for row in await conn.execute_fetchall(
                "SELECT sql FROM sqlite_stmt")}
        except sqlite3.OperationalError:
            pytest.skip("this SQLite is built without SQLITE_ENABLE_STMTVTAB")
        assert {sql for sql, _ in ranking.PRIMING} <= compiled
    assert await store.search(parse_query("grokking"), limit=10) == before


class WarmCounter(SqlitePaperStore):
    """A store that counts its warm-ups."""

    warmed = 0

    async def warm_up(self) -> None:
        self.warmed += 1


async def test_the_search_warms_its_store_up_at_start_and_after_each_change(
        memory_db: Database) -> None:
    papers = WarmCounter(memory_db)
    await papers.add_papers([Paper(title_en="Grokking at the Edge", title_zh="",
                                   authors=("A. B",))])
    search = SearchService(papers)
    await search.prepare()
    await search.built()
    assert papers.warmed == 1
    await search.prepare()  # the catalog has not changed
    await search.built()
    assert papers.warmed == 1
    await papers.add_papers([Paper(title_en="Another Paper", title_zh="", authors=("C. D",))])
    await search.prepare()
    await search.built()
    assert papers.warmed == 2
    await search.close()


class FailingWarmUp(SqlitePaperStore):
    """A store whose warm-up fails."""

    async def warm_up(self) -> None:
        raise StorageError("disk I/O error")


async def test_a_failed_warm_up_leaves_the_typo_vocabulary_built(memory_db: Database) -> None:
    papers = FailingWarmUp(memory_db)
    await papers.add_papers([Paper(title_en="Grokking at the Edge", title_zh="",
                                   authors=("A. B",))])
    search = SearchService(papers)
    await search.prepare()
    with pytest.raises(StorageError):
        await search.built()
    outcome = await search.search(parse_query("grokkng"), limit=10)
    assert outcome.did_you_mean == "grokking"
    await search.close()
