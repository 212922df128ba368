"""Catalog import and search at 10k / 100k (/ 1M) papers, beside naive baselines from the same run.

For each size: write a synthetic listing with the 30 bundled papers spread inside it (not timed),
import it in a fresh subprocess with `load_catalog` (papers/s, database size, peak RSS), import it
again the naive way (plain table, no full-text index) for comparison, then time a query mix
through `SearchService.search` and through a `LIKE '%q%'` scan of the same database file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from rapidfuzz import fuzz, process

from bench.catalog_queries import (
    KINDS,
    LabelledWord,
    Query,
    known_queries,
    labelled_words,
    real_papers,
    synthetic_queries,
)
from bench.report import progress, publish
from bot.features.catalog.files import LineReader
from bot.features.catalog.listing import ListingParser, ParsedPaper
from bot.features.catalog.loader import load_catalog
from bot.features.papers.fuzzy import Vocabulary
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService, Strategy
from domain.paper import Paper
from storage.papers.fts import BM25, match_expression
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database

try:
    from bench.peer import Peer
except ImportError:  # tantivy is in the `bench` extra
    Peer = None  # type: ignore[assignment,misc]
from tools.synthetic_catalog import write_listing

TAG = "catalog"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "catalog_search.md"
DEFAULT_SIZES = "10000,100000"
LIMIT = 10
LOAD_TRIALS = 5
"""Fresh search services timed after a load, each with its own vocabulary build."""
MB = 1024 * 1024

_LIKE_COLUMNS = ("title_en", "title_zh", "authors", "affiliations", "summary_zh")
LIKE_SQL = (
    "SELECT id, title_en, title_zh, authors FROM papers WHERE "
    + " OR ".join(f"{column} LIKE ?1 ESCAPE '\\'" for column in _LIKE_COLUMNS)
    + f" LIMIT {LIMIT}"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--sizes", default=DEFAULT_SIZES,
                        help=f"comma-separated catalog sizes (default {DEFAULT_SIZES}; "
                             "add 1000000 for the 1M targets)")
    parser.add_argument("--seed", type=int, default=2026, help="synthetic catalog seed")
    parser.add_argument("--synthetic-per-kind", type=int, default=10,
                        help="timing-only queries per kind from the synthetic vocabulary")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measured passes over the mix; each query's median is kept "
                             "(default 1; more steadies p99 on a busy machine)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the Markdown")
    parser.add_argument("--import-worker", nargs=3, metavar=("KIND", "DB", "LISTING"),
                        help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark (or, with the hidden --import-worker, one import) and print Markdown."""
    if args.import_worker:
        kind, db, listing = args.import_worker
        worker = _paperclub_import if kind == "paperclub" else _naive_import
        print(json.dumps(worker(Path(db), Path(listing))))
        return 0
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    started = time.perf_counter()
    papers = real_papers()
    known = known_queries(papers)
    queries = known + synthetic_queries(args.synthetic_per_kind)
    repeat = max(1, args.repeat)
    results = [_bench_size(size, args.seed, papers, queries, repeat) for size in sizes]
    elapsed = time.perf_counter() - started
    text = _report(results, len(known), len(queries), repeat, elapsed)
    publish(text, args.out, TAG)
    return 0


# --- import ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportFigures:
    """One import: how many papers, how fast, how big on disk, how much memory."""

    papers: int
    seconds: float
    db_mb: float
    wal_mb: float
    rss_mb: float
    rss_before_mb: float
    parser_rss_mb: float = 0.0
    """Peak RSS of the catalog parser process the import started (0 when it used none)."""
    cpu_s: float = 0.0
    """CPU seconds of the importing process, and of its parser process (contention aside, the
    larger of the two bounds the import time on two free cores)."""
    parser_cpu_s: float = 0.0
    load_average: float = 0.0
    """The 1-minute load average when the import ended: others' work on the same cores."""

    @property
    def total_rss_mb(self) -> float:
        """Both processes' peaks added (an upper bound of the memory used at once)."""
        return self.rss_mb + self.parser_rss_mb

    @property
    def rate(self) -> float:
        """Papers per second."""
        return self.papers / self.seconds


