"""`/paper` lookups on SQLite vs PostgreSQL at 100k papers: lookups per second with several
lookups in flight from one process, and search p99, over the catalog benchmark's query mix.

The PostgreSQL server is a throwaway one (tools/throwaway_postgres.py, as the tests use),
started and removed by the run; both backends load the same synthetic listing and answer the
same queries, ranked the same way (bm25 on both), each warmed up as the bot starts it. The
search p99 times every query several times, one at a time, the backends taking turns query by
query; lookups per second keep `--in-flight` searches going on one backend at a time."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from bench.catalog_queries import known_queries, real_papers
from bench.report import fmt_ms, p99, progress, publish
from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from domain.query import SearchQuery
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
    parser.add_argument("--passes", type=int, default=5,
                        help="passes of every query one at a time (the search p99)")


async def _rate(search: SearchService, queries: list[SearchQuery],
                in_flight: int) -> tuple[float, float]:
    """(lookups per second with `in_flight` concurrent, their p99 ms)."""
    latencies: list[float] = []
    pending = iter(queries)

    async def worker() -> None:
        for query in pending:
            start = time.perf_counter()
            await search.search(query, limit=10)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return len(queries) / (time.perf_counter() - start), p99(latencies)


async def _one_at_a_time(searches: dict[str, SearchService], texts: list[str],
                         passes: int) -> dict[str, list[float]]:
    """Each query's search time on each backend, `passes` times, the backends taking turns
    query by query (this machine's speed drifts between runs minutes apart)."""
    times: dict[str, list[float]] = {name: [] for name in searches}
    for _ in range(passes):
        for text in texts:
            query = parse_query(text)
            for name, search in searches.items():
                start = time.perf_counter()
                await search.search(query, limit=10)
                times[name].append((time.perf_counter() - start) * 1000)
    return times


async def _bench(args: argparse.Namespace, server: PostgresServer, work: Path) -> str:
    papers = real_papers()
    texts = [q.text for q in known_queries(papers)]
    listing = write_listing(work / "catalog.txt", args.size, real=papers)
    dbs: dict[str, AnyDatabase] = {}
    loaded: dict[str, float] = {}
    searches: dict[str, SearchService] = {}
    try:
        for name in ("SQLite", "PostgreSQL"):
            dbs[name] = (await Database.open(work / "bench.db") if name == "SQLite" else
                         await PgDatabase.open(await server.fresh_database(migrated=False)))
            progress(TAG, f"loading {args.size:,} papers into {name}")
            os.sync()  # the other load's writes are on disk: not flushed during this one
            start = time.perf_counter()
            await load_catalog(PAPERS.open(dbs[name]), listing)
            loaded[name] = time.perf_counter() - start
            search = searches[name] = SearchService(PAPERS.open(dbs[name]))
            await search.prepare()  # as the bot starts: typo vocabulary, store warmed up
            await search.built()
            for text in texts:  # warm caches and plans
                await search.search(parse_query(text), limit=10)
        progress(TAG, f"{args.passes} passes of {len(texts)} searches one at a time, the "
                 "backends taking turns")
        alone = await _one_at_a_time(searches, texts, args.passes)
        rows = []
        for name, search in searches.items():
            progress(TAG, f"{args.lookups:,} lookups on {name}, {args.in_flight} in flight")
            queries = [parse_query(texts[i % len(texts)]) for i in range(args.lookups)]
            rate, busy = await _rate(search, queries, args.in_flight)
            rows.append((name, loaded[name], rate, busy, p99(alone[name]),
                         statistics.median(alone[name])))
    finally:
        for search in searches.values():
            await search.close()
        for db in dbs.values():
            await db.close()
    (_, sq_load, sq_rate, _, sq_p99, _), (_, pg_load, pg_rate, _, pg_p99, _) = rows
    lines = [f"## `/paper` lookups at {args.size:,} papers, one process",
             "", f"{len(texts)} labelled queries; {args.lookups:,} lookups per backend with "
             f"{args.in_flight} in flight; one at a time, {args.passes} passes of every query, "
             "the backends taking turns query by query. Both warmed up as the bot starts them "
             "(`SearchService.prepare`).", "",
             "| backend | import s | lookups/s | p99 ms (in flight) | "
             "search p50 / p99 ms (one at a time) |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {n} | {load:,.1f} | {rate:,.0f} | {fmt_ms(busy)} | {fmt_ms(med)} / "
              f"{fmt_ms(alone_p99)} |" for n, load, rate, busy, alone_p99, med in rows]
    lines += ["", f"PostgreSQL against SQLite: search p99 {pg_p99 / sq_p99:.2f}× (target ≤ 2×), "
              f"lookups/s {sq_rate / pg_rate:.2f}× fewer (≤ 2×), import {pg_load / sq_load:.2f}× "
              "longer (≤ 2.5×)."]
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
