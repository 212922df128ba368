"""How fast one member's recommendations are ranked at catalog sizes of 100k and 1M papers, how
long the features take to fit, how much memory they hold, and how long they take to be stored
and read back (the start of a restarted bot) in SQLite.

The catalog is the real sample repeated with numbered titles and rotated abstract sentences (no
two copies have the same text). Ranking time is wall-clock and CPU time per ranking (the CPU
time says what the ranking costs when the machine is shared), p50 and p99 over `runs` rankings
per seed count; members are the quality benchmark's, seeded with their k earliest papers.
"""

from __future__ import annotations

import asyncio
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import scipy.sparse as sp

from bench.report import p99 as report_p99
from bench.report import progress
from bot.features.recommend import features, model
from bot.features.recommend.keeper import FeatureKeeper, encode_rows
from bot.features.recommend.profile import seed_profile
from domain.paper import Paper
from domain.recommend import StoredVector
from storage.backend import RECOMMEND_FEATURES
from storage.sqlite.database import Database

TAG = "recommend"
SEEDS = (1, 3, 10)
TOP = 10
STORE_UP_TO = 200_000
"""Catalogs up to this size are also stored in and read back from a SQLite file."""


def scaled(papers: Sequence[Paper], size: int) -> list[Paper]:
    """`size` papers from the sample, repeated with a numbered title (distinct ids) and the
    abstract's sentences rotated, so that no two copies have the same text."""
    grown = []
    for i in range(size):
        base = papers[i % len(papers)]
        copy = i // len(papers)
        sentences = base.summary_en.split(". ")
        turn = copy % max(1, len(sentences))
        grown.append(replace(base, title_en=f"{base.title_en} ({copy})" if copy else
                             base.title_en,
                             summary_en=". ".join(sentences[turn:] + sentences[:turn])))
    return grown