def _max_rss_mb() -> float:
    """Peak RSS of this process since it started, in MB.

    On Linux `getrusage` maxrss is kept across fork + exec, so a worker would report at least its
    parent's RSS; the kernel's per-process high-water mark (VmHWM) starts afresh at exec.
    """
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / MB if sys.platform == "darwin" else rss / 1024


def _size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists()) / MB


def _paperclub_import(db_path: Path, listing: Path) -> dict[str, float]:
    """Worker: `load_catalog` into a fresh database; the WAL size is taken before it is closed."""

    async def load() -> dict[str, float]:
        before = _max_rss_mb()
        db = await Database.open(db_path)
        try:
            started = time.perf_counter()
            report = await load_catalog(SqlitePaperStore(db), listing)
            seconds = time.perf_counter() - started
            wal = Path(f"{db_path}-wal")
            wal_mb = wal.stat().st_size / MB if wal.exists() else 0.0
        finally:  # an open connection would keep the worker process from exiting
            await db.close()
        own, parser = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                            resource.RUSAGE_CHILDREN))
        return {"papers": report.loaded, "seconds": seconds, "wal_mb": wal_mb,
                "rss_mb": _max_rss_mb(), "rss_before_mb": before,
                "parser_rss_mb": parser.ru_maxrss / 1024, "cpu_s": own.ru_utime + own.ru_stime,
                "parser_cpu_s": parser.ru_utime + parser.ru_stime,
                "load_average": os.getloadavg()[0]}

    return asyncio.run(load())


def _naive_import(db_path: Path, listing: Path) -> dict[str, float]:
    """Worker: the same parser into a plain table with stdlib sqlite3, one transaction, no index."""
    before = _max_rss_mb()
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("CREATE TABLE papers (id INTEGER PRIMARY KEY, title_en TEXT, title_zh TEXT, "
                 "authors TEXT, affiliations TEXT, summary_zh TEXT, comments TEXT)")

    def rows() -> Iterator[tuple[str, ...]]:
        for item in ListingParser().parse(LineReader(listing)):
            if isinstance(item, ParsedPaper):
                p = item.paper
                yield (p.title_en, p.title_zh, json.dumps(p.authors, ensure_ascii=False),
                       json.dumps([[a.en, a.zh] for a in p.affiliations], ensure_ascii=False),
                       p.summary_zh, p.comments)

    started = time.perf_counter()
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO papers (title_en, title_zh, authors, affiliations, summary_zh, "
                     "comments) VALUES (?, ?, ?, ?, ?, ?)", rows())
    conn.execute("COMMIT")
    seconds = time.perf_counter() - started
    papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    wal_mb = _size_mb(db_path) - db_path.stat().st_size / MB
    conn.close()
    return {"papers": papers, "seconds": seconds, "wal_mb": wal_mb,
            "rss_mb": _max_rss_mb(), "rss_before_mb": before}


