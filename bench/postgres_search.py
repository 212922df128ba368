"""`/paper` lookups on SQLite vs PostgreSQL at 100k papers: lookups per second with several
lookups in flight from one process, and search p99, over the catalog benchmark's query mix.

The PostgreSQL server is a throwaway one (tools/throwaway_postgres.py, as the tests use),
started and removed by the run; both backends load the same synthetic listing and answer the
same queries, ranked the same way (bm25 on both)."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bench.catalog_queries import known_queries, real_papers
from bench.report import fmt_ms, p99, progress, publish
from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from storage.backend import PAPERS, AnyDatabase
from storage.postgres.database import PgDatabase
from storage.sqlite.database import Database
from tools.synthetic_catalog import write_listing
from tools.throwaway_postgres import PostgresServer, started_server

TAG = "postgres"
OUT = Path(__file__).parent / "out" / "postgres_search.md"


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--size", type=int, default=100_000, help="papers in the catalog")
    parser.add_argument("--lookups", type=int, default=2000, help="lookups per backend")
    parser.add_argument("--in-flight", type=int, default=8,
                        help="lookups in flight at once (one process)")


async def _measure(db: AnyDatabase, texts: list[str], lookups: int,
                   in_flight: int) -> tuple[float, float, float]:
    """(lookups per second with `in_flight` concurrent, their p99 ms, sequential p99 ms)."""
    search = SearchService(PAPERS.open(db))
    queries = [parse_query(texts[i % len(texts)]) for i in range(lookups)]
    for query in queries[: len(texts)]:  # warm caches and plans
        await search.search(query, limit=10)
    sequential = []
    for query in queries[: len(texts)]:
        start = time.perf_counter()
        await search.search(query, limit=10)
        sequential.append((time.perf_counter() - start) * 1000)
    latencies: list[float] = []
    pending = iter(queries)

    async def worker() -> None:
        for query in pending:
            start = time.perf_counter()
            await search.search(query, limit=10)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    elapsed = time.perf_counter() - start
    await search.close()
    return lookups / elapsed, p99(latencies), p99(sequential)


async def _bench(args: argparse.Namespace, server: PostgresServer, work: Path) -> str:
    papers = real_papers()
    texts = [q.text for q in known_queries(papers)]
    listing = write_listing(work / "catalog.txt", args.size, real=papers)
    rows = []
    for name in ("SQLite", "PostgreSQL"):
        db: AnyDatabase
        if name == "SQLite":
            db = await Database.open(work / "bench.db")
        else:
            db = await PgDatabase.open(await server.fresh_database(migrated=False))
        try:
            progress(TAG, f"loading {args.size:,} papers into {name}")
            start = time.perf_counter()
            await load_catalog(PAPERS.open(db), listing)
            loaded = time.perf_counter() - start
            progress(TAG, f"{args.lookups:,} lookups on {name}")
            rows.append((name, loaded, *await _measure(db, texts, args.lookups, args.in_flight)))
        finally:
            await db.close()
    lines = [f"## `/paper` lookups at {args.size:,} papers, one process",
             "", f"{len(texts)} labelled queries, {args.lookups:,} lookups, "
             f"{args.in_flight} in flight", "",
             "| backend | import s | lookups/s | p99 ms (in flight) | "
             "search p99 ms (one at a time) |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {n} | {load:,.1f} | {rate:,.0f} | {fmt_ms(busy)} | {fmt_ms(alone)} |"
              for n, load, rate, busy, alone in rows]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Start a throwaway PostgreSQL, measure both backends, print the table."""
    with started_server() as server:
        if server is None:
            progress(TAG, "PostgreSQL binaries not found (initdb, pg_ctl, postgres): not run")
            return 2
        with tempfile.TemporaryDirectory(prefix="paperclub-bench-pg-") as scratch:
            publish(asyncio.run(_bench(args, server, Path(scratch))), OUT, TAG)
    return 0
