"""The bench's labelled queries on both backends over the same catalog: the same hit@1 and,
for queries answered without typo correction, the same top-10 sets (issue 13)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage.papers.postgres
import storage.papers.postgres_tiers
import storage.papers.sqlite_ranking
from bench.catalog_queries import Query, known_queries
from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService, Strategy
from bot.features.papers.store import PaperStore
from domain.paper import Paper
from storage.papers.postgres import PgPaperStore
from storage.papers.sqlite import SqlitePaperStore
from storage.postgres.database import PgDatabase
from storage.sqlite.database import Database
from tools.realworld import realworld
from tools.synthetic_catalog import write_listing
from tools.throwaway_postgres import PostgresServer

SYNTHETIC = 600
SAMPLE = realworld("arxiv-metadata", "arxiv-sample.jsonl")
needs_sample = pytest.mark.skipif(not SAMPLE.exists(),
                                  reason=f"the real arXiv sample is not at {SAMPLE}")


async def _answers(search: SearchService, texts: list[str]) -> list[tuple[str, list[str]]]:
    found = []
    for text in texts:
        outcome = await search.search(parse_query(text), limit=10)
        found.append((outcome.strategy.value, [hit.paper.id for hit in outcome.hits]))
    return found


def _variants(queries: list[Query]) -> list[str]:
    """The labelled queries, and each again with a filter, an author or as two words, so that
    every ranking path (window, filtered, phrase, author column) is compared."""
    texts = [q.text for q in queries]
    words = [t for t in texts if " " not in t]
    return texts + [f"{t} year:2024" for t in texts[::3]] + [
        f"{a} {b}" for a, b in zip(words[::2], words[1::2], strict=False)] + [
        f"{t} author:{q.text}" for t, q in zip(words, queries, strict=False)
        if q.kind == "surname"]


@contextlib.asynccontextmanager
async def _both_stores(tmp_path: Path, postgres_server: PostgresServer | None, name: str
                       ) -> AsyncIterator[tuple[PaperStore, PaperStore]]:
    """An empty SQLite store and an empty PostgreSQL one (a database of its own, dropped
    after); the test is skipped without PostgreSQL."""
    if postgres_server is None:
        pytest.skip("PostgreSQL not found: the PostgreSQL half of the contract suite was NOT run")
    sqlite = await Database.open(tmp_path / f"{name}.db")
    url = await postgres_server.fresh_database()
    pg = await PgDatabase.open(url)
    try:
        yield SqlitePaperStore(sqlite), PgPaperStore(pg)
    finally:
        await sqlite.close()
        await pg.close()
        await postgres_server.drop_database(url)


async def _results(tmp_path: Path, bundled_papers: list[Paper],
                   postgres_server: PostgresServer | None
                   ) -> tuple[list[Query], list[list[tuple[str, list[str]]]]]:
    listing = write_listing(tmp_path / "catalog.txt", SYNTHETIC, real=list(bundled_papers))
    queries = known_queries(bundled_papers)
    texts = [q.text for q in queries]
    results = []
    async with _both_stores(tmp_path, postgres_server, "agree") as stores:
        for store in stores:
            await load_catalog(store, listing)
            search = SearchService(store)
            results.append(await _answers(search, texts))
            await search.close()
    return queries, results


@pytest.mark.slow
async def test_labelled_queries_have_the_same_hit_at_1_on_sqlite_and_postgresql(
        tmp_path: Path, bundled_papers: list[Paper],
        postgres_server: PostgresServer | None) -> None:
    queries, results = await _results(tmp_path, bundled_papers, postgres_server)
    by_id = {p.id: p.title_en for p in bundled_papers}
    lite, post = results
    first = [sum(1 for q, (_, ids) in zip(queries, r, strict=True)
                 if ids and by_id.get(ids[0]) == q.expected) for r in results]
    assert first[0] == first[1], f"hit@1 SQLite {first[0]} vs PostgreSQL {first[1]}"
    assert [a[0] for a in lite] == [b[0] for b in post]  # the same strategy: exact, corrected


@pytest.mark.slow
async def test_exact_queries_have_the_same_top_ten_sets_on_both_backends(
        tmp_path: Path, bundled_papers: list[Paper],
        postgres_server: PostgresServer | None) -> None:
    queries, (lite, post) = await _results(tmp_path, bundled_papers, postgres_server)
    differing = [(q.kind, q.text) for q, a, b in zip(queries, lite, post, strict=True)
                 if a[0] == Strategy.EXACT.value
                 and (set(a[1]) != set(b[1]) or a[1][:1] != b[1][:1])]
    assert differing == []


async def _scored(store: PaperStore, texts: list[str]) -> list[list[tuple[str, float]]]:
    found = []
    for text in texts:
        for any_word in (False, True):
            hits = await store.search(parse_query(text), any_word=any_word, limit=10)
            found.append([(hit.paper.id, hit.score) for hit in hits])
    return found


@pytest.mark.slow
async def test_every_ranking_path_gives_sqlites_bm25_scores_and_order_on_postgresql(
        tmp_path: Path, bundled_papers: list[Paper],
        postgres_server: PostgresServer | None) -> None:
    """Not only the same sets: the same ten in the same order with the same bm25 numbers, for
    the labelled queries, with a filter (no window), as two words (title phrases), with an
    author filter (a column restriction), all words or any word."""
    listing = write_listing(tmp_path / "catalog.txt", SYNTHETIC, real=list(bundled_papers))
    texts = _variants(known_queries(bundled_papers))
    results = []
    async with _both_stores(tmp_path, postgres_server, "scores") as stores:
        for store in stores:
            await load_catalog(store, listing)
            results.append(await _scored(store, texts))
    lite, post = results
    assert sum(len(r) for r in lite) > len(texts)  # the queries do find papers
    differing = [(text, a[:3], b[:3]) for text, a, b
                 in zip([t for t in texts for _ in (0, 1)], lite, post, strict=True) if a != b]
    assert differing == []


CROSS_LANGUAGE = ["扩散模型", "擴散模型", "知识蒸馏", "知識蒸餾", "目标检测", "大模型",
                  "大型語言模型", "diffusion 蒸馏", "强化学习 author:wang",
                  "视觉语言模型 year:2026", "对比学习",
                  "knowledge distillation", "ridge regression", "LLM", "grokking", "幻觉"]


@needs_sample
@pytest.mark.slow
async def test_cross_language_search_gives_the_same_papers_in_the_same_order(
        tmp_path: Path, bundled_papers: list[Paper],
        postgres_server: PostgresServer | None) -> None:
    """Chinese, Traditional, mixed and English queries over real English-only arXiv papers and
    the bilingual listing: the same hits, order, strategy and terms read on both backends."""
    path = tmp_path / "arxiv.jsonl"
    with SAMPLE.open(encoding="utf-8") as handle:
        path.write_text("".join(next(handle) for _ in range(1500)), encoding="utf-8")
    results = []
    async with _both_stores(tmp_path, postgres_server, "cross") as stores:
        for store in stores:
            await load_catalog(store, path)
            await store.add_papers(bundled_papers)
            search = SearchService(store)
            answers = []
            for text in CROSS_LANGUAGE:
                outcome = await search.search(parse_query(text), limit=20)
                answers.append((outcome.strategy, [h.id for h in outcome.hits], outcome.crossed))
            results.append(answers)
            await search.close()
    lite, post = results
    assert sum(len(crossed) for _, _, crossed in lite) > 100  # the queries crossed languages
    assert [(text, *a) for text, a in zip(CROSS_LANGUAGE, lite, strict=True)] == [
        (text, *b) for text, b in zip(CROSS_LANGUAGE, post, strict=True)]


PREFIXES = ["con", "control", "spect", "mechan", "trans", "distrib", "pro", "learn", "model",
            "gro", "re", "dif diff", "trans author:li", "pro year:2024"]


@pytest.mark.slow
async def test_prefix_expansions_give_sqlites_scores_and_order_on_postgresql(
        tmp_path: Path, bundled_papers: list[Paper], postgres_server: PostgresServer | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Prefix words searched as their completions (issue 26), with a rank window narrow enough
    that frequent words' rare completions are ranked beside it: the same ten, order and bm25
    numbers on both backends, all words or any word."""
    monkeypatch.setattr(storage.papers.sqlite_ranking, "RANK_WINDOW", 20)
    monkeypatch.setattr(storage.papers.postgres, "RANK_WINDOW", 20)
    listing = write_listing(tmp_path / "catalog.txt", SYNTHETIC, real=list(bundled_papers))
    texts = PREFIXES + [q.text for q in known_queries(bundled_papers) if q.kind == "en prefix"]
    results = []
    async with _both_stores(tmp_path, postgres_server, "prefixes") as stores:
        for store in stores:
            await load_catalog(store, listing)
            await store.add_papers([Paper(title_en=f"Controllability study {i}", title_zh="",
                                          authors=("Li Wei",)) for i in range(3)])
            results.append(await _scored(store, texts))
    lite, post = results
    assert sum(len(r) for r in lite) > len(texts)
    differing = [(text, a[:3], b[:3]) for text, a, b
                 in zip([t for t in texts for _ in (0, 1)], lite, post, strict=True) if a != b]
    assert differing == []


