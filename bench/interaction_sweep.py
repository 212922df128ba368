"""Concurrency sweep of `/paper` through the stand-in: a reader pool beside one reader connection.

For each reader-pool size (1, the baseline, and the pool) a fresh bot is built on the database the
main phases left behind and started against a fresh stand-in in a process of its own
(`StandInProcess`); after a warm-up, for each sweep size `c`, the stand-in keeps `c` lookups in
flight until the size's lookups are done. Each lookup is timed by the stand-in from the moment it
has sent INTERACTION_CREATE (when Discord's 3 s deadline starts) until the bot's callback arrives.
`slash` first waits until no REST request of the bot is in flight (`StandIn.settle`), so
injection is gated by the stand-in; that wait is reported apart and is not part of the answer
time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.report import fmt_ms, p99
from bench.standin_process import StandInProcess
from bench.standin_records import KEEP
from bot.client.bot import PaperclubBot
from bot.settings import Settings, load_settings
from bot.wiring import build_bot
from discord_standin import CallbackType

DEFAULT_SWEEP = (1, 20, 200)
DEADLINE_MS = 3000.0
"""Discord's deadline for the first callback of an interaction."""
RESPONSE_TIMEOUT = 30.0


def parse_sizes(text: str) -> tuple[int, ...]:
    """`"1,20,200"` -> (1, 20, 200); an empty string skips the sweep."""
    try:
        sizes = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of sizes: {text!r}") from None
    if any(size < 1 for size in sizes):
        raise argparse.ArgumentTypeError("sweep sizes must be positive")
    return sizes


@dataclass(frozen=True, slots=True)
class SweepPlan:
    """Lookups in flight per step, timed lookups per step, and the reader-pool sizes compared."""

    sizes: tuple[int, ...]
    lookups: int
    readers: tuple[int, ...]

    def total(self, size: int) -> int:
        """Timed lookups for one step: at least one per worker."""
        return max(self.lookups, size)


@dataclass(slots=True)
class SweepRow:
    """One step of the sweep: `in_flight` lookups at once on a bot with `readers` readers."""

    readers: int
    in_flight: int
    ms: list[float] = field(default_factory=list)
    """Answer times: INTERACTION_CREATE sent -> callback received."""
    inject_ms: list[float] = field(default_factory=list)
    """Time inside `StandIn.slash` before the event went out (the stand-in's settle gate)."""
    seen_ms: list[float] = field(default_factory=list)
    """INTERACTION_CREATE sent -> the answer the member sees (the followup after a deferral)."""
    unseen: int = 0
    """Lookups whose answer never came within the timeout."""
    callbacks: Counter[int] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def late(self) -> int:
        """Answers whose first callback came after Discord's deadline."""
        return sum(1 for ms in self.ms if ms > DEADLINE_MS)

    @property
    def deferred(self) -> int:
        """Answers that were a deferral (callback type 5)."""
        return self.callbacks[CallbackType.DEFERRED_CHANNEL_MESSAGE]

    @property
    def rate(self) -> float:
        """Lookups per second over the step's wall time."""
        return len(self.ms) / self.seconds if self.seconds > 0 else 0.0


async def settled(bot: PaperclubBot) -> None:
    """Wait for the start's background builds (typo vocabulary, recommendation features) and
    what follows them: a bench times lookups, not the bot still starting (on one reader
    connection the builds' reads would queue the lookups behind them)."""
    await bot.services.search.built()
    await bot.services.recommend.features.built()
    await asyncio.wait_for(bot.background.wait(), 60)


