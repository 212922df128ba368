"""What keeps PostgreSQL search fast (issue 13): every statement planned for its own values, and
the headline index (`paper_heads`) in step with `papers` after every kind of write."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import asyncpg
import pytest

from bot.features.papers.query import parse_query
from domain.catalog import LoadSource
from domain.paper import Paper
from storage.papers.postgres import PgPaperStore
from storage.postgres.database import PgDatabase
from storage.postgres.migrations import HEAD_POSITIONS

_OUT_OF_STEP = (
    "SELECT count(*) FROM papers p FULL JOIN paper_heads h ON h.id = p.id "
    "WHERE p.id IS NULL OR h.id IS NULL OR h.head IS DISTINCT FROM ts_filter(p.search, '{a,b}') "
    "OR h.head_tokens IS DISTINCT FROM p.head_tokens")


async def test_every_pooled_connection_plans_each_statement_for_its_own_values(
        postgres_url: str) -> None:
    """A generic plan (PostgreSQL's choice after five runs of a prepared statement) cannot see
    how rare a search's words are and walked every paper instead of using the GIN index."""
    db = await PgDatabase.open(postgres_url, pool_size=2)
    try:
        async with db.transaction() as first, db.transaction() as second:
            modes = [await tx.fetch_value("SHOW plan_cache_mode") for tx in (first, second)]
    finally:
        await db.close()
    assert modes == ["force_custom_plan", "force_custom_plan"]


async def test_a_search_statement_is_planned_once_on_its_connection(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    """Issue 26: the search's SQL fixes its plan's shape (`postgres_tiers._newest`), so it
    runs on connections that plan a statement once, however long its SQL: planning it for
    each run's values cost three times its running."""
    db = await PgDatabase.open(postgres_url, pool_size=1)
    store = PgPaperStore(db)
    try:
        await store.load(enumerate(bundled_papers, 1), source=LoadSource("listing"))
        texts = ["learning", "learn", "neural networks", "稳定", "gro", "vardi",
                 "mod lea gen tra dis con opt rep pre"]  # nine prefixes: 16 KiB of SQL
        first = [await store.search(parse_query(t)) for t in texts]
        again = [await store.search(parse_query(t)) for t in texts for _ in range(3)]
        plans = await db.fetch_planned_once(
            "SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0), "
            "count(*), max(length(statement)) FROM pg_prepared_statements")
        mode = await db.fetch_planned_once("SHOW plan_cache_mode")
    finally:
        await db.close()
    assert any(first) and again == [hits for hits in first for _ in range(3)]
    generic, custom, statements, longest = plans[0]
    assert mode[0][0] == "force_generic_plan"
    assert custom == 0 and generic >= len(first) + len(again)
    assert statements <= len(texts) + 1  # one form per shape, prepared once each
    assert longest > 15 * 1024  # kept prepared past asyncpg's default 15 KiB


async def _out_of_step(db: PgDatabase) -> tuple[int, int]:
    heads = int(await db.fetch_value("SELECT count(*) FROM paper_heads"))
    return heads, int(await db.fetch_value(_OUT_OF_STEP))


async def test_the_headline_index_follows_loads_updates_adds_and_prunes(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    db = await PgDatabase.open(postgres_url)
    store = PgPaperStore(db)
    source = LoadSource("listing")
    try:
        await store.load(enumerate(bundled_papers, 1), source=source)
        assert await _out_of_step(db) == (len(bundled_papers), 0)

        renamed = [dataclasses.replace(p, authors=("Zyxwvut Qponm",)) if i % 2 else p
                   for i, p in enumerate(bundled_papers)]
        await store.load(enumerate(renamed, 1), source=source)
        assert await _out_of_step(db) == (len(bundled_papers), 0)
        hits = await store.search(parse_query("zyxwvut"), limit=50)
        assert len(hits) == len(bundled_papers) // 2  # found through the headline index

        added = dataclasses.replace(bundled_papers[0], title_en="A Paper Added By Hand",
                                    authors=("Hand Adder",))
        await store.add_papers([added])
        assert await _out_of_step(db) == (len(bundled_papers) + 1, 0)

        kept = renamed[:5]
        await store.load(enumerate(kept, 1), source=source, prune=True)
        assert await _out_of_step(db) == (len(kept) + 1, 0)
        assert [h.paper.id for h in await store.search(parse_query("adder"))] == [added.id]
    finally:
        await db.close()


async def test_the_headline_lengths_migration_19_backfills_are_those_a_load_writes(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    """Migration 19 counts an existing paper's headline tokens from its `tsvector`; a load
    counts them from the text, as FTS5 does (the headline tier's bm25 length): the same."""
    db = await PgDatabase.open(postgres_url)
    try:
        await PgPaperStore(db).load(enumerate(bundled_papers, 1), source=LoadSource("listing"))
        counts = await db.fetch(f"SELECT head_tokens, {HEAD_POSITIONS} FROM papers")
    finally:
        await db.close()
    assert len(counts) == len(bundled_papers)
    assert all(loaded == backfilled > 0 for loaded, backfilled in counts)


async def test_searches_in_flight_on_many_connections_agree_with_one_at_a_time(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    db = await PgDatabase.open(postgres_url, pool_size=4)
    store = PgPaperStore(db)
    try:
        await store.load(enumerate(bundled_papers, 1), source=LoadSource("listing"))
        texts = ["grokk", "learning", "vardi", "稳定", "neural networks"] * 3
        alone = [await store.search(parse_query(t)) for t in texts]
        together = await asyncio.gather(*(store.search(parse_query(t)) for t in texts))
    finally:
        await db.close()
    assert any(alone) and list(together) == alone


async def test_a_load_leaves_the_planner_figures_of_the_search_tables_current(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    """Planned on a table's figures from before the load (or none), the first searches after a
    big load walked the wrong index until autovacuum came by."""
    db = await PgDatabase.open(postgres_url)
    try:
        await PgPaperStore(db).load(enumerate(bundled_papers, 1), source=LoadSource("listing"))
        rows = await db.fetch("SELECT relname, reltuples FROM pg_class "
                                    "WHERE relname IN ('papers', 'paper_heads') ORDER BY relname")
    finally:
        await db.close()
    assert [(r[0], r[1]) for r in rows] == [("paper_heads", len(bundled_papers)),
                                            ("papers", len(bundled_papers))]


async def test_a_search_is_one_statement_once_its_figures_are_known(
        postgres_url: str, bundled_papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: the tiers, the page's rows and the catalog version in one round trip (the
    bm25 figures are read once per catalog version), and no reset query on release."""
    db = await PgDatabase.open(postgres_url, pool_size=1)
    store = PgPaperStore(db)
    sent: list[str] = []
    for name in ("fetch", "fetchrow", "fetchval", "execute"):
        monkeypatch.setattr(asyncpg.Connection, name, _counting(getattr(asyncpg.Connection, name),
                                                                sent))
    try:
        await store.load(enumerate(bundled_papers, 1), source=LoadSource("listing"))
        texts = ["grokk", "learning", "vardi", "稳定", "neural networks", "venue:workshop",
                 "learning author:vardi"]
        first = [await store.search(parse_query(t)) for t in texts]
        sent.clear()
        again = [await store.search(parse_query(t)) for t in texts]
    finally:
        await db.close()
    assert any(first) and again == first
    assert len(sent) == len(texts), sent


async def test_a_catalog_change_between_searches_is_seen_in_the_same_snapshot(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    """A store whose bm25 figures are from before another process's add ranks with the new
    version's figures (its statement reads the version it ranks): the same hits and scores as
    a store that never searched before."""
    db = await PgDatabase.open(postgres_url)
    try:
        store, other = PgPaperStore(db), PgPaperStore(db)
        await store.load(enumerate(bundled_papers, 1), source=LoadSource("listing"))
        query = parse_query("learning")
        before = await store.search(query)
        await other.add_papers([dataclasses.replace(
            bundled_papers[0], title_en="Learning to learn, added by another process")])
        after = await store.search(query)
        fresh = await PgPaperStore(db).search(query)
    finally:
        await db.close()
    assert [(h.id, h.score) for h in after] == [(h.id, h.score) for h in fresh]
    assert [(h.id, h.score) for h in after] != [(h.id, h.score) for h in before]


def _counting(method: Any, sent: list[str]) -> Any:
    async def counted(self: asyncpg.Connection, sql: str, *args: Any, **kwargs: Any) -> Any:
        sent.append(sql[:80])
        return await method(self, sql, *args, **kwargs)
    return counted


async def test_a_load_compresses_long_values_with_lz4_where_the_server_has_it(
        postgres_url: str, bundled_papers: list[Paper]) -> None:
    """Issue 26: lz4 rather than pglz for a load's long values (`SET LOCAL`, this load's only:
    values written otherwise keep the server's default)."""
    db = await PgDatabase.open(postgres_url)
    try:
        has_lz4 = await db.fetch_value("SELECT 'lz4' = ANY(enumvals) FROM pg_settings "
                                        "WHERE name = 'default_toast_compression'")
        if not has_lz4:
            pytest.skip("this PostgreSQL server was built without lz4")
        before = await db.fetch_value("SHOW default_toast_compression")
        await PgPaperStore(db).load(enumerate(bundled_papers, 1), source=LoadSource("listing"))
        methods = await db.fetch("SELECT DISTINCT pg_column_compression(summary_zh) FROM papers "
                                  "WHERE pg_column_compression(summary_zh) IS NOT NULL")
        after = await db.fetch_value("SHOW default_toast_compression")
    finally:
        await db.close()
    assert [m[0] for m in methods] == ["lz4"]
    assert before == after == "pglz"  # the server's default, untouched by the load