@pytest.mark.slow
async def test_a_windows_newest_matches_are_the_same_walked_or_read_from_the_index(
        tmp_path: Path, bundled_papers: list[Paper], postgres_server: PostgresServer | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL finds a window's newest matches by walking ids backwards or from the GIN
    index, chosen by their count (`postgres_tiers.walk_from`): either way, SQLite's ten,
    order and bm25 numbers, with a window narrow enough that common words overflow it."""
    monkeypatch.setattr(storage.papers.sqlite_ranking, "RANK_WINDOW", 20)
    monkeypatch.setattr(storage.papers.postgres, "RANK_WINDOW", 20)
    listing = write_listing(tmp_path / "catalog.txt", SYNTHETIC, real=list(bundled_papers))
    texts = [q.text for q in known_queries(bundled_papers)][::3] + PREFIXES
    async with _both_stores(tmp_path, postgres_server, "walks") as (lite, post):
        for store in (lite, post):
            await load_catalog(store, listing)
        expected = await _scored(lite, texts)
        ways = []
        for threshold in (0, SYNTHETIC * 10):  # every window walked, then none
            monkeypatch.setattr(storage.papers.postgres_tiers, "walk_from",
                                lambda rows, window, at=threshold: at)
            ways.append(await _scored(post, texts))
    assert sum(len(r) for r in expected) > len(texts)
    assert ways == [expected, expected]
