"""Topic subscriptions: which members' topics match a new paper, beside asking SQLite per topic.

Set-up, not timed: a synthetic catalog of `--papers` papers (`bench/synthetic.py`) is written and
loaded with `load_catalog` into a temporary database; `--subscribers` members get 5 topics each,
drawn from the catalog's vocabulary (English title words, made-up title words, Chinese terms,
author surnames, some with `venue:` / `honours:` / `year:` / `author:` filters). Building the
`TopicIndex` over all of them is timed and reported.

Measured, in memory (`bot.features.subscriptions.topic_match`), each time including
 `PaperTerms.of(paper)`:

1. paper of the day: `--daily` papers picked at random from the catalog, each timed alone
   (median of 3 passes after a warm-up pass): median and p99;
2. a load of `--load` new papers: the catalog's last papers (as if just loaded), all of them in
   one go; median of 3 passes.

Baselines, same run, same database file:

- pinned: every distinct topic's exact search (`match_expression` and the filters of
  `SqlitePaperStore.search`) pinned to the paper's rowid, through stdlib `sqlite3`: the cheapest
  way to ask SQLite "does this topic find this paper". Measured in full on `--naive-papers` papers
  of the day (and compared with the in-memory answer); the load is that per-paper time ×
  `--load`, extrapolated, not measured.
- full search: every distinct topic's `SqlitePaperStore.search(limit=all)`, what `/paper` runs;
  one pass over the topics answers a whole load at once. Timed on `--naive-topics` topics drawn at
  random and extrapolated to all distinct topics.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.report import progress, publish
from bot.features.catalog.loader import load_catalog
from bot.features.subscriptions.topic_match import (
    CompiledTopic,
    PaperTerms,
    TopicIndex,
    normalise_topic,
)
from domain.paper import Paper
from domain.query import SearchQuery, words_of
from domain.text import CJK_RUN
from storage.db import sqlite_sql
from storage.dialect import SQLITE
from storage.papers.catalog import filter_clauses
from storage.papers.fts import match_expression
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tools.synthetic_catalog import (
    EN_WORDS,
    SURNAMES,
    WORKSHOPS,
    ZH_GLUE,
    synthetic_papers,
    write_listing,
)

TAG = "bench subscriptions"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "subscriptions.md"
TOPICS_PER_MEMBER = 5
DAILY_TARGET_MS = 50.0
LOAD_TARGET_S = 5.0
VOCABULARY_SAMPLE = 5000
"""Papers whose titles feed the made-up words and Chinese terms topics are drawn from."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--papers", type=int, default=100_000, help="catalog size (100000)")
    parser.add_argument("--subscribers", type=int, default=10_000,
                        help=f"members, {TOPICS_PER_MEMBER} topics each (10000)")
    parser.add_argument("--daily", type=int, default=50,
                        help="papers of the day timed one by one (50)")
    parser.add_argument("--load", type=int, default=1000, help="papers in the timed load (1000)")
    parser.add_argument("--naive-papers", type=int, default=5,
                        help="papers of the day run through the pinned SQLite baseline (5)")
    parser.add_argument("--naive-topics", type=int, default=60,
                        help="topics timed through the full-search baseline (60)")
    parser.add_argument("--seed", type=int, default=2026, help="catalog and topics seed")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the Markdown")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, print Markdown and write it to `--out`."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="paperclub-bench-") as tmp:
        result = asyncio.run(_bench(args, Path(tmp)))
    text = _report(args, result, time.perf_counter() - started)
    publish(text, args.out, TAG)
    return 0


def _progress(message: str) -> None:
    progress(TAG, message)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for no values."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


# --- catalog and topics ----------------------------------------------------------------------


@dataclass(slots=True)
class Catalog:
    """The papers the benchmark keeps in memory, and vocabulary for topics."""

    daily: list[Paper]
    load: list[Paper]
    made_up: list[str]
    chinese: list[str]


