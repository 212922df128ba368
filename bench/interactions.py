"""`/paper` interaction round trips through the local Discord stand-in, idle and during a reload.

The real paperclub bot (`build_bot`) runs in this process and connects over 127.0.0.1 to the
stand-in, which runs in a process of its own (`bench.standin_process.StandInProcess`, i.e.
`python -m discord_standin`), as Discord would. It answers `/paper` lookups on a synthetic
catalog (the 30 bundled papers spread inside it). The bench hands the stand-in batches of
queries over its control API; the stand-in injects each one (builds INTERACTION_CREATE and sends
it over the gateway websocket) and times it with `time.perf_counter` until the bot's callback
arrives. Three phases, same queries, then a concurrency sweep:

1. idle: `/paper` through the stand-in, one at a time;
2. during a reload: `load_catalog` of a *different* synthetic file (another seed, so it really
   writes) runs in a background task in the bot's process while lookups go on until it ends;
3. baseline: `bot.features.papers.search.search(parse_query(q))` called directly, no Discord
   round trip;
4. sweep: for each size in `--sweep`, that many `/paper` lookups kept in flight at once, with a
   fresh bot on the same database per reader-pool size: `--pool-readers` (default 4) beside one
   reader connection, the baseline (see `bench/interaction_sweep.py`).

The bot's process holds only the bot (and, for the reload phase, the load); the stand-in's JSON,
websocket and HTTP work and the timing are in the other process. Both share this machine's CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import os
import platform
import pstats
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import discord

from bench.gc_pauses import GcPauses
from bench.interaction_sweep import (
    DEFAULT_SWEEP,
    SweepPlan,
    SweepRow,
    parse_sizes,
    run_sweep,
    settled,
    sweep_report,
)
from bench.report import fmt_ms as _fmt
from bench.report import p99 as _p99
from bench.report import progress, publish
from bench.standin_process import StandInProcess
from bench.standin_records import FORGET_EVERY, KEEP
from bot.client.bot import PaperclubBot
from bot.features.catalog.files import LineReader
from bot.features.catalog.listing import ListingParser, ParsedPaper
from bot.features.catalog.loader import load_catalog
from bot.features.papers.cog import DEFER_AFTER_SECONDS, FIRST_SEARCH, RESULT_LIMIT
from bot.features.papers.query import parse_query
from bot.features.papers.results import PER_PAGE
from bot.settings import bundled_catalog, load_settings
from bot.wiring import build_bot
from discord_standin import CallbackType
from domain.paper import Paper
from domain.query import words_of
from domain.text import CJK_RUN
from tools.synthetic_catalog import synthetic_papers, write_listing

TAG = "interactions"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "interactions.md"
KINDS = ("en word", "en prefix", "en typo", "zh 2 chars", "surname")
"""The kinds of query, in table order; they take turns through the derived list."""
IDLE_P99_TARGET_MS = 5.0
DISCORD_DEADLINE_MS = 3000.0
RELOAD_MAX_TARGET_MS = DEFER_AFTER_SECONDS * 1000
"""During a reload every answer should come before the bot's own defer point (half the deadline)."""
WARMUP = 50
RELOAD_BATCH = 10
RESPONSE_TIMEOUT = 30.0
LAG_TICK = 0.005

