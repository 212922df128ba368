"""The AI summaries' cost to members: `/paper` round trips (the Discord stand-in's slash command
to the bot's reply) idle and while the bot's own summariser backfills the catalog, in paired
rounds on one bot.

One bot with `[llm]` on, a synthetic catalog of `--papers` (the 30 bundled ones inside: each
wants an English summary), the Discord stand-in in this process and the
chat-completions stand-in in a process of its own (as a model server is), answering at once: the
backfill goes as fast as the bot can claim, store and sanitise, the worst case for the bot's
event loop and database. Each round runs the same `--lookups` queries twice, once with nothing
else running and once with the summariser's passes running in the background (its claims and
the day's tokens cleared first, so it never runs out of work), the order alternating round by
round. Reported: p50/p99 of each over all rounds, the median of the rounds' p99 differences,
and the summaries made while the lookups ran."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

import httpx

from bench.report import fmt_ms, p99
from bot.features.catalog.files import LineReader
from bot.features.catalog.listing import ListingParser, ParsedPaper
from bot.graphs.summaries import RunningSummaries
from bot.settings import bundled_catalog, load_settings
from bot.wiring import build_bot
from discord_standin import Guild, Member, Role, StandIn, User
from tools.synthetic_catalog import write_listing

QUERIES = ("grokking", "diffusion", "attention", "reinforcement learning", "language model",
           "graph neural", "optimization", "robust", "transformer", "sparse")
VARIANTS = ("idle", "backfill")
START_SECONDS = 30.0
"""The longest wait for the stand-in's process, or for the backfill's first summary."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--rounds", type=int, default=10, help="paired rounds (default 10)")
    parser.add_argument("--lookups", type=int, default=100,
                        help="/paper lookups per variant and round (default 100)")
    parser.add_argument("--papers", type=int, default=10_000,
                        help="synthetic catalog size (default 10000)")
    parser.add_argument("--concurrency", type=int, default=4,
                        help="the summariser's requests in flight (default 4)")


@dataclass
class Result:
    """Each variant's round trips per round (seconds), and the backfill's output."""

    times: dict[str, list[list[float]]] = field(
        default_factory=lambda: {variant: [] for variant in VARIANTS})
    made: int = 0
    """Summaries made (and kept) while the backfill rounds' lookups ran."""


def run(args: argparse.Namespace) -> int:
    """Measure and print."""
    if min(args.rounds, args.lookups, args.concurrency, args.papers) < 1:
        print("--rounds, --lookups, --concurrency and --papers must be positive")
        return 2
    with tempfile.TemporaryDirectory(prefix="paperclub-summaries-") as tmp:
        result = asyncio.run(measure(Path(tmp), args.rounds, args.lookups, args.concurrency,
                                     papers=args.papers))
    print(report(result, args.rounds, args.lookups, args.papers))
    return 0


def report(result: Result, rounds: int, lookups: int, papers: int) -> str:
    """The figures as text."""
    lines = [f"/paper round trips on {papers:,} papers, {rounds} paired rounds x {lookups} "
             "lookups each"]
    for variant in VARIANTS:
        flat = [value for values in result.times[variant] for value in values]
        lines.append(f"  {variant:<9} p50 {fmt_ms(statistics.median(flat) * 1000)} ms  "
                     f"p99 {fmt_ms(p99(flat) * 1000)} ms")
    differences = [p99(during) - p99(idle) for during, idle in
                   zip(result.times["backfill"], result.times["idle"], strict=True)]
    lines.append(f"  p99 backfill - idle, median of the rounds: "
                 f"{fmt_ms(statistics.median(differences) * 1000)} ms")
    lines.append(f"  summaries made during the backfill rounds: {result.made}")
    return "\n".join(lines)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def _llm_process() -> AsyncIterator[str]:
    """`python -m llm_standin` on a free port; its base URL once it answers."""
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "llm_standin", "--port", str(port)],
                               stdout=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(int(START_SECONDS / 0.05)):
                with contextlib.suppress(httpx.HTTPError):
                    await client.get(base_url + "/models")  # any answer: it is up
                    break
                await asyncio.sleep(0.05)
        yield base_url
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def _captured() -> Iterator[list[RunningSummaries]]:
    """The bot's summariser, not started by the bot: the bench runs its passes."""
    found: list[RunningSummaries] = []

    def keep(parts: RunningSummaries) -> None:
        found.append(parts)

    with mock.patch.object(RunningSummaries, "start", keep):
        yield found