def _catalog(count: int, seed: int, daily: int, load: int) -> Catalog:
    """Re-generate the listing's papers, keeping only the sampled ones (100k would not fit
    comfortably) and the vocabulary of the first few thousand."""
    rng = random.Random(seed + 1)
    load = min(load, count)
    wanted = set(rng.sample(range(count - load), min(daily, count - load)))
    catalog = Catalog([], [], [], [])
    known = set(EN_WORDS)
    made_up: set[str] = set()
    chinese: set[str] = set()
    for position, paper in enumerate(synthetic_papers(count, seed)):
        if position in wanted:
            catalog.daily.append(paper)
        elif position >= count - load:
            catalog.load.append(paper)
        if position < VOCABULARY_SAMPLE:
            made_up.update(w for w in words_of(paper.title_en) if w not in known
                           and not w.isdigit() and len(w) > 3)
            title = paper.title_zh
            for glue in ZH_GLUE:
                title = title.replace(glue, " ")
            chinese.update(t for t in CJK_RUN.findall(title) if len(t) >= 2)
    rng.shuffle(catalog.daily)
    catalog.made_up, catalog.chinese = sorted(made_up), sorted(chinese)
    return catalog


def _topics(rng: random.Random, count: int, catalog: Catalog) -> list[str]:
    """`count` topics: a mix of kinds, some capitalised (duplicates after normalisation)."""
    en = list(EN_WORDS)

    def word() -> str:
        return rng.choice(en).capitalize() if rng.random() < 0.2 else rng.choice(en)

    def zh() -> str:
        return rng.choice(catalog.chinese)

    def a_filter() -> str:
        choices: list[Callable[[], str]] = [
            lambda: "venue:workshop", lambda: "venue:main", lambda: "honours:spotlight",
            lambda: "year:2026", lambda: f"venue:{rng.choice(WORKSHOPS)[0]}",
            lambda: f"author:{rng.choice(SURNAMES)}",
        ]
        return rng.choice(choices)()

    kinds: list[tuple[float, Callable[[], str]]] = [
        (25, word),
        (15, lambda: f"{word()} {word()}"),
        (10, lambda: rng.choice(catalog.made_up)),
        (20, zh),
        (5, lambda: f"{zh()} {word()}"),
        (10, lambda: f"author:{rng.choice(SURNAMES)}"),
        (15, lambda: f"{rng.choice((word, zh))()} {a_filter()}"),
    ]
    weights = [w for w, _ in kinds]
    makers = [m for _, m in kinds]
    return [rng.choices(makers, weights)[0]() for _ in range(count)]


# --- the baselines ---------------------------------------------------------------------------


def _pinned_sql(query: SearchQuery) -> tuple[str, list[Any]]:
    """The exact search of `SqlitePaperStore.search`, restricted to one rowid (the last `?`)."""
    match = match_expression(query)
    where, params = filter_clauses(query.filters, SQLITE, start=1 if match is None else 2)
    where = [sqlite_sql(clause) for clause in where]  # then `?`: one more than the last `?n`
    if match is None:
        sql = "SELECT 1 FROM papers p WHERE " + " AND ".join([*where, "p.id = ?"])
        return sql, params
    sql = ("SELECT 1 FROM paper_fts JOIN papers p ON p.id = paper_fts.rowid "
           "WHERE paper_fts MATCH ? AND " + " AND ".join([*where, "paper_fts.rowid = ?"]))
    return sql, [match, *params]


Statement = tuple[str, list[Any], tuple[str, ...]]
"""SQL, its parameters before the rowid, and the topic texts it answers for."""


def _pinned_matches(conn: sqlite3.Connection, statements: list[Statement], rowid: int
                    ) -> set[str]:
    """Every topic whose pinned search finds the paper."""
    found: set[str] = set()
    for sql, params, texts in statements:
        if conn.execute(sql, [*params, rowid]).fetchone() is not None:
            found.update(texts)
    return found


# --- the run ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Result:
    """Everything measured."""

    papers: int
    topics: int
    distinct: int
    index_build_ms: float
    load_seconds: float
    daily_ms: list[float]
    daily_matches: list[int]
    load_runs: list[float]
    load_matches: int
    pinned_ms: list[float]
    agree: int
    checked: int
    full_ms: list[float]
    full_hits: list[int]