_STOP = frozenset("about after among their there these those under where which while with".split())
# Chinese function characters: words sit between them.
_ZH_SPLIT = re.compile("[的与和及在中于为是对以之其或并而将向]+")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--papers", type=int, default=100_000,
                        help="synthetic catalog size (default 100000; 10000 for a quick run)")
    parser.add_argument("--lookups", type=int, default=1000,
                        help="timed /paper lookups per phase (default 1000)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the loaded catalog")
    parser.add_argument("--reload-seed", type=int, default=None,
                        help="seed of the reloaded catalog (default: --seed + 1)")
    parser.add_argument("--sweep", type=parse_sizes, default=DEFAULT_SWEEP,
                        help="lookups in flight at once, comma-separated (default 1,20,200; "
                             "'' skips the sweep)")
    parser.add_argument("--sweep-lookups", type=int, default=600,
                        help="timed lookups per sweep size (at least the size; default 600)")
    parser.add_argument("--pool-readers", type=int, default=4,
                        help="reader connections of the pool measured beside one (default 4)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the Markdown")
    parser.add_argument("--profile", type=Path, default=None,
                        help="cProfile the bot's process during the idle phase and write the "
                             "functions taking the most time to this file")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, print the Markdown report and write it to `--out`."""
    if args.papers < 1 or args.lookups < 1 or args.sweep_lookups < 1 or args.pool_readers < 2:
        print("--papers, --lookups and --sweep-lookups must be positive, --pool-readers at "
              "least 2", file=sys.stderr)
        return 2
    reload_seed = args.seed + 1 if args.reload_seed is None else args.reload_seed
    if reload_seed == args.seed:
        print("--reload-seed must differ from --seed (the reload has to write)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="paperclub-interactions-") as tmp:
        plan = SweepPlan(args.sweep, args.sweep_lookups, (1, args.pool_readers))
        result = asyncio.run(_bench(Path(tmp), args.papers, args.lookups, args.seed, reload_seed,
                                    plan, args.profile))
    result.seconds = time.perf_counter() - started
    text = _report(result)
    if result.sweep:
        text += "\n\n" + sweep_report(result.sweep, plan, result.catalog_after_reload)
    publish(text, args.out, TAG)
    return 0


def _progress(message: str) -> None:
    progress(TAG, message)


# --- queries ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lookup:
    """One query a user types into `/paper`, and the kind it was derived as."""

    kind: str
    text: str


def real_papers() -> list[Paper]:
    """The papers of the bundled catalog, in file order."""
    items = ListingParser().parse(LineReader(bundled_catalog()))
    return [item.paper for item in items if isinstance(item, ParsedPaper)]


def _sample(count: int, seed: int, real: list[Paper], wanted: int) -> list[Paper]:
    """About `wanted` papers spread evenly through the `write_listing` catalog, reals first."""
    step = max(1, count // max(1, wanted - len(real)))
    picked = [p for i, p in enumerate(synthetic_papers(count, seed, real)) if i % step == 0]
    return real + [p for p in picked if p not in real]


def _title_words(paper: Paper) -> list[str]:
    return [w for w in words_of(paper.title_en)
            if w.isascii() and w.isalpha() and len(w) >= 5 and w not in _STOP]


def _typo(word: str, variant: int) -> str:
    """Drop the middle letter (even `variant`) or swap it with the next one (odd)."""
    middle = len(word) // 2
    if variant % 2 and word[middle] != word[middle + 1]:
        return word[:middle] + word[middle + 1] + word[middle] + word[middle + 2 :]
    return word[:middle] + word[middle + 1 :]


def _zh_pairs(paper: Paper) -> list[str]:
    """2-character words of the Chinese title: pieces between function characters that are two
    characters long, else the first two characters of each longer piece."""
    pieces = [piece for run in CJK_RUN.findall(paper.title_zh)
              for piece in _ZH_SPLIT.split(run) if len(piece) >= 2]
    return [p for p in pieces if len(p) == 2] or [p[:2] for p in pieces]


def _surnames(paper: Paper) -> list[str]:
    found = []
    for author in paper.authors:
        latin = [w for w in words_of(author) if w.isascii() and w.isalpha()]
        if latin and len(latin[-1]) >= 2:
            found.append(latin[-1].capitalize())
    return found


def derive(paper: Paper, kind: str, rng: random.Random, variant: int) -> str | None:
    """A query of `kind` taken from `paper`'s own fields, or None when it has nothing to offer."""
    if kind == "zh 2 chars":
        pairs = _zh_pairs(paper)
        return rng.choice(pairs) if pairs else None
    if kind == "surname":
        names = _surnames(paper)
        return rng.choice(names) if names else None
    words = _title_words(paper)
    if kind == "en typo":
        words = [w for w in words if len(w) >= 6]
    if not words:
        return None
    word = rng.choice(words)
    if kind == "en prefix":
        return word[: max(4, round(len(word) * 0.6))]
    if kind == "en typo":
        return _typo(word, variant)
    return word


def derive_lookups(papers: Sequence[Paper], count: int, seed: int) -> list[Lookup]:
    """`count` lookups, kinds taking turns, each from the next paper that can supply that kind."""
    rng = random.Random(seed)
    lookups: list[Lookup] = []
    cursor = 0
    while len(lookups) < count:
        kind = KINDS[len(lookups) % len(KINDS)]
        for _ in range(len(papers)):
            paper = papers[cursor % len(papers)]
            cursor += 1
            query = derive(paper, kind, rng, cursor)
            if query:
                lookups.append(Lookup(kind, query))
                break
        else:
            raise ValueError(f"no paper yields a {kind!r} query")
    return lookups


# --- measuring -------------------------------------------------------------------------------