def _import_in_subprocess(kind: str, db: Path, listing: Path) -> ImportFigures:
    """Run one import in a fresh interpreter so its peak RSS is its own; checkpoint after."""
    command = [sys.executable, "-m", "bench", "catalog", "--import-worker", kind, str(db),
               str(listing)]
    done = subprocess.run(command, cwd=ROOT, check=False, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{kind} import worker failed ({done.returncode}):\n{done.stderr}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return ImportFigures(db_mb=_size_mb(db), **figures)


# --- search ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timed:
    """One measured query: milliseconds and the title ranked first (None when nothing)."""

    query: Query
    ms: float
    top: str | None
    note: str = ""

    @property
    def hit(self) -> bool:
        """The known paper came first."""
        return self.query.expected is not None and self.top == self.query.expected


@dataclass(frozen=True, slots=True)
class Corrections:
    """Typo correction on the labelled set: corrections made, right ones, true typos."""

    made: int
    right: int
    typos: int
    wrong: tuple[str, ...]

    @property
    def precision(self) -> float:
        """Share of corrections made that were right (1.0 when none was made)."""
        return self.right / self.made if self.made else 1.0

    @property
    def recall(self) -> float:
        """Share of true typos corrected right."""
        return self.right / self.typos if self.typos else 1.0


def _score_corrections(labelled: list[LabelledWord], correct: Callable[[str], str | None]
                       ) -> Corrections:
    made = right = 0
    wrong: list[str] = []
    for item in labelled:
        got = correct(item.word)
        if got is None:
            continue
        made += 1
        if got == item.correction:
            right += 1
        else:
            wrong.append(f"{item.word}→{got}")
    typos = sum(1 for item in labelled if item.correction is not None)
    return Corrections(made, right, typos, tuple(wrong))


def _ratio_baseline(terms: list[tuple[str, int]]) -> Callable[[str], str | None]:
    """The rule before plausibility checks: the closest vocabulary word of similar length by
    rapidfuzz ratio >= 75, for any word of 4+ letters not in the vocabulary."""
    known = {t for t, _ in terms if len(t) >= 4}
    by_length: dict[int, list[str]] = {}
    for term in known:
        by_length.setdefault(len(term), []).append(term)

    def correct(word: str) -> str | None:
        if len(word) < 4 or word in known:
            return None
        best: tuple[float, str] | None = None
        for length in range(len(word) - 2, len(word) + 3):
            found = process.extractOne(word, by_length.get(length, []), scorer=fuzz.ratio,
                                       score_cutoff=75)
            if found and (best is None or found[1] > best[0]):
                best = (found[1], found[0])
        return best[1] if best else None

    return correct


async def _corrections(db_path: Path) -> tuple[Corrections, Corrections]:
    """Typo correction on the labelled set: paperclub's, and the plain-ratio baseline's."""
    db = await Database.open(db_path)
    try:
        terms = await SqlitePaperStore(db).vocabulary()
    finally:
        await db.close()
    labelled = labelled_words(real_papers())
    ours = Vocabulary(terms)
    return (_score_corrections(labelled, ours.correct),
            _score_corrections(labelled, _ratio_baseline(terms)))


@dataclass(frozen=True, slots=True)
class TypoFigures:
    """The typo vocabulary around a load: its background build, the first corrected query after
    it, the same query warm (medians), and a typo search arriving before any build (which waits
    for it: only in the first moments of a process)."""

    build_ms: float
    first_ms: float
    warm_ms: float
    unbuilt_ms: float


async def _typo_figures(store: SqlitePaperStore, query: Query) -> TypoFigures:
    """As in the bot: a load ends with `prepare()`, building the vocabulary in the background.
    Medians over `LOAD_TRIALS` fresh services (one first query each is too noisy a sample)."""
    parsed = parse_query(query.text)
    unbuilt = SearchService(store)
    started = time.perf_counter()
    await unbuilt.search(parsed, limit=LIMIT)
    unbuilt_ms = (time.perf_counter() - started) * 1000
    await unbuilt.close()
    builds: list[float] = []
    firsts: list[float] = []
    warm: list[float] = []
    for _ in range(LOAD_TRIALS):
        service = SearchService(store)
        started = time.perf_counter()
        await service.prepare()
        await service.built()
        builds.append((time.perf_counter() - started) * 1000)
        for timings in (firsts, warm, warm, warm):
            started = time.perf_counter()
            outcome = await service.search(parsed, limit=LIMIT)
            timings.append((time.perf_counter() - started) * 1000)
            assert outcome.strategy is Strategy.CORRECTED, query.text
        await service.close()
    return TypoFigures(statistics.median(builds), statistics.median(firsts),
                       statistics.median(warm), unbuilt_ms)


FLOOR_SQL = (f"SELECT rowid, {BM25} FROM paper_fts WHERE paper_fts MATCH ? "
             "ORDER BY rowid DESC LIMIT 1")
"""FTS5's own floor for a ranked answer: bm25 of the newest match only. Before it scores a row,
bm25 scans every match of each phrase for its IDF: about the least a statement ranked by FTS5's
bm25 (the score paperclub shows) over the same words costs."""
BARE_SQL = (f"SELECT rowid, {BM25} AS score FROM paper_fts WHERE paper_fts MATCH ? "
            f"ORDER BY score LIMIT {LIMIT}")
"""A bare FTS5 index: every match ranked by bm25, the first page taken."""


@dataclass(frozen=True, slots=True)
class SearchTimes:
    """Each query's median milliseconds through paperclub, FTS5's floor and bare FTS5, timed
    back to back within each pass (the machine's speed drifts between seconds)."""

    paperclub: list[Timed]
    floor: list[Timed]
    bare: list[Timed]
    peer: list[Timed]


def _timed_peer(peer: Peer | None, query: Query) -> Timed:
    """The peer engine's answer to the query's words (nothing when it is not installed)."""
    words = parse_query(query.text).words
    started = time.perf_counter()
    titles = peer.search(words, LIMIT) if peer is not None and words else []
    return Timed(query, (time.perf_counter() - started) * 1000, titles[0] if titles else None)


def _timed_statement(conn: sqlite3.Connection, sql: str, query: Query) -> Timed:
    """One statement over the query's whole-paper MATCH expression (nothing when it has none)."""
    match = match_expression(parse_query(query.text))
    started = time.perf_counter()
    if match is not None:
        conn.execute(sql, (match,)).fetchall()
    return Timed(query, (time.perf_counter() - started) * 1000, None)


async def _time_paperclub(db_path: Path, queries: list[Query], repeat: int,
                          peer: Peer | None) -> tuple[SearchTimes, TypoFigures]:
    """Time each query through `SearchService.search` after a warm-up with the whole mix, each
    followed by FTS5's floor and bare FTS5 on a plain connection and by the peer engine, and
    the typo vocabulary around a load (`TypoFigures`)."""
    db = await Database.open(db_path)
    plain = sqlite3.connect(db_path)
    try:
        store = SqlitePaperStore(db)
        first_typo = next(q for q in queries if q.kind == "en typo")
        typos = await _typo_figures(store, first_typo)
        service = SearchService(store)
        for query in queries:
            await service.search(parse_query(query.text), limit=LIMIT)
            _timed_statement(plain, FLOOR_SQL, query)
            _timed_statement(plain, BARE_SQL, query)
            _timed_peer(peer, query)
        passes: list[tuple[list[Timed], ...]] = []
        for _ in range(repeat):
            ours, floor, bare, peers = [], [], [], []
            for query in queries:
                started = time.perf_counter()
                outcome = await service.search(parse_query(query.text), limit=LIMIT)
                ms = (time.perf_counter() - started) * 1000
                top = outcome.hits[0].paper.title_en if outcome.hits else None
                ours.append(Timed(query, ms, top, outcome.strategy.value))
                floor.append(_timed_statement(plain, FLOOR_SQL, query))
                bare.append(_timed_statement(plain, BARE_SQL, query))
                peers.append(_timed_peer(peer, query))
            passes.append((ours, floor, bare, peers))
        await service.close()
        return SearchTimes(*(_median_pass(list(runs)) for runs in zip(*passes, strict=True))
                           ), typos
    finally:
        plain.close()
        await db.close()


def _median_pass(passes: list[list[Timed]]) -> list[Timed]:
    """The first pass's results with each query's median time over all passes."""
    return [replace(samples[0], ms=statistics.median(t.ms for t in samples))
            for samples in zip(*passes, strict=True)]


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _time_like(db_path: Path, queries: list[Query], repeat: int) -> list[Timed]:
    """Time the naive scan; each query reads the whole table, so one per kind warms the cache."""
    conn = sqlite3.connect(db_path)
    try:
        warm = {query.kind: query for query in queries}.values()
        for query in warm:
            conn.execute(LIKE_SQL, (f"%{_escape_like(query.text)}%",)).fetchall()
        passes: list[list[Timed]] = []
        for _ in range(repeat):
            timed = []
            for query in queries:
                started = time.perf_counter()
                rows = conn.execute(LIKE_SQL, (f"%{_escape_like(query.text)}%",)).fetchall()
                ms = (time.perf_counter() - started) * 1000
                timed.append(Timed(query, ms, rows[0][1] if rows else None))
            passes.append(timed)
        return _median_pass(passes)
    finally:
        conn.close()


# --- one size --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SizeResult:
    """Everything measured at one catalog size."""

    size: int
    generate_seconds: float
    paperclub_import: ImportFigures
    naive_import: ImportFigures
    paperclub: list[Timed]
    like: list[Timed]
    floor: list[Timed]
    bare: list[Timed]
    peer: list[Timed]
    peer_index: PeerIndex | None
    typos: TypoFigures
    missing: list[str]
    corrections: tuple[Corrections, Corrections]


def _progress(message: str) -> None:
    progress(TAG, message)


def _missing_titles(db: Path, papers: list[Paper]) -> list[str]:
    """Real papers that did not make it into the database (should be none)."""
    conn = sqlite3.connect(db)
    try:
        placeholders = ",".join("?" * len(papers))
        stored = {row[0] for row in conn.execute(
            f"SELECT title_en FROM papers WHERE title_en IN ({placeholders})",
            [p.title_en for p in papers])}
    finally:
        conn.close()
    return [p.title_en for p in papers if p.title_en not in stored]


def _bench_size(size: int, seed: int, papers: list[Paper], queries: list[Query], repeat: int
                ) -> SizeResult:
    with tempfile.TemporaryDirectory(prefix="paperclub-bench-") as tmp:
        work = Path(tmp)
        _progress(f"{size:,}: writing the synthetic listing")
        started = time.perf_counter()
        listing = write_listing(work / "catalog.txt", size, seed, real=list(papers))
        generated = time.perf_counter() - started
        _progress(f"{size:,}: importing with load_catalog (subprocess)")
        db = work / "paperclub.db"
        ours = _import_in_subprocess("paperclub", db, listing)
        _progress(f"{size:,}: importing the naive way (subprocess)")
        naive = _import_in_subprocess("naive", work / "naive.db", listing)
        (work / "naive.db").unlink()
        listing.unlink()
        missing = _missing_titles(db, papers)
        peer, peer_index = _build_peer(db, size)
        _progress(f"{size:,}: timing {len(queries)} queries through SearchService"
                  + (" and the peer" if peer else ""))
        try:
            searches, typos = asyncio.run(_time_paperclub(db, queries, repeat, peer))
        finally:
            if peer is not None:
                peer.close()
        _progress(f"{size:,}: timing {len(queries)} queries with LIKE")
        like = _time_like(db, queries, repeat)
        corrections = asyncio.run(_corrections(db))
    return SizeResult(size, generated, ours, naive, searches.paperclub, like, searches.floor,
                      searches.bare, searches.peer, peer_index, typos, missing, corrections)


@dataclass(frozen=True, slots=True)
class PeerIndex:
    """Building the peer's index from the database: seconds and size on disk."""

    seconds: float
    mb: float


def _build_peer(db: Path, size: int) -> tuple[Peer | None, PeerIndex | None]:
    """The peer engine over the database's papers (None when tantivy is not installed)."""
    if Peer is None:
        _progress("tantivy is not installed (pip install -e '.[bench]'): no peer")
        return None, None
    _progress(f"{size:,}: indexing the peer (tantivy)")
    started = time.perf_counter()
    peer = Peer(db)
    return peer, PeerIndex(time.perf_counter() - started, peer.size_mb())


# --- report ----------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for no values."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def _times(timed: list[Timed], kind: str | None = None, known: bool | None = None
           ) -> list[float]:
    """Milliseconds, optionally of one kind, or only queries with (or without) a known answer."""
    return [t.ms for t in timed if (kind is None or t.query.kind == kind)
            and (known is None or (t.query.expected is not None) == known)]


