"""Paper of the day for 1,000 servers due in the same minute, under Discord's global 50 requests/s.

The real paperclub bot (`build_bot`) connects to `discord_standin.StandIn` over 127.0.0.1 with N
guilds (each with a #papers channel) given at READY. N digest configs are saved directly in the
bot's store (09:00 UTC, enabled an hour before), a fixed clock is moved to 09:00:30, and one
`digest.tick()` is timed with `time.perf_counter` until it returns. Each server then needs
one POST /channels/{id}/messages and one POST .../messages/{mid}/threads, so the floor under a
50 requests/s global limit is 2N / 50 s (40 s for 1,000). Two runs, same process, one at a time:

1. rate-limited: `StandIn(rate_limit=50)`, whose limiter answers a global 429 (with `Via` and a
   JSON `retry_after`) once 50 requests fell in the last rolling second;
2. no limit: the same servers without a limiter, and with the digest's own request pacing
   (`PAPERCLUB_DIGEST__REQUESTS_PER_SECOND`) turned off: the pure cost of paperclub plus the
   stand-in.

Completion is checked in the stand-in (one post with an embed and a thread per #papers channel)
and in the outcomes. A small recording limiter (a `GlobalRateLimiter` subclass, installed on the
stand-in's REST API) timestamps every admitted and refused request for the timeline. Bench,
stand-in and bot share one event loop, so the figures include the stand-in's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import platform
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord

from bench.rate import (
    Clock,
    LogCounter,
    RecordingLimiter,
    busiest_second,
    counting_logs,
    fmt,
    per_second,
)
from bench.report import progress, publish
from bot.client.bot import PaperclubBot
from bot.features.digest.scheduler import Outcome
from bot.settings import load_settings
from bot.shared.lang import Lang
from bot.shared.messages import render_reason
from bot.wiring import build_bot
from discord_standin import Guild, RecordedRequest, StandIn
from domain.digest import DigestConfig
from storage.backend import DIGESTS
from storage.sqlite.database import Database

TAG = "digest"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "digest.md"
DISCORD_GLOBAL_LIMIT = 50
"""Discord's global limit for a bot, requests per second."""
RATIO_TARGET = 1.2
DUE_AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
START_TIMEOUT = 300.0


@dataclass
class Run:
    """What one timed tick did."""

    label: str
    servers: int
    limit: int | None
    concurrency: int
    pacing: float | None = None
    pacing_off: bool = False
    setup_s: float = 0.0
    seconds: float = math.nan
    timed_out: bool = False
    tick_error: str | None = None
    statuses: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    complete: int = 0
    posts: int = 0
    threads: int = 0
    duplicates: int = 0
    posts_429: int = 0
    threads_429: int = 0
    stale_claims: int = 0
    sent_429: int = 0
    requests: int = 0
    tries: Counter[int] = field(default_factory=Counter)
    gave_up: int = 0
    retries_seen: int = 0
    global_waits: int = 0
    errors_logged: int = 0
    error_samples: list[str] = field(default_factory=list)
    admitted: list[float] = field(default_factory=list)
    refused: list[float] = field(default_factory=list)

    @property
    def unhandled(self) -> int:
        """Servers not fully posted (outcome, post, thread), errors logged, a failed tick."""
        return (self.servers - self.complete + self.errors_logged
                + (self.tick_error is not None))


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--servers", type=int, default=1000,
                        help="servers (guilds) all due in the same minute (default 1000)")
    parser.add_argument("--concurrency", type=int, default=None,
                        help="PAPERCLUB_DIGEST__CONCURRENCY (default: the setting's default)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the Markdown")


def run(args: argparse.Namespace) -> int:
    """Run both ticks, print the Markdown report and write it to `--out`."""
    if args.servers < 1 or (args.concurrency is not None and args.concurrency < 1):
        print("--servers and --concurrency must be positive", file=sys.stderr)
        return 2
    started = time.perf_counter()
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    runs = []
    for limit in (DISCORD_GLOBAL_LIMIT, None):
        with tempfile.TemporaryDirectory(prefix="paperclub-digest-") as tmp:
            runs.append(asyncio.run(_run(Path(tmp), args.servers, limit, args.concurrency)))
    text = _report(runs[0], runs[1], load, time.perf_counter() - started)
    publish(text, args.out, TAG)
    return 0


def _progress(message: str) -> None:
    progress(TAG, message)