@dataclass(slots=True)
class Timings:
    """Milliseconds per lookup with its query and start time, and the callback types seen."""

    ms: list[float] = field(default_factory=list)
    lookups: list[Lookup] = field(default_factory=list)
    at: list[float] = field(default_factory=list)
    """Seconds since the phase began, when each lookup started."""
    callbacks: Counter[int] = field(default_factory=Counter)
    inject_ms: list[float] = field(default_factory=list)
    """Part of each round trip spent inside `StandIn.slash` (building and sending the event)."""
    started: float = field(default_factory=time.perf_counter)
    bot_cpu_s: float = 0.0
    """CPU time of the bot's process (this one) while the lookups ran."""
    standin_cpu_s: float = 0.0
    """CPU time of the stand-in's process while the lookups ran."""

    def cpu_per_lookup(self) -> str:
        """`bot / stand-in` CPU ms per lookup."""
        count = max(1, len(self.ms))
        return f"{_fmt(self.bot_cpu_s * 1000 / count)} / {_fmt(self.standin_cpu_s * 1000 / count)}"

    def add(self, lookup: Lookup, ms: float, callback: int | None = None,
            inject_ms: float | None = None) -> None:
        """Record one lookup that has just finished."""
        self.ms.append(ms)
        self.lookups.append(lookup)
        self.at.append(time.perf_counter() - ms / 1000 - self.started)
        if callback is not None:
            self.callbacks[callback] += 1
        if inject_ms is not None:
            self.inject_ms.append(inject_ms)

    def of(self, kind: str) -> list[float]:
        """The timings of one kind of query."""
        return [ms for ms, q in zip(self.ms, self.lookups, strict=True) if q.kind == kind]

    def slowest(self, count: int = 3) -> str:
        """The slowest lookups as `query` (kind) ms @ seconds into the phase."""
        order = sorted(range(len(self.ms)), key=self.ms.__getitem__, reverse=True)[:count]
        return "; ".join(f"`{self.lookups[i].text}` ({self.lookups[i].kind}) {_fmt(self.ms[i])} "
                         f"@ {self.at[i]:.1f} s" for i in order)


@dataclass(slots=True)
class Result:
    """Everything the report shows."""

    papers: int
    lookups: list[Lookup]
    idle: Timings
    reload: Timings
    direct: Timings
    whole_list: Timings
    write_s: float
    load_s: float
    catalog_after_load: int
    reload_s: float = 0.0
    reload_added: int = 0
    catalog_after_reload: int = 0
    loop_lag_max_ms: float = 0.0
    loop_lag_p99_ms: float = 0.0
    first_lookup_ms: float = 0.0
    idle_gc: GcPauses = field(default_factory=GcPauses)
    """The bot's process's garbage collections during the idle phase."""
    seconds: float = 0.0
    load_average: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """`os.getloadavg()` when the timed phases began: other processes compete for the CPUs."""
    leftovers: list[str] = field(default_factory=list)
    sweep: list[SweepRow] = field(default_factory=list)


class _Driver:
    """Sends `/paper` lookups through the stand-in's process, one at a time, as one member."""

    def __init__(self, standin: StandInProcess) -> None:
        self.standin = standin
        self.lookups = 0

    async def run(self, lookups: Sequence[Lookup], into: Timings | None) -> None:
        """Each lookup after the previous one's answer (and its trailing requests); the
        stand-in's records are trimmed every `FORGET_EVERY` lookups, outside the timings."""
        for start in range(0, len(lookups), FORGET_EVERY):
            batch = lookups[start : start + FORGET_EVERY]
            cpu = time.process_time()
            done = await self.standin.lookups([q.text for q in batch], keep=KEEP,
                                              timeout=RESPONSE_TIMEOUT)
            self.lookups += len(done.answers)
            if into is None:
                continue
            into.bot_cpu_s += time.process_time() - cpu
            into.standin_cpu_s += done.standin_cpu_seconds
            for lookup, answer in zip(batch, done.answers, strict=True):
                into.add(lookup, answer.round_trip_ms, answer.type, answer.inject_ms)


async def _direct(bot: PaperclubBot, lookups: Sequence[Lookup], into: Timings | None,
                  limit: int = FIRST_SEARCH) -> None:
    cpu = time.process_time()
    for lookup in lookups:
        start = time.perf_counter()
        await bot.services.search.search(parse_query(lookup.text), limit=limit,
                                         papers=min(limit, PER_PAGE))
        if into is not None:
            into.add(lookup, (time.perf_counter() - start) * 1000)
    if into is not None:
        into.bot_cpu_s += time.process_time() - cpu