def _hits(timed: list[Timed], kind: str | None = None) -> tuple[int, int]:
    judged = [t for t in timed if t.query.expected and (kind is None or t.query.kind == kind)]
    return sum(t.hit for t in judged), len(judged)


def _ms(value: float) -> str:
    if math.isnan(value):
        return "—"
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 100 else f"{value:,.0f}"


def _faster(ours: float, theirs: float) -> str:
    if not (ours > 0 and theirs > 0):  # also catches NaN
        return "—"
    ratio = theirs / ours
    if ratio < 1:
        return f"{1 / ratio:.1f}× slower"
    return f"{ratio:.1f}× faster" if ratio < 10 else f"{ratio:,.0f}× faster"


def _correction_rows(corrections: tuple[Corrections, Corrections]) -> list[str]:
    ours, ratio = corrections
    return [
        f"| typo correction precision (labelled set; baseline: plain ratio ≥ 75) | "
        f"{ours.precision:.0%} ({ours.right}/{ours.made}) | "
        f"{ratio.precision:.0%} ({ratio.right}/{ratio.made}) | |",
        f"| typo correction recall ({ours.typos} true typos) | "
        f"{ours.recall:.0%} ({ours.right}/{ours.typos}) | "
        f"{ratio.recall:.0%} ({ratio.right}/{ratio.typos}) | |",
        "| wrong corrections | " + (", ".join(f"`{w}`" for w in ours.wrong[:8]) or "none")
        + " | " + (", ".join(f"`{w}`" for w in ratio.wrong[:8]) or "none") + " | |",
    ]