async def _bench(args: argparse.Namespace, work: Path) -> Result:
    count = args.papers
    _progress(f"writing and loading {count:,} synthetic papers")
    listing = write_listing(work / "catalog.txt", count, args.seed)
    db = await Database.open(work / "bench.db")
    try:
        store = SqlitePaperStore(db)
        started = time.perf_counter()
        report = await load_catalog(store, listing)
        load_seconds = time.perf_counter() - started
        catalog = _catalog(count, args.seed, args.daily, args.load)
        rng = random.Random(args.seed + 2)
        topics = _topics(rng, args.subscribers * TOPICS_PER_MEMBER, catalog)

        _progress(f"indexing {len(topics):,} topics")
        started = time.perf_counter()
        index = TopicIndex(topics)
        index_build_ms = (time.perf_counter() - started) * 1000
        by_key: dict[str, list[str]] = {}
        for text in topics:
            by_key.setdefault(normalise_topic(text), []).append(text)
        compiled = {key: CompiledTopic.compile(texts[0]) for key, texts in by_key.items()}

        _progress(f"paper of the day, {len(catalog.daily)} papers")
        for paper in catalog.daily:
            index.matching(PaperTerms.of(paper))
        daily_ms, daily_matches = [], []
        for paper in catalog.daily:
            samples = []
            for _ in range(3):
                started = time.perf_counter()
                found = index.matching(PaperTerms.of(paper))
                samples.append((time.perf_counter() - started) * 1000)
            daily_ms.append(statistics.median(samples))
            daily_matches.append(len(found))

        _progress(f"load of {len(catalog.load):,} papers")
        load_runs = []
        load_matches = 0
        for _ in range(3):
            started = time.perf_counter()
            load_matches = sum(len(index.matching(PaperTerms.of(p))) for p in catalog.load)
            load_runs.append(time.perf_counter() - started)

        _progress(f"pinned SQLite baseline, {args.naive_papers} papers × {len(compiled):,} topics")
        statements: list[Statement] = []
        for key, topic in compiled.items():
            if topic is not None:
                sql, params = _pinned_sql(topic.query)
                statements.append((sql, params, tuple(by_key[key])))
        conn = sqlite3.connect(work / "bench.db")
        pinned_ms: list[float] = []
        agree = 0
        naive = catalog.daily[: args.naive_papers]
        try:
            for paper in naive:
                row = conn.execute("SELECT id FROM papers WHERE public_id = ?",
                                   (paper.id,)).fetchone()
                started = time.perf_counter()
                found = _pinned_matches(conn, statements, int(row[0]))
                pinned_ms.append((time.perf_counter() - started) * 1000)
                agree += found == index.matching(PaperTerms.of(paper))
        finally:
            conn.close()

        sample = rng.sample(sorted(k for k, t in compiled.items() if t is not None),
                            min(args.naive_topics, len(compiled)))
        _progress(f"full-search baseline, {len(sample)} topics")
        full_ms, full_hits = [], []
        for key in sample:
            topic = compiled[key]
            assert topic is not None
            started = time.perf_counter()
            hits = await store.search(topic.query, limit=count)
            full_ms.append((time.perf_counter() - started) * 1000)
            full_hits.append(len(hits))
    finally:
        await db.close()
    return Result(
        papers=report.loaded, topics=len(topics), distinct=len(index),
        index_build_ms=index_build_ms, load_seconds=load_seconds, daily_ms=daily_ms,
        daily_matches=daily_matches, load_runs=load_runs, load_matches=load_matches,
        pinned_ms=pinned_ms, agree=agree, checked=len(naive), full_ms=full_ms,
        full_hits=full_hits,
    )


# --- the report ------------------------------------------------------------------------------


def _ms(value: float) -> str:
    if math.isnan(value):
        return "—"
    return f"{value:,.2f}" if value < 10 else f"{value:,.0f}"