async def _loop_lag(samples: list[float]) -> None:
    """Record how late each short sleep wakes up: the event loop's stalls, in ms."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        samples.append((time.perf_counter() - start - LAG_TICK) * 1000)


@contextlib.contextmanager
def _profiled(path: Path | None) -> Iterator[None]:
    """cProfile this process inside the block; the 40 functions of most own time, then the 40
    of most time inside them, to `path`, and the raw statistics beside it (`.pstats`, for
    `python -m pstats`)."""
    if path is None:
        yield
        return
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        yield
    finally:
        profiler.disable()
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.sort_stats("tottime").print_stats(40)
        stats.sort_stats("cumulative").print_stats(40)
        stats.dump_stats(path.with_suffix(".pstats"))
        path.write_text(text.getvalue(), encoding="utf-8")
        _progress(f"profile of the idle phase written to {path}")


def _cycle(lookups: Sequence[Lookup]) -> Iterator[Lookup]:
    while True:
        yield from lookups


async def _bench(tmp: Path, count: int, lookups_wanted: int, seed: int,
                 reload_seed: int, plan: SweepPlan, profile: Path | None = None) -> Result:
    real = real_papers()
    _progress(f"writing two {count:,}-paper synthetic listings (seeds {seed}, {reload_seed}) …")
    started = time.perf_counter()
    first = write_listing(tmp / "catalog.txt", count, seed, list(real))
    other = write_listing(tmp / "reload.txt", count, reload_seed, list(real))
    write_s = time.perf_counter() - started
    lookups = derive_lookups(_sample(count, seed, real, lookups_wanted), lookups_wanted, seed)
    settings = load_settings(None, {
        "PAPERCLUB_DATABASE__PATH": str(tmp / "bench.db"),
        "PAPERCLUB_DISCORD__SYNC": "global",
        "PAPERCLUB_CATALOG__PATH": str(first),
    })
    async with StandInProcess() as standin:
        _progress(f"loading {first.name} into a fresh database (build_bot) …")
        started = time.perf_counter()
        bot = await build_bot(settings, guild_ready_timeout=0.05)
        load_s = time.perf_counter() - started
        try:
            await standin.start_bot(bot, timeout=60)
            result = Result(count, lookups, Timings(), Timings(), Timings(), Timings(),
                            write_s, load_s, await bot.services.catalog.count())
            await _phases(bot, _Driver(standin), other, lookups, result, profile)
            result.leftovers += await standin.problems()
        finally:
            await standin.stop_bot(bot)
    if plan.sizes:
        result.sweep = await run_sweep(settings, plan, [q.text for q in lookups], WARMUP,
                                       _progress)
    return result


async def _phases(bot: PaperclubBot, driver: _Driver, other: Path, lookups: Sequence[Lookup],
                  result: Result, profile: Path | None = None) -> None:
    """Warm up, then time idle `/paper`, the direct baseline, and `/paper` during a reload."""
    result.load_average = os.getloadavg()
    _progress("warming up (first lookup cold, then a direct pass over every query) …")
    first = Timings()
    await driver.run(lookups[:1], first)
    result.first_lookup_ms = first.ms[0]
    await _direct(bot, lookups, None)
    await driver.run(lookups[:WARMUP], None)
    await settled(bot)

    _progress(f"idle: {len(lookups)} /paper lookups through the stand-in's process …")
    result.idle.started = time.perf_counter()
    with _profiled(profile), result.idle_gc.counting():
        await driver.run(lookups, result.idle)
    _progress("baseline: the same queries through SearchService.search directly …")
    await _direct(bot, lookups, result.direct)
    await _direct(bot, lookups, result.whole_list, limit=RESULT_LIMIT)

    _progress(f"reload: load_catalog({other.name}) in the background, lookups until it ends …")
    lag: list[float] = []
    monitor = asyncio.create_task(_loop_lag(lag))
    started = result.reload.started = time.perf_counter()
    reload = asyncio.create_task(load_catalog(bot.services.catalog.papers, other))
    try:
        queries = _cycle(lookups)
        while not reload.done():  # small batches, so the lookups stop soon after the reload
            await driver.run([next(queries) for _ in range(RELOAD_BATCH)], result.reload)
        report = await reload
    finally:
        monitor.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await monitor
        if not reload.done():
            reload.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reload
    result.reload_s = time.perf_counter() - started
    result.reload_added = report.counts.added
    result.catalog_after_reload = await bot.services.catalog.count()
    result.loop_lag_max_ms = max(lag, default=0.0)
    result.loop_lag_p99_ms = _p99(lag) if lag else 0.0


# --- report ----------------------------------------------------------------------------------


def _ratio(slow: float, fast: float) -> str:
    return f"{slow / fast:.1f}×" if fast > 0 else "–"


def _met(ok: bool) -> str:
    return "**met**" if ok else "**not met**"


def _drift(ms: Sequence[float], block: int) -> str:
    return f"{_fmt(statistics.median(ms[:block]))} / {_fmt(statistics.median(ms[-block:]))}"


def _summary(timings: Timings) -> tuple[float, float, float]:
    return statistics.median(timings.ms), _p99(timings.ms), max(timings.ms)


def _report(r: Result) -> str:
    idle_med, idle_p99, idle_max = _summary(r.idle)
    dir_med, dir_p99, dir_max = _summary(r.direct)
    rel_med, rel_p99, rel_max = _summary(r.reload)
    inject_med = statistics.median(r.idle.inject_ms)
    deferred = r.reload.callbacks[CallbackType.DEFERRED_CHANNEL_MESSAGE]
    direct_answers = r.reload.callbacks[CallbackType.CHANNEL_MESSAGE]
    idle_deferred = r.idle.callbacks[CallbackType.DEFERRED_CHANNEL_MESSAGE]
    other_types = {k: v for k, v in (r.idle.callbacks + r.reload.callbacks).items()
                   if k not in (4, 5)}
    kinds = Counter(lookup.kind for lookup in r.lookups)
    block = max(1, min(200, len(r.idle.ms) // 5))
    lines = [
        "# /paper interaction round trip through the Discord stand-in",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.machine()} · {os.cpu_count()} CPUs · "
        f"Python {platform.python_version()} · discord.py {discord.__version__} · "
        f"SQLite {sqlite3.sqlite_version} · load average when timing began "
        + " / ".join(f"{x:.2f}" for x in r.load_average) + " (1 / 5 / 15 min)",
        "",
        f"Catalog: {r.papers:,} synthetic papers with the 30 bundled ones spread inside "
        f"({r.catalog_after_load:,} in the database). {len(r.lookups):,} lookups derived from "
        "the papers' own fields, kinds taking turns: "
        + ", ".join(f"{k} {kinds[k]}" for k in KINDS)
        + ". Each is timed end to end with `perf_counter` **in the stand-in's own process** "
        "(`python -m discord_standin`): from calling `StandIn.slash` (the stand-in builds "
        "INTERACTION_CREATE and sends it over the gateway websocket) until `handle.response()` "
        "returns (discord.py parsed the event, the cog searched and rendered, the bot POSTed the "
        "callback over HTTP, the stand-in stored it and woke the waiter). The bot's process runs "
        "only the bot (and the reload); the bench hands the stand-in batches of queries over its "
        "control API, outside the timings. Baseline: `bot.search.search(parse_query(q), "
        f"limit={FIRST_SEARCH}, papers={PER_PAGE})` (the limit of `/paper`'s first answer, "
        "the first page's papers read as `/paper` reads them) on the same bot, no Discord layer. "
        f"Warm: a cold first lookup, a direct pass over all queries and {WARMUP} lookups first.",
        "",
        "## Idle: what the Discord layer adds",
        "",
        f"| metric | /paper via stand-in | direct search (limit {FIRST_SEARCH}) | ratio |",
        "|---|---:|---:|---:|",
        f"| median ms | {_fmt(idle_med)} | {_fmt(dir_med)} | {_ratio(idle_med, dir_med)} |",
        f"| p99 ms | {_fmt(idle_p99)} | {_fmt(dir_p99)} | {_ratio(idle_p99, dir_p99)} |",
        f"| max ms | {_fmt(idle_max)} | {_fmt(dir_max)} | {_ratio(idle_max, dir_max)} |",
        f"| added by the Discord layer, median ms | {_fmt(idle_med - dir_med)} | | |",
        f"| of which inside `StandIn.slash`, median ms | {_fmt(inject_med)} | | |",
        f"| CPU per lookup, bot's process / stand-in's process, ms | "
        f"{r.idle.cpu_per_lookup()} | {r.direct.cpu_per_lookup().split(' / ')[0]} (search "
        f"alone, its reader threads included) | |",
        f"| direct search of the whole list (limit {RESULT_LIMIT}, searched when a page past "
        f"the first answer's is turned to; context), median / p99 ms | | "
        f"{_fmt(statistics.median(r.whole_list.ms))} / {_fmt(_p99(r.whole_list.ms))} | |",
    ]
    for kind in KINDS:
        a, b = r.idle.of(kind), r.direct.of(kind)
        lines.append(f"| {kind}: median / p99 ms | {_fmt(statistics.median(a))} / "
                     f"{_fmt(_p99(a))} | {_fmt(statistics.median(b))} / {_fmt(_p99(b))} | "
                     f"{_ratio(statistics.median(a), statistics.median(b))} / "
                     f"{_ratio(_p99(a), _p99(b))} |")
    lines += [
        f"| callbacks (type 4 direct / type 5 deferred) | {r.idle.callbacks[4]} / "
        f"{idle_deferred} | | |",
        f"| first lookup after start (cold) ms | {_fmt(r.first_lookup_ms)} | | |",
        f"| garbage collections in the bot's process, gen 0 / 1 / 2 (pause ms, total) | "
        f"{r.idle_gc.summary()} | | |",
        f"| median ms, first / last {block} lookups (drift) | {_drift(r.idle.ms, block)} | "
        f"{_drift(r.direct.ms, block)} | |",
        "",
        f"Slowest idle lookups: {r.idle.slowest()}. Slowest direct: {r.direct.slowest()}.",
        "",
        "## During a catalog reload",
        "",
        f"`load_catalog(bot.papers, …)` of a different {r.papers:,}-paper file (another seed) in "
        f"a background task: {r.reload_added:,} papers added in {r.reload_s:.1f} s "
        f"(catalog now {r.catalog_after_reload:,}); the initial load of the first file took "
        f"{r.load_s:.1f} s with nothing else running. **{len(r.reload.ms):,} lookups ran during "
        "the reload**, one after another (the requested number is not enforced here: lookups "
        "stop when the reload ends).",
        "",
        "| metric | /paper during reload | /paper idle | ratio |",
        "|---|---:|---:|---:|",
        f"| median ms | {_fmt(rel_med)} | {_fmt(idle_med)} | {_ratio(rel_med, idle_med)} |",
        f"| p99 ms | {_fmt(rel_p99)} | {_fmt(idle_p99)} | {_ratio(rel_p99, idle_p99)} |",
        f"| max ms | {_fmt(rel_max)} | {_fmt(idle_max)} | {_ratio(rel_max, idle_max)} |",
        f"| median ms inside `StandIn.slash` | {_fmt(statistics.median(r.reload.inject_ms))} | "
        f"{_fmt(inject_med)} | |",
        f"| CPU per lookup, bot's (with the reload) / stand-in's process, ms | "
        f"{r.reload.cpu_per_lookup()} | {r.idle.cpu_per_lookup()} | |",
        f"| answers direct (type 4) / deferred (type 5) | {direct_answers} / {deferred} | "
        f"{r.idle.callbacks[4]} / {idle_deferred} | |",
        f"| event-loop stall, p99 / max ms ({LAG_TICK * 1000:.0f} ms sleep overshoot) | "
        f"{_fmt(r.loop_lag_p99_ms)} / {_fmt(r.loop_lag_max_ms)} | | |",
        "",
        f"Slowest during the reload: {r.reload.slowest()}.",
        "",
        "## Targets",
        "",
        "| target | measured | |",
        "|---|---:|---|",
        f"| idle p99 ≤ {IDLE_P99_TARGET_MS:.0f} ms on this {os.cpu_count()}-CPU machine | "
        f"{_fmt(idle_p99)} ms | {_met(idle_p99 <= IDLE_P99_TARGET_MS)} |",
        f"| during a reload, far below Discord's {DISCORD_DEADLINE_MS / 1000:.0f} s deadline: "
        f"every answer (max) before the bot's own {DEFER_AFTER_SECONDS} s defer point, none "
        f"deferred | max {_fmt(rel_max)} ms, p99 {_fmt(rel_p99)} ms "
        f"({DISCORD_DEADLINE_MS / rel_max:.0f}× below the deadline), {deferred} deferred | "
        f"{_met(rel_max <= RELOAD_MAX_TARGET_MS and deferred == 0)} |",
        "",
        f"Whole run {r.seconds:.0f} s (listings written in {r.write_s:.1f} s, not counted). "
        "Nothing is asserted.",
    ]
    if other_types:
        lines.append(f"Other callback types seen: {dict(other_types)}.")
    if r.leftovers:
        lines += ["", "Stand-in problems: " + "; ".join(r.leftovers[:10])]
    return "\n".join(lines)