def _size_table(r: SizeResult) -> list[str]:
    ours, like = r.paperclub, r.like
    om, lm = statistics.median(_times(ours)), statistics.median(_times(like))
    o99, l99 = percentile(_times(ours), 99), percentile(_times(like), 99)
    oh, n = _hits(ours)
    lh, _ = _hits(like)
    rows = [
        f"### {r.size:,} papers",
        "",
        *_peer_table(r),
        "| metric | paperclub FTS | naive LIKE | ratio |",
        "|---|---:|---:|---:|",
        f"| search median ms | {_ms(om)} | {_ms(lm)} | {_faster(om, lm)} |",
        f"| search p99 ms | {_ms(o99)} | {_ms(l99)} | {_faster(o99, l99)} |",
        f"| hit@1 (known paper first) | {oh}/{n} | {lh}/{n} | {oh - lh:+d} |",
        *_fts5_rows(r),
    ]
    for known, label in ((True, "real-paper queries"), (False, "synthetic-vocabulary queries")):
        ok99, lk99 = (percentile(_times(ours, known=known), 99),
                      percentile(_times(like, known=known), 99))
        rows.append(f"| p99 ms, {label} | {_ms(ok99)} | {_ms(lk99)} | {_faster(ok99, lk99)} |")
    for kind in KINDS:
        kh, kn = _hits(ours, kind)
        lkh, _ = _hits(like, kind)
        rows.append(f"| hit@1 {kind} | {kh}/{kn} | {lkh}/{kn} | {kh - lkh:+d} |")
    for kind in KINDS:
        k99, lk99 = percentile(_times(ours, kind), 99), percentile(_times(like, kind), 99)
        rows.append(f"| p99 ms {kind} | {_ms(k99)} | {_ms(lk99)} | {_faster(k99, lk99)} |")
    slowest = sorted(ours, key=lambda t: t.ms, reverse=True)[:3]
    strategies = Counter(t.note for t in ours)
    pi, ni, ty = r.paperclub_import, r.naive_import, r.typos
    rows += [
        "| slowest paperclub queries | " + "; ".join(
            f"`{t.query.text}` ({t.query.kind}, {t.note}) {_ms(t.ms)}" for t in slowest)
        + " | | |",
        "| paperclub strategies | " + ", ".join(f"{k} {v}" for k, v in strategies.most_common())
        + " | | |",
        f"| typo vocabulary build after a load (background) ms | {_ms(ty.build_ms)} | | |",
        f"| first corrected query after a load ms (warm), medians of {LOAD_TRIALS} loads "
        f"| {_ms(ty.first_ms)} "
        f"({_ms(ty.warm_ms)}) | | {ty.first_ms / ty.warm_ms:.1f}× warm |",
        f"| typo search arriving before any build (waits for it) ms | {_ms(ty.unbuilt_ms)} | | |",
        *_correction_rows(r.corrections),
        f"| import papers/s | {pi.rate:,.0f} | {ni.rate:,.0f} | "
        f"{pi.rate / ni.rate:.2f}× the rate |",
        f"| import seconds | {pi.seconds:.1f} | {ni.seconds:.1f} | |",
        f"| DB MB (WAL checkpointed) | {pi.db_mb:,.1f} | {ni.db_mb:,.1f} | "
        f"{pi.db_mb / ni.db_mb:.1f}× |",
        f"| WAL MB at commit | {pi.wal_mb:,.1f} | {ni.wal_mb:,.1f} | |",
        f"| peak RSS MB (before load) | {pi.rss_mb:.0f} ({pi.rss_before_mb:.0f}) | "
        f"{ni.rss_mb:.0f} ({ni.rss_before_mb:.0f}) | |",
        f"| parser process: peak RSS MB, CPU s | {pi.parser_rss_mb:.0f}, "
        f"{pi.parser_cpu_s:.1f} | | |",
        f"| importing process CPU s; load average at the end | {pi.cpu_s:.1f}; "
        f"{pi.load_average:.1f} | | |",
        "",
        f"Listing written in {r.generate_seconds:.1f} s (not counted). Naive LIKE column for import"
        " rows: the same parser into a plain table without any full-text index. Peak RSS is the"
        " import subprocess's own high-water mark (VmHWM where available).",
    ]
    misses = [t for t in ours if t.query.expected and not t.hit]
    if misses:
        rows.append("")
        rows.append("paperclub misses (query → first title): " + "; ".join(
            f"`{t.query.text}` ({t.query.kind}) → {_short(t.top)}" for t in misses))
    if r.paperclub_import.papers != r.size:
        rows.append("")
        rows.append(f"**Warning:** {r.paperclub_import.papers:,} papers loaded, not {r.size:,}.")
    if r.missing:
        rows.append("")
        rows.append(f"**Warning:** real papers missing from the database: {r.missing}")
    return rows