async def _made(parts: RunningSummaries) -> int:
    return sum(coverage.done for coverage in await parts.store.coverage())


async def _first_made(parts: RunningSummaries) -> None:
    """Until the backfill has stored its first summary."""
    while not await _made(parts):
        await asyncio.sleep(0.02)


async def _backfill(parts: RunningSummaries) -> None:
    """The summariser's passes, one after another, until cancelled."""
    while True:
        await parts.worker.run_once()
        await asyncio.sleep(0)


async def measure(tmp: Path, rounds: int, lookups: int, concurrency: int, *,
                  papers: int) -> Result:
    """The paired rounds (see the module's docstring)."""
    real = [item.paper for item in ListingParser().parse(LineReader(bundled_catalog()))
            if isinstance(item, ParsedPaper)]
    catalog = write_listing(tmp / "catalog.txt", papers, 2026, real)
    alice = User("alice")
    guild = Guild("Bench", channels=["general"],
                  members=[alice, Member(User("bob"), roles=[Role("admins")])])
    result = Result()
    async with _llm_process() as base_url, StandIn(guilds=[guild]) as standin:
        settings = load_settings(None, {
            "PAPERCLUB_DATABASE__PATH": str(tmp / "bench.db"), "PAPERCLUB_DISCORD__SYNC": "global",
            "PAPERCLUB_CATALOG__PATH": str(catalog),
            "PAPERCLUB_DIGEST__TICK_SECONDS": "3600", "PAPERCLUB_LLM__ENABLED": "true",
            "PAPERCLUB_LLM__BASE_URL": base_url, "PAPERCLUB_LLM__MODEL": "standin-1",
            "PAPERCLUB_LLM__CONCURRENCY": str(concurrency),
            "PAPERCLUB_LLM__REQUESTS_PER_MINUTE": "10000",
            "PAPERCLUB_LLM__DAILY_TOKEN_BUDGET": "1000000000"})
        with _captured() as found:
            bot = await build_bot(settings, guild_ready_timeout=0.05)
            await standin.start_bot(bot)
        [parts] = found
        try:
            for query in QUERIES:  # warm: every query's statements compiled, caches full
                await (await standin.slash("paper", {"query": query}, guild=guild,
                                           user=alice)).reply()
            for number in range(rounds):
                order = VARIANTS if number % 2 == 0 else VARIANTS[::-1]
                for variant in order:
                    result.times[variant].append(
                        await _round(standin, guild, alice, lookups, parts, variant, result))
        finally:
            await standin.stop_bot(bot)
    return result


async def _round(standin: StandIn, guild: Guild, user: User, lookups: int,
                 parts: RunningSummaries, variant: str, result: Result) -> list[float]:
    """One variant's lookups, with the backfill running for `backfill`."""
    task = None
    if variant == "backfill":
        async with parts.db.transaction() as tx:  # work all round, a new budget
            await tx.execute("DELETE FROM paper_summaries")
            await tx.execute("DELETE FROM llm_usage")
        task = asyncio.get_running_loop().create_task(_backfill(parts))
        await asyncio.wait_for(_first_made(parts), START_SECONDS)  # under way
    took = []
    try:
        for index in range(lookups):
            started = time.perf_counter()
            handle = await standin.slash("paper", {"query": QUERIES[index % len(QUERIES)]},
                                         guild=guild, user=user)
            await handle.reply()
            took.append(time.perf_counter() - started)
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            result.made += await _made(parts)
    return took