async def _run(tmp: Path, servers: int, limit: int | None, concurrency: int | None) -> Run:
    label = f"rate-limited {limit}/s" if limit else "no limit"
    overrides = {
        "PAPERCLUB_DATABASE__PATH": str(tmp / "digest.db"),
        "PAPERCLUB_DISCORD__SYNC": "off",
        "PAPERCLUB_DIGEST__TICK_SECONDS": "3600",  # only the timed tick posts
    }
    if concurrency is not None:
        overrides["PAPERCLUB_DIGEST__CONCURRENCY"] = str(concurrency)
    settings = load_settings(None, overrides)
    pacing = getattr(settings.digest, "requests_per_second", None)
    result = Run(label, servers, limit, settings.digest.concurrency, pacing)
    guilds = [Guild(f"Reading group {i + 1}", channels=["papers"]) for i in range(servers)]
    clock = Clock(DUE_AT - timedelta(minutes=1))  # not yet due while the bot starts
    started = time.perf_counter()
    with counting_logs() as logs:
        async with StandIn(guilds=guilds) as standin:
            limiter = RecordingLimiter(limit)
            standin.rest.new_limiter = lambda: limiter
            _progress(f"{label}: saving {servers:,} digest configs, starting the bot …")
            await _save_configs(settings.database.path, guilds)
            bot = await build_bot(settings, clock=clock, guild_ready_timeout=0.05)
            try:
                if limit is None:
                    result.pacing_off = _pacing_off(bot)
                await standin.start_bot(bot, timeout=START_TIMEOUT)
                await bot.digest_tick()  # after on_ready's own tick: nothing is due yet
                await standin.settle()
                result.setup_s = time.perf_counter() - started
                clock.now = DUE_AT + timedelta(seconds=30)
                by_guild = await _timed_tick(bot, standin, limiter, logs, result)
                await _check(bot, standin, guilds, by_guild, result)
            finally:
                await standin.stop_bot(bot)
            errors = [repr(e) for e in standin.internal_errors]
            errors += [f"unknown request {r}" for r in standin.unknown_requests]
            result.error_samples += [f"stand-in: {e}" for e in errors[:5]]
            result.errors_logged += len(errors)
    return result


async def _save_configs(db_path: Path, guilds: list[Guild]) -> None:
    """A digest at 09:00 UTC for every server, enabled an hour before it is due."""
    db = await Database.open(db_path)
    try:
        store = DIGESTS.open(db)
        for guild in guilds:
            await store.save_config(DigestConfig(
                guild.id, guild.channel("papers").id, "09:00", "UTC",
                enabled_since=DUE_AT - timedelta(hours=1)))
    finally:
        await db.close()


def _pacing_off(bot: PaperclubBot) -> bool:
    """Turn off the digest's own request pacing, if it has one: the baseline is pure overhead."""
    if not hasattr(bot.services.digest_scheduler, "_pace"):
        return False
    bot.services.digest_scheduler._pace = contextlib.nullcontext()  # type: ignore[assignment]
    return True


async def _timed_tick(bot: PaperclubBot, standin: StandIn, limiter: RecordingLimiter,
                      logs: LogCounter, result: Run) -> dict[int, str]:
    """Time `digest.tick()`, gather what the stand-in and discord.py saw; outcome by guild."""
    sent_before, requests_before = standin.rate_limited, len(standin.rest.log)
    limiter.admitted.clear()
    limiter.refused.clear()
    logs.clear()
    timeout = 10 * 2 * result.servers / DISCORD_GLOBAL_LIMIT + 120
    _progress(f"{result.label}: tick for {result.servers:,} servers (timeout {timeout:.0f} s) …")
    loop = asyncio.get_running_loop()
    origin = loop.time()
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    try:
        async with asyncio.timeout(timeout):
            outcomes = await bot.services.digest_scheduler.tick()
    except TimeoutError:
        result.timed_out = True
        result.tick_error = f"timed out after {timeout:.0f} s"
    except Exception as exc:  # counted as unhandled, never raised out of the bench
        result.tick_error = repr(exc)
    result.seconds = time.perf_counter() - started
    await standin.settle()
    result.sent_429 = standin.rate_limited - sent_before
    result.requests = len(standin.rest.log) - requests_before
    result.statuses = Counter(o.status for o in outcomes)
    by_guild: dict[int, str] = {o.guild_id: o.status for o in outcomes}
    result.reasons = Counter(render_reason(Lang.EN, o.reason) if o.reason else ""
                             for o in outcomes if o.status != "posted")
    result.admitted = [t - origin for t in limiter.admitted]
    result.refused = [t - origin for t in limiter.refused]
    _tries(standin.rest.log[requests_before:], result)
    result.retries_seen = logs.count("responded with 429. Retrying")
    result.global_waits = logs.count("Global rate limit has been hit")
    result.errors_logged = logs.errors
    result.error_samples = list(logs.samples)
    _progress(f"{result.label}: {result.seconds:.2f} s, {dict(result.statuses)}, "
              f"{result.sent_429} 429s")
    return by_guild