async def _one_pool(settings: Settings, readers: int, plan: SweepPlan, queries: Sequence[str],
                    warmup: int) -> list[SweepRow]:
    env = {"PAPERCLUB_DATABASE__PATH": str(settings.database.path),
           "PAPERCLUB_DATABASE__READERS": str(readers),
           "PAPERCLUB_DISCORD__SYNC": "global",
           "PAPERCLUB_CATALOG__PATH": str(settings.catalog_path())}
    rows = []
    async with StandInProcess() as standin:
        bot = await build_bot(load_settings(None, env), guild_ready_timeout=0.05, force_sync=True)
        try:
            await standin.start_bot(bot, timeout=60)
            await standin.lookups(queries[:warmup], keep=KEEP, timeout=RESPONSE_TIMEOUT)
            await settled(bot)
            for size in plan.sizes:
                row = SweepRow(readers, size)
                batch = [queries[i % len(queries)] for i in range(plan.total(size))]
                done = await standin.lookups(batch, in_flight=size, keep=KEEP,
                                             timeout=RESPONSE_TIMEOUT)
                row.seconds = done.seconds
                for answer in done.answers:
                    row.ms.append(answer.answer_ms)
                    row.inject_ms.append(answer.inject_ms)
                    row.callbacks[answer.type or 0] += 1
                    if answer.seen_ms is None:
                        row.unseen += 1
                    else:
                        row.seen_ms.append(answer.seen_ms)
                rows.append(row)
            problems = await standin.problems()
            if problems:
                raise RuntimeError("; ".join(problems[:5]))
        finally:
            await standin.stop_bot(bot)
    return rows


async def run_sweep(settings: Settings, plan: SweepPlan, queries: Sequence[str], warmup: int,
                    progress: Callable[[str], None]) -> list[SweepRow]:
    """Every (readers, in-flight) step of `plan`, on the database of `settings`."""
    rows: list[SweepRow] = []
    for readers in plan.readers:
        progress(f"sweep: {readers} reader connection(s), {', '.join(map(str, plan.sizes))} "
                 "lookups in flight …")
        rows += await _one_pool(settings, readers, plan, queries, warmup)
    return rows


def _seen(row: SweepRow) -> str:
    if not row.seen_ms:
        return "–"
    text = f"{fmt_ms(statistics.median(row.seen_ms))} / {fmt_ms(p99(row.seen_ms))}"
    return text + (f" ({row.unseen} never)" if row.unseen else "")


def sweep_report(rows: Sequence[SweepRow], plan: SweepPlan, catalog: int) -> str:
    """The sweep's Markdown section: one table row per (in flight, readers)."""
    pool = max(plan.readers)
    lines = [
        "## Concurrent lookups: reader pool beside one reader",
        "",
        f"A fresh bot per pool size on the same database ({catalog:,} papers, after the reload "
        f"above), `[database] readers = {pool}` beside `readers = 1` (the baseline), same run; "
        "the stand-in runs in a process of its own and drives and times the lookups there. "
        "For each size, that many workers keep a `/paper` lookup in flight each until "
        f"{plan.lookups:,} lookups (at least one per worker) are answered. Answer time: from "
        "INTERACTION_CREATE sent until the bot's callback arrives (Discord's "
        f"{DEADLINE_MS / 1000:.0f} s deadline counts this). `StandIn.slash` first waits until "
        "no REST request of the bot is in flight; that wait is the last column, not part of "
        "the answer time. *Answer seen*: until what the member sees (the followup after a "
        "deferral); each step ends when every answer is seen.",
        "",
        "| in flight | readers | lookups | p50 ms | p99 ms | max ms | lookups/s | "
        f"later than {DEADLINE_MS / 1000:.0f} s | deferred | answer seen p50 / p99 ms | "
        "slash wait p50 / max ms |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in sorted(rows, key=lambda r: (r.in_flight, r.readers)):
        lines.append(
            f"| {row.in_flight} | {row.readers} | {len(row.ms):,} | "
            f"{fmt_ms(statistics.median(row.ms))} | {fmt_ms(p99(row.ms))} | "
            f"{fmt_ms(max(row.ms))} | {row.rate:,.0f} | {row.late} | {row.deferred} | "
            f"{_seen(row)} | "
            f"{fmt_ms(statistics.median(row.inject_ms))} / {fmt_ms(max(row.inject_ms))} |")
    late = sum(row.late for row in rows if row.readers == pool)
    lines += ["", f"With the pool, {late} answer(s) came later than Discord's deadline."]
    return "\n".join(lines)