def _kind_cell(kind: str, hits: Callable[[list[Timed], str | None], str]
               ) -> Callable[[list[Timed]], str]:
    return lambda timed: f"{_ms(percentile(_times(timed, kind), 99))}, {hits(timed, kind)}"


def _peer_table(r: SizeResult) -> list[str]:
    """paperclub, the peer engine, FTS5's floor and LIKE from the same run, side by side."""
    columns = (r.paperclub, r.peer, r.floor, r.like)
    if r.peer_index is None:
        return ["(no peer: tantivy is not installed; `pip install -e '.[bench]'`)", ""]

    def row(label: str, value: Callable[[list[Timed]], str]) -> str:
        return f"| {label} | " + " | ".join(value(timed) for timed in columns) + " |"

    def hits(timed: list[Timed], kind: str | None = None) -> str:
        if timed is r.floor:
            return "—"
        got, n = _hits(timed, kind)
        return f"{got}/{n}"

    o99, p99 = percentile(_times(r.paperclub), 99), percentile(_times(r.peer), 99)
    oh, _ = _hits(r.paperclub)
    ph, _ = _hits(r.peer)
    pi = r.paperclub_import
    lines = [
        f"| all {len(r.paperclub)} queries | paperclub | tantivy peer | FTS5's floor | LIKE |",
        "|---|---:|---:|---:|---:|",
        row("median ms", lambda t: _ms(statistics.median(_times(t)))),
        row("p99 ms", lambda t: _ms(percentile(_times(t), 99))),
        row("hit@1", hits),
        *(row(f"{kind}: p99 ms, hit@1", _kind_cell(kind, hits)) for kind in KINDS),
        f"| index on disk MB | {pi.db_mb:,.1f} (whole database) | {r.peer_index.mb:,.1f} "
        f"(built in {r.peer_index.seconds:.1f} s) | | |",
        "",
        f"paperclub's p99 is {o99 / p99:.2f}× the peer's; hit@1 {oh - ph:+d} against it.",
    ]
    misses = [t for t in r.peer if t.query.expected and not t.hit]
    if misses:
        lines.append("Peer misses (query → first title): " + "; ".join(
            f"`{t.query.text}` ({t.query.kind}) → {_short(t.top)}" for t in misses))
    return [*lines, ""]