def rss_mb() -> float:
    """The process's resident memory now."""
    with open(f"/proc/{os.getpid()}/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mb() -> float:
    """The process's peak resident memory so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass(frozen=True)
class Latency:
    """Fitting the features and ranking for members at one catalog size."""

    papers: int
    build_s: float
    build_cpu_s: float
    matrix_mb: float
    rss_mb: float
    """The process's resident memory with the catalog and its features loaded."""
    peak_mb: float
    wall_ms: dict[int, tuple[float, float]]
    """k -> (p50, p99) wall-clock time of one ranking."""
    cpu_ms: dict[int, tuple[float, float]]
    stored_s: float | None
    read_s: float | None
    load: float
    """The machine's 1-minute load average when the rankings ran."""


def _quantiles(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), report_p99(values)


async def _round_trip(index: features.FeatureIndex, folder: Path) -> tuple[float, float]:
    """Seconds to store every vector and the vocabulary in SQLite, and to read them back."""
    db = await Database.open(folder / "features.db")
    try:
        store = RECOMMEND_FEATURES.open(db)
        now = datetime.now(UTC)
        began = time.perf_counter()
        revision = await store.start(1, len(index), now)
        for at in range(0, len(index), 2000):
            rows = encode_rows(index.matrix[at:at + 2000])
            await store.write(revision, [StoredVector(pid, "", v) for pid, v in
                                         zip(index.ids[at:at + 2000], rows, strict=True)])
        await store.finish(revision, index.vocabulary.encode(), now)
        stored = time.perf_counter() - began
        fit = await store.current()
        assert fit is not None
        began = time.perf_counter()
        back = await FeatureKeeper.read_fit(store, fit, 0)
        read = time.perf_counter() - began
        assert back is not None and back.index.ids == index.ids
        return stored, read
    finally:
        await db.close()


def latency(papers: Sequence[Paper], size: int, members: Sequence[Sequence[str]],
            runs: int) -> Latency:
    """Features fitted once; `runs` rankings (a member's `/recommend`) per seed count."""
    grown = scaled(papers, size)
    started, started_cpu = time.perf_counter(), time.process_time()
    index = features.build(grown)
    build, build_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    del grown
    progress(TAG, f"{size:,} papers: features fitted in {build:.1f} s (CPU {build_cpu:.1f} s)")
    return _ranked(index, size, members, runs, build, build_cpu, store=size <= STORE_UP_TO)


def _ranked(index: features.FeatureIndex, size: int, members: Sequence[Sequence[str]],
            runs: int, build: float, build_cpu: float, *, store: bool) -> Latency:
    """Time `runs` rankings per seed count on a fitted index (and its SQLite round trip)."""
    matrix = index.matrix
    megabytes = (matrix.data.nbytes + matrix.indices.nbytes + matrix.indptr.nbytes) / 2**20
    _ = index.sample_order
    wall, cpu = {}, {}
    for k in SEEDS:
        walls, cpus = [], []
        for i in range(runs):
            seeds = members[i % len(members)][:k]
            began, began_cpu = time.perf_counter(), time.process_time()
            model.recommend(index, seed_profile(seeds), TOP)
            walls.append((time.perf_counter() - began) * 1000)
            cpus.append((time.process_time() - began_cpu) * 1000)
        wall[k], cpu[k] = _quantiles(walls), _quantiles(cpus)
        progress(TAG, f"{size:,} papers k={k}: p99 {wall[k][1]:.0f} ms "
                      f"(CPU {cpu[k][1]:.0f} ms)")
    load = os.getloadavg()[0]
    stored = read = None
    if store:
        with tempfile.TemporaryDirectory() as folder:
            stored, read = asyncio.run(_round_trip(index, Path(folder)))
        progress(TAG, f"{size:,} papers: stored in {stored:.1f} s, read back in {read:.1f} s")
    return Latency(size, build, build_cpu, megabytes, rss_mb(), peak_rss_mb(), wall, cpu,
                   stored, read, load)


def latency_table(rows: list[Latency]) -> str:
    """The figures as Markdown."""
    lines = ["", "", "Ranking time of one member's recommendations (features already fitted), "
             "wall-clock / CPU, p50 and p99:", "",
             "| papers | " + " | ".join(f"k={k} p50 | k={k} p99" for k in SEEDS)
             + " | load avg |", "|---:|" + "---:|---:|" * len(SEEDS) + "---:|"]
    for r in rows:
        cells = " | ".join(f"{r.wall_ms[k][0]:.0f} / {r.cpu_ms[k][0]:.0f} ms | "
                           f"{r.wall_ms[k][1]:.0f} / {r.cpu_ms[k][1]:.0f} ms" for k in SEEDS)
        lines.append(f"| {r.papers:,} | {cells} | {r.load:.1f} |")
    lines += ["", "| papers | features fitted (wall / CPU) | feature matrix | RSS with features "
              "| peak RSS | stored in SQLite | read back |", "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        stored = f"{r.stored_s:.1f} s" if r.stored_s is not None else "—"
        read = f"{r.read_s:.1f} s" if r.read_s is not None else "—"
        lines.append(f"| {r.papers:,} | {r.build_s:.0f} / {r.build_cpu_s:.0f} s | "
                     f"{r.matrix_mb:.0f} MB | "
                     f"{r.rss_mb:,.0f} MB | {r.peak_mb:,.0f} MB | {stored} | {read} |")
    return "\n".join(lines)


def tiled(index: features.FeatureIndex, size: int) -> features.FeatureIndex:
    """`index`'s rows repeated to `size` rows under new ids (the first copy keeps its own):
    a catalog of that size with the sample's own row lengths, for ranking time only, without
    the wait of fitting it (a copy's rows tie with the original's; ties cost nothing more)."""
    copies = -(-size // len(index))
    matrix = sp.csr_matrix(sp.vstack([index.matrix] * copies, format="csr")[:size])
    ids = list(index.ids) + [f"{i:016x}" for i in range(len(index), size)]
    order = sorted(range(size), key=ids.__getitem__)
    return features.FeatureIndex(tuple(ids[i] for i in order), sp.csr_matrix(matrix[order]),
                                 index.vocabulary)


def tiled_latency(papers: Sequence[Paper], size: int, members: Sequence[Sequence[str]],
                  runs: int) -> Latency:
    """Ranking time on the sample's features tiled to `size` rows (the fit is the sample's)."""
    started, started_cpu = time.perf_counter(), time.process_time()
    index = tiled(features.build(papers), size)
    build, build_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    return _ranked(index, size, members, runs, build, build_cpu, store=False)
