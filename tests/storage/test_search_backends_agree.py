"""The bench's labelled queries on both backends over the same catalog: the same hit@1 and,
for queries answered without typo correction, the same top-10 sets (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.catalog_queries import Query, known_queries
from bot.core.models import Paper
from bot.core.query import parse_query
from bot.services.catalog_loader import load_catalog
from bot.services.search import SearchService, Strategy
from storage.database import Database
from storage.papers import SqlitePaperStore
from storage.postgres.database import PgDatabase
from storage.postgres.papers import PgPaperStore
from tools.synthetic_catalog import write_listing
from tools.throwaway_postgres import PostgresServer

SYNTHETIC = 600


async def _answers(search: SearchService, texts: list[str]) -> list[tuple[str, list[str]]]:
    found = []
    for text in texts:
        outcome = await search.search(parse_query(text), limit=10)
        found.append((outcome.strategy.value, [hit.paper.id for hit in outcome.hits]))
    return found


async def _results(tmp_path: Path, bundled_papers: list[Paper],
                   postgres_server: PostgresServer | None
                   ) -> tuple[list[Query], list[list[tuple[str, list[str]]]]]:
    if postgres_server is None:
        pytest.skip("PostgreSQL not found: the PostgreSQL half of the contract suite was NOT run")
    listing = write_listing(tmp_path / "catalog.txt", SYNTHETIC, real=list(bundled_papers))
    queries = known_queries(bundled_papers)
    texts = [q.text for q in queries]
    sqlite = await Database.open(tmp_path / "agree.db")
    url = await postgres_server.fresh_database()
    pg = await PgDatabase.open(url)
    try:
        results = []
        for store in (SqlitePaperStore(sqlite), PgPaperStore(pg)):
            await load_catalog(store, listing)
            search = SearchService(store)
            results.append(await _answers(search, texts))
            await search.close()
    finally:
        await sqlite.close()
        await pg.close()
        await postgres_server.drop_database(url)
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
@pytest.mark.xfail(strict=True, reason="PostgreSQL ranks with ts_rank, not FTS5's bm25: a "
                   "frequent prefix (`control`, `distrib`) ranks other papers in its ten (and "
                   "one query another first paper); exact bm25 on PostgreSQL is wave 2")
async def test_exact_queries_have_the_same_top_ten_sets_on_both_backends(
        tmp_path: Path, bundled_papers: list[Paper],
        postgres_server: PostgresServer | None) -> None:
    queries, (lite, post) = await _results(tmp_path, bundled_papers, postgres_server)
    differing = [(q.kind, q.text) for q, a, b in zip(queries, lite, post, strict=True)
                 if a[0] == Strategy.EXACT.value
                 and (set(a[1]) != set(b[1]) or a[1][:1] != b[1][:1])]
    assert differing == []
