"""Memory of `/paper` result lists: RSS before and after 10,000 lookups through the stand-in.

Each variant runs in a fresh subprocess (so its RSS is its own): the real bot (`build_bot`) on a
synthetic catalog, connected to `discord_standin.StandIn`, answers `/paper` lookups of single
title words (most give a paged list of up to 50 papers, which is what holds memory). RSS
(VmRSS) is read after a warm-up and after the lookups, each time after `gc.collect()`. The
stand-in, in the same process, keeps a record of every interaction for tests; the bench has it
forget all but the last 1,000 every 100 lookups, so that the figure is the bot's.

- now: result lists keep paper ids and re-fetch the page shown; at most `MAX_LIVE_LISTS` live.
- baseline (before): the same bot, but each list also holds its papers and nothing is capped,
  as before issue 10 item 13.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.interactions import real_papers
from bench.report import progress, publish
from bench.standin_records import trim_now_and_then
from bot.client.ui.live import MAX_LIVE_LISTS
from bot.features.papers import results_view
from bot.features.papers.results_view import ResultList
from bot.settings import load_settings
from bot.wiring import build_bot
from discord_standin import Guild, StandIn, User
from domain.paper import Paper
from tools.synthetic_catalog import synthetic_papers, write_listing

TAG = "views"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "result_views.md"
TARGET_MB = 50.0
WARMUP = 200
VARIANTS = {"now": "ids, at most {cap} live (now)",
            "before": "papers held, no cap (before)"}


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--papers", type=int, default=10_000, help="synthetic catalog size")
    parser.add_argument("--lookups", type=int, default=10_000, help="/paper lookups")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--worker", choices=sorted(VARIANTS), help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the Markdown")


def run(args: argparse.Namespace) -> int:
    """Run both variants in subprocesses and report; or, as `--worker`, one variant."""
    if args.worker:
        print(json.dumps(asyncio.run(_worker(args.worker, args.papers, args.lookups,
                                             args.seed))))
        return 0
    results = {}
    for variant in ("before", "now"):
        progress(TAG, f"{variant}: {args.lookups:,} lookups on {args.papers:,} papers …")
        done = subprocess.run(
            [sys.executable, "-m", "bench", "views", "--worker", variant, "--papers",
             str(args.papers), "--lookups", str(args.lookups), "--seed", str(args.seed)],
            cwd=ROOT, capture_output=True, text=True, check=True)
        results[variant] = json.loads(done.stdout.strip().splitlines()[-1])
    publish(_report(results, args), args.out, TAG)
    return 0


def _rss_mb() -> float:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status (Linux only)")


class _HeldPapers(ResultList):
    """The old behaviour: the list keeps every paper of its list."""

    held: Sequence[Paper] = ()

    async def render(self, at_hand: Sequence[Paper] = ()) -> Any:
        if not self.held:
            self.held = await self.source.fetch(self.paper_ids)
        return await super().render(at_hand)


def _queries(papers: Sequence[Paper], seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    words = sorted({w.lower() for p in papers for w in p.title_en.split()
                    if w.isalpha() and len(w) > 5})
    return [rng.choice(words) for _ in range(count)]


async def _worker(variant: str, count: int, lookups: int, seed: int) -> dict[str, Any]:
    real = real_papers()
    with tempfile.TemporaryDirectory(prefix="paperclub-views-") as tmp:
        listing = write_listing(Path(tmp) / "catalog.txt", count, seed, list(real))
        sample = [p for i, p in enumerate(synthetic_papers(count, seed, list(real)))
                  if i % 50 == 0]
        queries = _queries(sample, seed, WARMUP + lookups)
        settings = load_settings(None, {
            "PAPERCLUB_DATABASE__PATH": str(Path(tmp) / "bench.db"),
            "PAPERCLUB_DISCORD__SYNC": "global",
            "PAPERCLUB_CATALOG__PATH": str(listing),
            "PAPERCLUB_LOGGING__LEVEL": "WARNING",
        })
        user = User("reader")
        guild = Guild("Reading Group", channels=["general"], members=[user])
        async with StandIn(guilds=[guild]) as standin:
            bot = await build_bot(settings, guild_ready_timeout=0.05)
            try:
                await standin.start_bot(bot, timeout=120)
                if variant == "before":
                    results_view.ResultList = _HeldPapers  # type: ignore[misc]
                    bot.lists.cap = 10**9
                lists = 0
                for n, query in enumerate(queries):
                    if n == WARMUP:
                        before, started, lists = _rss_mb(), time.perf_counter(), 0
                    handle = await standin.slash("paper", {"query": query}, guild=guild,
                                                 user=user)
                    callback = await handle.response(timeout=30)
                    lists += bool(callback.raw.get("data", {}).get("components"))
                    await standin.settle()
                    trim_now_and_then(standin, n)
                after = _rss_mb()
                seconds = time.perf_counter() - started
                live = len(bot.lists)
            finally:
                with contextlib.suppress(Exception):
                    await standin.settle()
                await standin.stop_bot(bot)
    return {"before_mb": before, "after_mb": after, "lists": lists, "live": live,
            "seconds": seconds, "lookups": lookups}


def _report(results: dict[str, dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [f"## Result-list memory: {args.lookups:,} `/paper` lookups, {args.papers:,} papers",
             "",
             "| variant | RSS before | RSS after | growth | lists shown | live at end | s |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for variant in ("before", "now"):
        r = results[variant]
        name = VARIANTS[variant].format(cap=MAX_LIVE_LISTS)
        lines.append(f"| {name} | {r['before_mb']:.0f} MB | {r['after_mb']:.0f} MB | "
                     f"+{r['after_mb'] - r['before_mb']:.0f} MB | {r['lists']:,} | "
                     f"{r['live']:,} | {r['seconds']:.0f} |")
    now = results["now"]
    growth = now["after_mb"] - now["before_mb"]
    met = "met" if growth <= TARGET_MB else "NOT met"
    lines += ["", f"Target: growth within +{TARGET_MB:.0f} MB after {args.lookups:,} lookups: "
              f"**{met}** (+{growth:.0f} MB; before: "
              f"+{results['before']['after_mb'] - results['before']['before_mb']:.0f} MB)."]
    return "\n".join(lines)