def _fts5_rows(r: SizeResult) -> list[str]:
    """paperclub beside FTS5's floor and a bare FTS5 index, timed back to back with it."""
    o99, f99, b99 = (percentile(_times(timed), 99) for timed in (r.paperclub, r.floor, r.bare))
    per_kind = " · ".join(f"{kind} {_ms(percentile(_times(r.floor, kind), 99))}"
                          for kind in KINDS)
    return [
        f"| search p99 ms, FTS5's floor: bm25 of the newest match only (median) | {_ms(f99)} "
        f"({_ms(statistics.median(_times(r.floor)))}) | | paperclub {o99 / f99:.1f}× the floor |",
        f"| search p99 ms, bare FTS5: bm25 over every match, first {LIMIT} | {_ms(b99)} | | "
        f"paperclub {_faster(o99, b99)} |",
        f"| p99 ms per kind, FTS5's floor | {per_kind} | | |",
    ]


def _short(title: str | None, width: int = 40) -> str:
    if title is None:
        return "nothing"
    return f"“{title[: width - 1]}…”" if len(title) > width else f"“{title}”"


def _passes(repeat: int) -> str:
    return "one measured pass" if repeat == 1 else f"median of {repeat} measured passes"


def _verdict(ok: bool) -> str:
    return "yes" if ok else "**no**"