def _tries(log: list[RecordedRequest], result: Run) -> None:
    """Answers per logical request (method + path): how many 429s before it got through."""
    answers: dict[tuple[str, str], list[int]] = {}
    for request in log:
        answers.setdefault((request.method, request.path), []).append(request.status)
    for statuses in answers.values():
        result.tries[len(statuses)] += 1
        result.gave_up += statuses[-1] == 429


async def _check(bot: PaperclubBot, standin: StandIn, guilds: list[Guild], outcomes: dict[int, str],
                 result: Run) -> None:
    """Count posts and threads in the stand-in and sort out why a server is incomplete."""
    day = DUE_AT.date()
    for guild in guilds:
        posts = [m for m in standin.messages(guild.channel("papers")) if m.embeds]
        has_thread = any(m.thread is not None for m in posts)
        result.posts += min(len(posts), 1)
        result.duplicates += max(len(posts) - 1, 0)
        result.threads += has_thread
        status = outcomes.get(guild.id)
        result.complete += len(posts) == 1 and has_thread and status == "posted"
        status_now = await bot.services.digest.status(guild.id)
        entry = next((e for e in status_now.recent if e.local_date == day), None) \
            if status_now else None
        reason = render_reason(Lang.EN, entry.reason) if entry is not None and entry.reason else ""
        if status == "failed" and "429" in reason:
            result.posts_429 += 1
        elif status == "posted" and not has_thread and "429" in reason:
            result.threads_429 += 1
        elif status == "already" and not posts and (entry is not None
                                                     and entry.status == "claimed"):
            result.stale_claims += 1


# --- report ----------------------------------------------------------------------------------


def _time(r: Run) -> str:
    missing = r.servers - r.complete
    return fmt(r.seconds) + (f" ({missing:,} not posted)" if missing else "")


def _tries_cell(r: Run) -> str:
    return " / ".join(f"{r.tries[n]:,}" for n in range(1, 6)) + (
        f" / {sum(v for k, v in r.tries.items() if k > 5):,}" if max(r.tries, default=0) > 5
        else "")


def _timeline(r: Run, shown: int = 15) -> str:
    admitted = per_second(r.admitted, r.seconds)
    refused = per_second(r.refused, r.seconds)
    cells = " · ".join(f"{a}/{b}" for a, b in zip(admitted[:shown], refused[:shown], strict=True))
    slow = sum(a < 0.9 * DISCORD_GLOBAL_LIMIT for a in admitted[:-1])
    more = (f" · … ({len(admitted)} seconds in all; {slow} of the full seconds admitted under "
            "90 % of the limit)") if len(admitted) > shown else ""
    return f"Requests admitted / refused by the stand-in in each second of the tick: {cells}{more}."


def _pacing(limited: Run, free: Run) -> str:
    if limited.pacing is None:
        return "The digest does not pace its own requests."
    baseline = ("the no-limit baseline turns it off (pure overhead)" if free.pacing_off
                else "it stays on in the no-limit baseline too")
    return (f"The digest paces its own requests at {fmt(limited.pacing, 0)}/s "
            f"(`PAPERCLUB_DIGEST__REQUESTS_PER_SECOND`); {baseline}.")


def _statuses(r: Run) -> str:
    if not r.statuses:
        return "none"
    return ", ".join(f"{count:,} {status}" for status, count in r.statuses.most_common())


