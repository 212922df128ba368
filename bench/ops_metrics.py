"""The metrics' cost: `/paper` round trips (the stand-in's slash command to the bot's reply)
with the metrics on and off, in paired rounds on one bot.

One bot, the bundled catalog, the Discord stand-in in this process. Each round runs the same
`--lookups` queries twice, once with the metrics recording (the command's timing in the tree,
the search's histogram) and once without, the order alternating round by round, so that both
see the same caches, the same machine load and the same database. Reported: p50/p99 of each
over all rounds, and the median of the rounds' p99 differences."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.report import fmt_ms, p99
from bot.client.bot import PaperclubBot
from bot.client.tree import PaperclubTree
from bot.ops.search_timing import TimedSearchService
from bot.settings import load_settings
from bot.wiring import build_bot
from discord_standin import Guild, Member, Role, StandIn, User

QUERIES = ("grokking", "diffusion", "attention", "reinforcement learning", "language model",
           "graph neural", "optimization", "robust", "transformer", "sparse")


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--rounds", type=int, default=10, help="paired rounds (default 10)")
    parser.add_argument("--lookups", type=int, default=100,
                        help="/paper lookups per variant and round (default 100)")


def run(args: argparse.Namespace) -> int:
    """Measure and print."""
    if args.rounds < 1 or args.lookups < 1:
        print("--rounds and --lookups must be positive")
        return 2
    with tempfile.TemporaryDirectory(prefix="paperclub-ops-metrics-") as tmp:
        times = asyncio.run(_bench(Path(tmp), args.rounds, args.lookups))
    on, off = times["on"], times["off"]
    print(f"/paper round trips, {args.rounds} paired rounds x {args.lookups} lookups each")
    for name, values in (("metrics on", on), ("metrics off", off)):
        flat = [v for r in values for v in r]
        print(f"  {name:<12} p50 {fmt_ms(statistics.median(flat) * 1000)} ms  "
              f"p99 {fmt_ms(p99(flat) * 1000)} ms")
    differences = [p99(a) - p99(b) for a, b in zip(on, off, strict=True)]
    print(f"  p99 on - off, median of the rounds: "
          f"{fmt_ms(statistics.median(differences) * 1000)} ms")
    return 0


def _switch(bot: PaperclubBot, on: bool) -> None:
    """Turn the per-command recording on or off (the scrape is never in a command's path)."""
    assert bot.ops is not None and bot.ops.metrics is not None
    assert isinstance(bot.tree, PaperclubTree)
    search = bot.services.search
    assert isinstance(search, TimedSearchService)
    bot.tree.timer = bot.ops.timer if on else None
    search.histogram = bot.ops.metrics.search_seconds if on else None


async def _bench(tmp: Path, rounds: int, lookups: int) -> dict[str, list[list[float]]]:
    admin = Role("admins")
    alice = User("alice")
    guild = Guild("Bench", channels=["general"], members=[alice, Member(User("bob"),
                                                                         roles=[admin])])
    settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(tmp / "bench.db"),
                                    "PAPERCLUB_DISCORD__SYNC": "global",
                                    "PAPERCLUB_DIGEST__TICK_SECONDS": "3600"})
    times: dict[str, list[list[float]]] = {"on": [], "off": []}
    async with StandIn(guilds=[guild]) as standin:
        bot = await build_bot(settings, guild_ready_timeout=0.05)
        await standin.start_bot(bot)
        try:
            for query in QUERIES:  # warm: every query's statements compiled, caches full
                await (await standin.slash("paper", {"query": query}, guild=guild,
                                           user=alice)).reply()
            for number in range(rounds):
                order = ("on", "off") if number % 2 == 0 else ("off", "on")
                for variant in order:
                    _switch(bot, variant == "on")
                    took = []
                    for i in range(lookups):
                        started = time.perf_counter()
                        handle = await standin.slash("paper", {"query": QUERIES[i % 10]},
                                                     guild=guild, user=alice)
                        await handle.reply()
                        took.append(time.perf_counter() - started)
                    times[variant].append(took)
        finally:
            await standin.stop_bot(bot)
    return times