def _targets(results: list[SizeResult]) -> list[str]:
    by_size = {r.size: r for r in results}
    rows = ["## Targets (from the issue)", "", "| target | measured | met |", "|---|---|---|"]
    at100k = by_size.get(100_000)
    if at100k:
        o99 = percentile(_times(at100k.paperclub), 99)
        l99 = percentile(_times(at100k.like), 99)
        rows += [f"| search p99 ≥ 25× faster than LIKE at 100k | {l99 / o99:.1f}× | "
                 f"{_verdict(l99 / o99 >= 25)} |"]
    else:
        rows += ["| search p99 ≥ 25× faster than LIKE at 100k | not run | — |"]
    rows += _peer_targets(by_size)
    rates = ", ".join(f"{r.size:,}: {r.paperclub_import.rate:,.0f}/s" for r in results)
    rows.append(f"| import ≥ 10k papers/s | {rates} | "
                f"{_verdict(all(r.paperclub_import.rate >= 10_000 for r in results))} |")
    at1m = by_size.get(1_000_000)
    if at1m:
        imp = at1m.paperclub_import
        rows += [f"| 1M papers import < 3 min | {imp.seconds:.0f} s | "
                 f"{_verdict(imp.seconds < 180)} |",
                 f"| 1M papers peak RSS < 500 MB (bot + parser process) | "
                 f"{imp.rss_mb:.0f} + {imp.parser_rss_mb:.0f} MB | "
                 f"{_verdict(imp.total_rss_mb < 500)} |"]
    else:
        rows += ["| 1M papers import < 3 min | not run (`--sizes 10000,100000,1000000`) | — |",
                 "| 1M papers peak RSS < 500 MB | not run | — |"]
    return rows


def _peer_targets(by_size: dict[int, SizeResult]) -> list[str]:
    """Issue 26's targets against the peer: p99 within 1.5× at 100k (2× at 1M), hit@1 ≥."""
    rows = []
    for size, bound in ((100_000, 1.5), (1_000_000, 2.0)):
        r = by_size.get(size)
        if r is None or r.peer_index is None:
            rows.append(f"| p99 within {bound}× the peer's at {size:,} | not run | — |")
            continue
        ratio = percentile(_times(r.paperclub), 99) / percentile(_times(r.peer), 99)
        rows.append(f"| p99 within {bound}× the peer's at {size:,} | {ratio:.2f}× | "
                    f"{_verdict(ratio <= bound)} |")
        if size == 100_000:
            (oh, n), (ph, _) = _hits(r.paperclub), _hits(r.peer)
            rows.append(f"| hit@1 ≥ the peer's at 100k | {oh}/{n} against {ph}/{n} | "
                        f"{_verdict(oh >= ph)} |")
    return rows


def _report(results: list[SizeResult], known: int, total: int, repeat: int, elapsed: float
            ) -> str:
    lines = [
        "# Catalog import and search benchmark",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.machine()} · {os.cpu_count()} CPUs · "
        f"Python {platform.python_version()} · SQLite {sqlite3.sqlite_version}",
        "",
        f"{total} queries of {len(KINDS)} kinds ({', '.join(KINDS)}); {known} derived from the 30 "
        "real papers (answer known, counted in hit@1), the rest from the synthetic vocabulary "
        f"(timing only). Each query is timed after a warm-up ({_passes(repeat)}); paperclub "
        "through "
        f"`SearchService.search` (limit {LIMIT}), naive as `LIKE '%q%'` over "
        f"{', '.join(_LIKE_COLUMNS)} with no ORDER BY, on the same database file. Right after "
        "each paperclub search, on a plain connection to the same file, its words' whole-paper "
        "MATCH expression is timed twice more: FTS5's floor (bm25 of the newest match only: "
        "bm25 scans every match of each phrase for its IDF before it scores a row, about the "
        "least an answer ranked by that score costs) and a bare FTS5 index (bm25 over every match, "
        f"the first {LIMIT} taken). A typo's floor finds nothing and costs almost nothing.",
        "",
    ]
    for result in results:
        lines += [*_size_table(result), ""]
    lines += _targets(results)
    lines += ["", f"Whole run: {elapsed:.0f} s."]
    return "\n".join(lines)
