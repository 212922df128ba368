"""Concurrency sweep of `/paper` through the stand-in: a reader pool beside one reader connection.

For each reader-pool size (1, the baseline, and the pool) a fresh bot is built on the database the
main phases left behind and started against a fresh `StandIn`; after a warm-up, for each sweep
size `c`, `c` workers keep `c` lookups in flight until the size's lookups are done. Each lookup is
timed from the moment `StandIn.slash` has sent INTERACTION_CREATE (when Discord's 3 s deadline
starts) until the bot's callback arrives. `slash` first waits until no REST request of the bot is
in flight (`StandIn.settle`), so injection is gated by the stand-in; that wait is reported apart
and is not part of the answer time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.report import fmt_ms, p99
from bot.settings import Settings, load_settings
from bot.wiring import build_bot
from discord_standin import CallbackType, Guild, StandIn, User

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


async def _lookup(standin: StandIn, guild: Guild, user: User, query: str,
                  row: SweepRow | None) -> None:
    called = time.perf_counter()
    handle = await standin.slash("paper", {"query": query}, guild=guild, user=user)
    sent = time.perf_counter()
    callback = await handle.response(timeout=RESPONSE_TIMEOUT)
    if row is not None:
        row.ms.append((time.perf_counter() - sent) * 1000)
        row.inject_ms.append((sent - called) * 1000)
        row.callbacks[callback.type] += 1


async def _step(standin: StandIn, guild: Guild, user: User, queries: Sequence[str],
                row: SweepRow, total: int) -> None:
    """Keep `row.in_flight` lookups going until `total` have been answered."""
    issued = iter(range(total))

    async def worker() -> None:
        for i in issued:
            await _lookup(standin, guild, user, queries[i % len(queries)], row)

    await standin.settle()
    started = time.perf_counter()
    async with asyncio.TaskGroup() as group:
        for _ in range(row.in_flight):
            group.create_task(worker())
    row.seconds = time.perf_counter() - started


async def _one_pool(settings: Settings, readers: int, plan: SweepPlan, queries: Sequence[str],
                    warmup: int) -> list[SweepRow]:
    env = {"PAPERCLUB_DATABASE__PATH": str(settings.database.path),
           "PAPERCLUB_DATABASE__READERS": str(readers),
           "PAPERCLUB_DISCORD__SYNC": "global",
           "PAPERCLUB_CATALOG__PATH": str(settings.catalog_path())}
    user = User("reader")
    guild = Guild("Reading Group", channels=["general"], members=[user])
    rows = []
    async with StandIn(guilds=[guild]) as standin:
        bot = await build_bot(load_settings(None, env), guild_ready_timeout=0.05, force_sync=True)
        try:
            await standin.start_bot(bot, timeout=60)
            for query in queries[:warmup]:
                await _lookup(standin, guild, user, query, None)
            for size in plan.sizes:
                row = SweepRow(readers, size)
                await _step(standin, guild, user, queries, row, plan.total(size))
                rows.append(row)
        finally:
            with contextlib.suppress(Exception):
                await standin.settle()
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


def sweep_report(rows: Sequence[SweepRow], plan: SweepPlan, catalog: int) -> str:
    """The sweep's Markdown section: one table row per (in flight, readers)."""
    pool = max(plan.readers)
    lines = [
        "## Concurrent lookups: reader pool beside one reader",
        "",
        f"A fresh bot per pool size on the same database ({catalog:,} papers, after the reload "
        f"above), `[database] readers = {pool}` beside `readers = 1` (the baseline), same run. "
        "For each size, that many workers keep a `/paper` lookup in flight each until "
        f"{plan.lookups:,} lookups (at least one per worker) are answered. Answer time: from "
        "INTERACTION_CREATE sent until the bot's callback arrives (Discord's "
        f"{DEADLINE_MS / 1000:.0f} s deadline counts this). `StandIn.slash` first waits until "
        "no REST request of the bot is in flight; that wait is the last column, not part of "
        "the answer time.",
        "",
        "| in flight | readers | lookups | p50 ms | p99 ms | max ms | lookups/s | "
        f"later than {DEADLINE_MS / 1000:.0f} s | deferred | slash wait p50 / max ms |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in sorted(rows, key=lambda r: (r.in_flight, r.readers)):
        lines.append(
            f"| {row.in_flight} | {row.readers} | {len(row.ms):,} | "
            f"{fmt_ms(statistics.median(row.ms))} | {fmt_ms(p99(row.ms))} | "
            f"{fmt_ms(max(row.ms))} | {row.rate:,.0f} | {row.late} | {row.deferred} | "
            f"{fmt_ms(statistics.median(row.inject_ms))} / {fmt_ms(max(row.inject_ms))} |")
    late = sum(row.late for row in rows if row.readers == pool)
    lines += ["", f"With the pool, {late} answer(s) came later than Discord's deadline."]
    return "\n".join(lines)