def _s(ms: float) -> str:
    return "—" if math.isnan(ms) else f"{ms / 1000:,.1f} s" if ms >= 1000 else f"{ms:,.0f} ms"


def _verdict(ok: bool) -> str:
    return "yes" if ok else "**no**"


def _report(args: argparse.Namespace, r: Result, elapsed: float) -> str:
    load_n = args.load
    daily_median, daily_p99 = statistics.median(r.daily_ms), percentile(r.daily_ms, 99)
    load_s = statistics.median(r.load_runs)
    pinned = statistics.mean(r.pinned_ms) if r.pinned_ms else math.nan
    per_topic = statistics.mean(r.full_ms) if r.full_ms else math.nan
    full_pass = per_topic * r.distinct
    lines = [
        "# Topic subscriptions benchmark",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.machine()} · {os.cpu_count()} CPUs · "
        f"Python {platform.python_version()} · SQLite {sqlite3.sqlite_version}",
        "",
        f"{r.papers:,} synthetic papers (loaded in {r.load_seconds:.0f} s, not counted); "
        f"{args.subscribers:,} members × {TOPICS_PER_MEMBER} topics = {r.topics:,} subscriptions, "
        f"{r.distinct:,} distinct after `normalise_topic`. Building the `TopicIndex`: "
        f"{_ms(r.index_build_ms)} ms. In-memory times include `PaperTerms.of(paper)`.",
        "",
        "| | in memory (`TopicIndex`) | naive: each topic's search pinned to the paper | "
        "naive: each topic's full search |",
        "|---|---:|---:|---:|",
        f"| paper of the day, median | {_ms(daily_median)} ms | {_s(pinned)} "
        f"(mean of {len(r.pinned_ms)} papers) | ≈ {_s(full_pass)} (extrapolated) |",
        f"| paper of the day, p99 | {_ms(daily_p99)} ms ({len(r.daily_ms)} papers) | | |",
        f"| load of {load_n:,} new papers | {load_s:.2f} s | ≈ {_s(pinned * load_n)} "
        f"(extrapolated: {load_n:,} × the per-paper time) | ≈ {_s(full_pass)} (extrapolated; "
        "one pass serves the load) |",
        f"| in memory is faster, paper of the day, by | | {pinned / daily_median:,.0f}× | "
        f"{full_pass / daily_median:,.0f}× |",
        "",
        f"Matching topics per paper of the day: median {statistics.median(r.daily_matches):.0f}, "
        f"max {max(r.daily_matches)}; {r.load_matches:,} (paper, topic text) matches in the load. "
        f"The in-memory and the pinned SQLite answers are identical for {r.agree} of "
        f"{r.checked} papers.",
        "",
        f"Pinned baseline: {r.distinct:,} queries per paper through stdlib `sqlite3` on the same "
        "database file (the MATCH of `storage.papers.fts.match_expression` with `rowid = ?`, "
        "plus the "
        "filters of `SqlitePaperStore.search`). Full-search baseline: "
        f"`SqlitePaperStore.search(query, limit={r.papers:,})` timed on {len(r.full_ms)} random "
        f"distinct topics (mean {_ms(per_topic)} ms, median "
        f"{_ms(statistics.median(r.full_ms) if r.full_ms else math.nan)} ms, up to "
        f"{max(r.full_hits, default=0):,} hits) × {r.distinct:,} topics. In-memory paper of the "
        "day: median of 3 passes per paper after a warm-up; load: median of 3 passes.",
        "",
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---|---|",
        f"| paper of the day < {DAILY_TARGET_MS:.0f} ms ({args.subscribers:,} members) | "
        f"median {_ms(daily_median)} ms, p99 {_ms(daily_p99)} ms | "
        f"{_verdict(daily_p99 < DAILY_TARGET_MS)} |",
        f"| load of {load_n:,} papers < {LOAD_TARGET_S:.0f} s | {load_s:.2f} s | "
        f"{_verdict(load_s < LOAD_TARGET_S)} |",
        "",
        f"Whole run: {elapsed:.0f} s.",
    ]
    return "\n".join(lines)
