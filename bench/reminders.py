"""Session reminders for 1,000 servers due in the same minute, under Discord's global 50/s.

The real bot (`build_bot`) connects to `discord_standin.StandIn` with N guilds, each with a
#general channel and one scheduled session saved directly in the bot's store, starting an hour
after `DUE_AT`. A fixed clock is moved to `DUE_AT` + 30 s, so every server's one-hour reminder
is due (the day-before one was missed long ago and is skipped, never posted late), and one
`reminders.tick()` is timed until it returns. Each server needs one POST
/channels/{id}/messages, so the floor under a 50 requests/s limit is N / 50 s (20 s for
1,000). Two runs, one at a time, as `bench digest` does: the stand-in's global limiter at 50/s,
and no limiter with the reminders' own pacing off (the pure cost of paperclub and the stand-in).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord

from bench.rate import Clock, RecordingLimiter, busiest_second, counting_logs, fmt
from bench.report import progress, publish
from bot.features.catalog.loader import load_catalog
from bot.settings import load_settings
from bot.wiring import build_bot
from discord_standin import Guild, StandIn
from domain.sessions import Place
from storage.backend import SESSIONS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database

TAG = "reminders"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "reminders.md"
LIMIT = 50
RATIO_TARGET = 1.2
DUE_AT = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
START_TIMEOUT = 300.0


@dataclass
class Run:
    """What one timed tick did."""

    label: str
    servers: int
    limited: bool
    seconds: float = math.nan
    outcomes: Counter[str] = field(default_factory=Counter)
    posted: int = 0
    duplicates: int = 0
    requests: int = 0
    sent_429: int = 0
    errors_logged: int = 0
    tick_error: str | None = None
    admitted: list[float] = field(default_factory=list)

    @property
    def unhandled(self) -> int:
        """Servers without exactly one reminder, errors logged, a failed tick."""
        return self.servers - self.posted + self.errors_logged + (self.tick_error is not None)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--servers", type=int, default=1000,
                        help="servers, each with a session whose reminder is due (default 1000)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the Markdown")


def run(args: argparse.Namespace) -> int:
    """Run both ticks, print the Markdown report and write it to `--out`."""
    if args.servers < 1:
        print("--servers must be positive", file=sys.stderr)
        return 2
    started = time.perf_counter()
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    runs = []
    for limited in (True, False):
        with tempfile.TemporaryDirectory(prefix="paperclub-reminders-") as tmp:
            runs.append(asyncio.run(_run(Path(tmp), args.servers, limited)))
    publish(_report(runs[0], runs[1], load, time.perf_counter() - started), args.out, TAG)
    return 0


async def _run(tmp: Path, servers: int, limited: bool) -> Run:
    label = f"rate-limited {LIMIT}/s" if limited else "no limit"
    settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(tmp / "reminders.db"),
                                    "PAPERCLUB_DISCORD__SYNC": "off",
                                    "PAPERCLUB_DIGEST__TICK_SECONDS": "3600"})
    result = Run(label, servers, limited)
    guilds = [Guild(f"Reading group {i + 1}", channels=["general"]) for i in range(servers)]
    clock = Clock(DUE_AT - timedelta(minutes=5))  # nothing due while the bot starts
    with counting_logs() as logs:
        async with StandIn(guilds=guilds) as standin:
            limiter = RecordingLimiter(LIMIT if limited else None)
            standin.rest.new_limiter = lambda: limiter
            progress(TAG, f"{label}: saving {servers:,} sessions, starting the bot …")
            await _save_sessions(settings.database.path, guilds)
            bot = await build_bot(settings, clock=clock, guild_ready_timeout=0.05)
            try:
                if not limited:
                    bot.services.reminders._pace = contextlib.nullcontext()  # type: ignore[assignment]
                await standin.start_bot(bot, timeout=START_TIMEOUT)
                await bot.digest_tick()
                await standin.settle()
                clock.now = DUE_AT + timedelta(seconds=30)
                limiter.admitted.clear()
                logs.clear()
                before, requests_before = standin.rate_limited, len(standin.rest.log)
                origin = asyncio.get_running_loop().time()
                progress(TAG, f"{label}: tick for {servers:,} servers …")
                started = time.perf_counter()
                try:
                    async with asyncio.timeout(10 * servers / LIMIT + 120):
                        sent = await bot.services.reminders.tick()
                    result.outcomes = Counter(str(s.outcome) for s in sent)
                except Exception as exc:  # counted as unhandled, never raised out of the bench
                    result.tick_error = repr(exc)
                result.seconds = time.perf_counter() - started
                await standin.settle()
                result.sent_429 = standin.rate_limited - before
                result.requests = len(standin.rest.log) - requests_before
                result.admitted = [t - origin for t in limiter.admitted]
                result.errors_logged = logs.errors
            finally:
                await standin.stop_bot(bot)
            for guild in guilds:
                count = len(standin.messages(guild.channel("general")))
                result.posted += count == 1
                result.duplicates += max(count - 1, 0)
    progress(TAG, f"{label}: {result.seconds:.2f} s, {dict(result.outcomes)}")
    return result


async def _save_sessions(db_path: Path, guilds: list[Guild]) -> None:
    """The bundled catalog, and one session per server an hour after `DUE_AT`."""
    db = await Database.open(db_path)
    try:
        papers = SqlitePaperStore(db)
        await load_catalog(papers, ROOT / "bot" / "data" / "icml2026.txt")
        paper_id = (await papers.paper_ids())[0]
        sessions = SESSIONS.open(db)
        for guild in guilds:
            channel = guild.channel("general").id
            await sessions.create(guild.id, paper_id, DUE_AT + timedelta(hours=1), None,
                                  Place(), channel)
    finally:
        await db.close()


def _report(limited: Run, free: Run, load: tuple[float, float, float], total_s: float) -> str:
    n = limited.servers
    bound = n / LIMIT
    ratio = limited.seconds / bound
    met = ratio <= RATIO_TARGET and limited.unhandled == 0
    rows = [
        ("time from `tick()` start until it returned, s", fmt(limited.seconds),
         fmt(free.seconds), fmt(bound), f"{fmt(ratio)}×"),
        ("servers with exactly one reminder", f"{limited.posted:,}", f"{free.posted:,}",
         f"{n:,}", ""),
        ("outcomes", _outcomes(limited), _outcomes(free),
         f"{n:,} posted", ""),
        ("duplicate reminders", str(limited.duplicates), str(free.duplicates), "0", ""),
        ("REST requests received (429s included)", f"{limited.requests:,}",
         f"{free.requests:,}", f"{n:,}", ""),
        ("429s sent by the stand-in", f"{limited.sent_429:,}", f"{free.sent_429:,}", "", ""),
        ("busiest rolling second, requests admitted", str(busiest_second(limited.admitted)),
         str(busiest_second(free.admitted)), str(LIMIT), ""),
        ("**unhandled** (missing, doubled, errors)", f"**{limited.unhandled:,}**",
         f"**{free.unhandled:,}**", "0", ""),
    ]
    lines = [
        f"# Session reminders: {n:,} servers due in the same minute",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.machine()} · {os.cpu_count()} CPUs · "
        f"Python {platform.python_version()} · discord.py {discord.__version__} · load average "
        "before the run " + " / ".join(f"{x:.2f}" for x in load) + " (1 / 5 / 15 min)",
        "",
        f"One `reminders.tick()` timed until it returns: one post per server, so the bound under "
        f"Discord's global {LIMIT} requests/s is {n:,} / {LIMIT} = {fmt(bound)} s.",
        "",
        f"| metric | rate-limited {LIMIT}/s | no limit | bound | ratio |",
        "|---|---:|---:|---:|---:|",
        *(f"| {' | '.join(row)} |" for row in rows),
        "",
        f"Target: every reminder posted once within {RATIO_TARGET}× the bound, 0 unhandled — "
        f"**{'met' if met else 'not met'}**.",
    ]
    for r in (limited, free):
        if r.tick_error:
            lines.append(f"\n{r.label}: the tick failed: {r.tick_error}.")
    lines += ["", f"Whole benchmark (both runs with set-up): {total_s:.0f} s."]
    return "\n".join(lines)


def _outcomes(r: Run) -> str:
    return ", ".join(f"{count:,} {what}" for what, count in r.outcomes.most_common()) or "none"