def _report(limited: Run, free: Run, load: tuple[float, float, float], total_s: float) -> str:
    n = limited.servers
    bound = 2 * n / DISCORD_GLOBAL_LIMIT
    ratio = limited.seconds / bound
    met_time = ratio <= RATIO_TARGET and limited.complete == n
    met_errors = limited.unhandled == 0
    lines = [
        f"# Paper of the day: {n:,} servers due in the same minute",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.machine()} · {os.cpu_count()} CPUs · "
        f"Python {platform.python_version()} · discord.py {discord.__version__} · "
        f"SQLite {sqlite3.sqlite_version} · load average before the run "
        + " / ".join(f"{x:.2f}" for x in load) + " (1 / 5 / 15 min)",
        "",
        f"One `bot.digest.tick()` timed from its start until it returns: the real bot against the "
        f"stand-in, {n:,} guilds given at READY, digest concurrency {limited.concurrency}. Each "
        f"server needs 1 post + 1 thread, so the bound under Discord's global "
        f"{DISCORD_GLOBAL_LIMIT} requests/s is {2 * n:,} / {DISCORD_GLOBAL_LIMIT} = "
        f"{fmt(bound, 1)} s. The stand-in's limiter admits {DISCORD_GLOBAL_LIMIT} requests in "
        "any rolling second and answers others with a global 429 whose `retry_after` is the time "
        "until the oldest admitted request leaves the window. " + _pacing(limited, free)
        + " Bench, stand-in and bot share one event loop. A server counts as posted when its "
        "outcome is `posted` and its #papers channel holds exactly one post, with a thread.",
        "",
        f"| metric | rate-limited {DISCORD_GLOBAL_LIMIT}/s | no limit | bound | ratio |",
        "|---|---:|---:|---:|---:|",
        f"| time from `tick()` start until it returned, s | {_time(limited)} | {_time(free)} | "
        f"{fmt(bound, 1)} | {fmt(ratio)}× (no limit {fmt(free.seconds / bound, 3)}×) |",
        f"| servers fully posted | {limited.complete:,} | {free.complete:,} | {n:,} | |",
        f"| outcomes | {_statuses(limited)} | {_statuses(free)} | {n:,} posted | |",
        f"| posts / threads in the stand-in | {limited.posts:,} / {limited.threads:,} | "
        f"{free.posts:,} / {free.threads:,} | {n:,} / {n:,} | |",
        f"| duplicate posts | {limited.duplicates} | {free.duplicates} | 0 | |",
        f"| REST requests received (429s included) | {limited.requests:,} | {free.requests:,} | "
        f"{2 * n:,} | {fmt(limited.requests / (2 * n))}× |",
        f"| 429s sent by the stand-in | {limited.sent_429:,} | {free.sent_429:,} | | |",
        f"| 429s discord.py waited out (logged) / of them global | {limited.retries_seen:,} / "
        f"{limited.global_waits:,} | {free.retries_seen:,} / {free.global_waits:,} | | |",
        f"| requests needing 1 / 2 / 3 / 4 / 5 answers | {_tries_cell(limited)} | "
        f"{_tries_cell(free)} | | |",
        f"| requests given up after their last 429 | {limited.gave_up:,} | {free.gave_up:,} | "
        "0 | |",
        f"| **unhandled** (not posted, exceptions, 429 as failure) | **{limited.unhandled:,}** | "
        f"**{free.unhandled:,}** | 0 | |",
        f"| … post failed on a 429 / thread lost to a 429 | {limited.posts_429:,} / "
        f"{limited.threads_429:,} | {free.posts_429:,} / {free.threads_429:,} | 0 | |",
        f"| … `already` though never sent (claim read back stale) | {limited.stale_claims:,} | "
        f"{free.stale_claims:,} | 0 | |",
        f"| … errors logged / tick raised | {limited.errors_logged} / "
        f"{int(limited.tick_error is not None)} | {free.errors_logged} / "
        f"{int(free.tick_error is not None)} | 0 | |",
        f"| admitted per second: mean over the tick / busiest rolling second | "
        f"{fmt(len(limited.admitted) / limited.seconds, 1)} / "
        f"{busiest_second(limited.admitted)} | {fmt(len(free.admitted) / free.seconds, 1)} / "
        f"{busiest_second(free.admitted)} | {DISCORD_GLOBAL_LIMIT} | |",
        f"| set-up (READY with all guilds, configs saved), s, not timed | "
        f"{fmt(limited.setup_s, 1)} | {fmt(free.setup_s, 1)} | | |",
        "",
        "## Targets",
        "",
        f"- All {n:,} posted within {RATIO_TARGET}× the bound ({fmt(bound * RATIO_TARGET, 1)} s): "
        f"{_time(limited)} s, {fmt(ratio)}× — **{'met' if met_time else 'not met'}**.",
        f"- 0 unhandled: {limited.unhandled:,} — **{'met' if met_errors else 'not met'}**.",
        "",
        "## Rate-limited timeline",
        "",
        _timeline(limited),
    ]
    if limited.gave_up:
        lines += ["", "discord.py 2.7 sends a request at most 5 times (`for tries in range(5)` in "
                  "`HTTPClient.request`); after a fifth 429 it raises `HTTPException(429)`, which "
                  "`DiscordDigestPoster` reports as `DeliveryFailed` (post: outcome `failed`; "
                  "thread: the post stays `posted` without a thread)."]
    for r in (limited, free):
        if r.tick_error:
            lines.append(f"\n{r.label}: the tick failed: {r.tick_error}.")
        if r.reasons:
            lines.append(f"\n{r.label}, reasons not posted: " + "; ".join(
                f"{reason or '(none)'} ×{count}" for reason, count in r.reasons.most_common(5)))
        if r.error_samples:
            lines.append(f"\n{r.label}, errors: " + "; ".join(r.error_samples))
    lines += ["", f"Whole benchmark (both runs with set-up): {total_s:.0f} s."]
    return "\n".join(lines)
