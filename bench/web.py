"""Each server's web page under load: 200 page loads kept in flight at once, in rounds, while
`/paper` lookups go through the Discord stand-in one after another; their p50/p99 beside the
same lookups with nothing else running (the baseline), for each `--web-process` side by side.

The real bot (`build_bot`, `[web] enabled`) serves the page from its own event loop
(`[web] process = "bot"`), or starts `paperclub web` to serve it from a process of its own on
the same database (`"own"`), as in production; the synthetic catalog holds the 30 bundled
papers. The server has a queue, a
history and a scheduled session, so each page holds dozens of paper cards; one load in four
also searches (`?q=`). Page loads are timed from the request to the last byte with
`time.perf_counter` in a separate client process (browsers are not in the bot's process);
bench, stand-in and bot share one process and event loop, so the `/paper` figures include the
stand-in's own work."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import itertools
import os
import platform
import socket
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp

from bench.report import fmt_ms, p99, progress, publish
from bot.client.bot import PaperclubBot
from bot.features.catalog.files import LineReader
from bot.features.catalog.listing import ListingParser, ParsedPaper
from bot.settings import bundled_catalog, load_settings
from bot.wiring import build_bot
from discord_standin import Guild, Member, StandIn, User
from domain.paper import Paper
from tools.synthetic_catalog import write_listing

TAG = "web"
OUT = Path(__file__).resolve().parent / "out" / "web.md"
QUERIES = ("grokking", "diffusion model", "蒸馏", "ridge regression", "attention", "岭回归",
           "grokkng", "low-rank", "author:vardi", "venue:workshop")
PAGE_QUERIES = ("grokking", "蒸馏", "diffusion")
RESPONSE_TIMEOUT = 60.0
PROCESSES = ("bot", "own")
CHILD_SECONDS = 120.0
"""How long `paperclub web` may take to answer its first page."""


@dataclass
class Result:
    """What one run measured."""

    papers: int
    concurrency: int
    process: str = "bot"
    """Who served the pages (`[web] process`)."""
    idle: list[float] = field(default_factory=list)
    """`/paper` round trips (ms) with nothing else running."""
    during: list[float] = field(default_factory=list)
    """`/paper` round trips (ms) while the page loads were in flight."""
    pages: list[float] = field(default_factory=list)
    failed: int = 0
    page_bytes: int = 0
    load_seconds: float = 0.0
    cores_apart: bool = False
    """Whether the bot's process had CPU 0 to itself (`--cores-apart`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument("--papers", type=int, default=10_000,
                        help="synthetic catalog size (default 10000)")
    parser.add_argument("--concurrency", type=int, default=200,
                        help="page loads in flight at once (default 200)")
    parser.add_argument("--rounds", type=int, default=20,
                        help="rounds of --concurrency page loads (default 20)")
    parser.add_argument("--lookups", type=int, default=600,
                        help="/paper lookups of the idle baseline (default 600)")
    parser.add_argument("--web-process", type=_processes, default=PROCESSES,
                        help="who serves the pages, one run each: bot (its event loop), own "
                             "(a `paperclub web` process); default bot,own")
    parser.add_argument("--cores-apart", action="store_true",
                        help="the bot's process (with the stand-in) on CPU 0, the page "
                             "loads' client and a web process of their own on the others")
    parser.add_argument("--out", type=Path, default=OUT, help=f"report file (default {OUT})")


def _processes(text: str) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not chosen or not set(chosen) <= set(PROCESSES):
        raise argparse.ArgumentTypeError("a comma-separated list of bot and own")
    return chosen


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Group:
    """The stand-in's server and the bench's member, and the `/paper` timer."""

    def __init__(self, standin: StandIn, guild: Guild, user: User) -> None:
        self.standin, self.guild, self.user = standin, guild, user

    async def lookup(self, query: str) -> float:
        await self.standin.settle()
        start = time.perf_counter()
        handle = await self.standin.slash("paper", {"query": query}, guild=self.guild,
                                          user=self.user)
        await handle.response(timeout=RESPONSE_TIMEOUT)
        return (time.perf_counter() - start) * 1000


async def _furnish(bot: PaperclubBot, guild: Guild, users: list[User],
                   papers: list[Paper]) -> None:
    """A realistic page: 30 queued papers (+1s), 30 discussions, the history's presenters."""
    services = bot.services
    for n, paper in enumerate(papers[:30]):
        for user in users[: 1 + n % 3]:
            await services.queue.suggest(guild.id, user.id, paper.id, f"note {n}")
    start = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)
    for n, paper in enumerate(reversed(papers)):
        await services.sessions.history.record_discussed(
            guild.id, paper.id, start + timedelta(weeks=n), users[n % len(users)].id,
            f"notes of week {n}", 1000 + n)


async def _load(http: aiohttp.ClientSession, url: str, result: Result) -> None:
    start = time.perf_counter()
    try:
        async with http.get(url) as response:
            body = await response.read()
            ok = response.status == 200
    except aiohttp.ClientError:
        ok, body = False, b""
    if ok:
        result.pages.append((time.perf_counter() - start) * 1000)
        result.page_bytes = max(result.page_bytes, len(body))
    else:
        result.failed += 1


async def _loads(url: str, concurrency: int, rounds: int) -> Result:
    result = Result(0, concurrency)
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    queries = itertools.cycle(["", "", "", *(f"?q={q}" for q in PAGE_QUERIES)])
    async with aiohttp.ClientSession(connector=connector) as http:
        for _ in range(rounds):
            await asyncio.gather(*(_load(http, url + next(queries), result)
                                   for _ in range(concurrency)))
    return result


def _client_process(url: str, concurrency: int, rounds: int,
                    cores: set[int] | None) -> Result:
    """The page loads, in a process of their own (with its own event loop)."""
    if cores is not None:
        os.sched_setaffinity(0, cores)
    return asyncio.run(_loads(url, concurrency, rounds))


def _apart(bot: PaperclubBot) -> set[int]:
    """`--cores-apart`: this process (bot and stand-in) on CPU 0, the web child (if any) on
    the others; the cores left for the page loads' client."""
    others = set(os.sched_getaffinity(0)) - {0}
    if not others:
        raise RuntimeError("--cores-apart needs at least two CPUs")
    _pin(os.getpid(), {0})
    child = getattr(bot.get_cog("WebCog"), "child", None)
    if child is not None and child.pid is not None:
        _pin(child.pid, others)
    return others


def _pin(pid: int, cores: set[int]) -> None:
    """Every thread of process `pid` on `cores` (new threads inherit their creator's)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(task.name), cores)


async def _pages(url: str, result: Result, concurrency: int, rounds: int,
                 cores: set[int] | None) -> None:
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        loaded = await asyncio.get_running_loop().run_in_executor(
            pool, _client_process, url, concurrency, rounds, cores)
    result.pages, result.failed, result.page_bytes = (loaded.pages, loaded.failed,
                                                      loaded.page_bytes)


async def _served(url: str) -> None:
    """Wait until `url` answers 200 (the web process has started)."""
    deadline = time.perf_counter() + CHILD_SECONDS
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                async with http.get(url) as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the web process did not answer {url}")
            await asyncio.sleep(0.2)


async def _bench(tmp: Path, args: argparse.Namespace, process: str = "bot") -> Result:
    real = [item.paper for item in ListingParser().parse(LineReader(bundled_catalog()))
            if isinstance(item, ParsedPaper)]
    catalog = write_listing(tmp / "catalog.txt", args.papers, 2026, list(real))
    settings = load_settings(None, {
        "PAPERCLUB_DATABASE__PATH": str(tmp / f"bench-{process}.db"),
        "PAPERCLUB_DISCORD__SYNC": "global", "PAPERCLUB_CATALOG__PATH": str(catalog),
        "PAPERCLUB_WEB__ENABLED": "true", "PAPERCLUB_WEB__PROCESS": process,
        "PAPERCLUB_WEB__PORT": str(_free_port())})
    users = [User(f"member{n}") for n in range(5)]
    guild = Guild("Reading Group", channels=["general"], members=[Member(u) for u in users])
    result = Result(args.papers, args.concurrency, process)
    async with StandIn(guilds=[guild]) as standin:
        progress(TAG, f"[web] process = {process}: loading {args.papers:,} papers …")
        bot = await build_bot(settings, guild_ready_timeout=0.05)
        try:
            await standin.start_bot(bot, timeout=60)
            await _furnish(bot, guild, users, real)
            url = await bot.services.web.link(guild.id)
            assert url is not None
            await _served(url)
            everywhere = set(os.sched_getaffinity(0))
            cores = _apart(bot) if args.cores_apart else None
            result.cores_apart = cores is not None
            group = _Group(standin, guild, users[0])
            for query in QUERIES:  # warm-up: caches, the typo vocabulary
                await group.lookup(query)
            progress(TAG, f"{args.lookups} /paper lookups, nothing else running …")
            for query in itertools.islice(itertools.cycle(QUERIES), args.lookups):
                result.idle.append(await group.lookup(query))
            progress(TAG, f"{args.rounds} × {args.concurrency} page loads with /paper …")
            started = time.perf_counter()
            pages = asyncio.create_task(_pages(url, result, args.concurrency, args.rounds,
                                                 cores))
            for query in itertools.cycle(QUERIES):
                if pages.done():
                    break
                result.during.append(await group.lookup(query))
            await pages
            result.load_seconds = time.perf_counter() - started
        finally:
            await standin.stop_bot(bot)
            if args.cores_apart:
                _pin(os.getpid(), everywhere)
    return result


def _cells(values: list[float]) -> str:
    if not values:
        return "0 | – | –"
    return f"{len(values):,} | {fmt_ms(statistics.median(values))} | {fmt_ms(p99(values))}"


def _pages_line(result: Result) -> str:
    loads = len(result.pages) + result.failed
    return (f"- `{result.process}`: {loads:,} page loads, {result.failed} failed, "
            f"{len(result.pages) / max(result.load_seconds, 1e-9):,.0f} pages/s, "
            f"largest page {result.page_bytes / 1024:,.0f} KiB.")


def report(results: list[Result]) -> str:
    """The Markdown report: one column group per `[web] process`."""
    first = results[0]
    modes = " | ".join(f"{r.process}: n | p50 ms | p99 ms" for r in results)
    rows = [("/paper, nothing else running (baseline)", "idle"),
            (f"/paper while {first.concurrency} page loads are in flight", "during"),
            ("page load (request to last byte)", "pages")]
    return "\n".join([
        f"# Web page under load ({datetime.now(UTC):%Y-%m-%d}, {platform.python_version()}, "
        f"{first.papers:,} papers, {first.concurrency} page loads in flight)", "",
        "`[web] process`: `bot` serves the pages on the bot's event loop, `own` from a "
        "`paperclub web` process of their own."
        + (" `--cores-apart`: the bot's process (with the stand-in) on CPU 0, the page loads' "
           "client and the web process on the other CPUs." if first.cores_apart else ""), "",
        f"| measured | {modes} |", "|---|" + "---:|---:|---:|" * len(results),
        *(f"| {name} | " + " | ".join(_cells(getattr(r, key)) for r in results) + " |"
          for name, key in rows), "",
        *(_pages_line(r) for r in results)])


def run(args: argparse.Namespace) -> int:
    """Run the benchmark for each `--web-process`, print the report and write it to `--out`."""
    if min(args.papers, args.concurrency, args.rounds, args.lookups) < 1:
        print("--papers, --concurrency, --rounds and --lookups must be positive",
              file=sys.stderr)
        return 2
    results = []
    for process in args.web_process:
        with tempfile.TemporaryDirectory(prefix="paperclub-web-") as tmp:
            results.append(asyncio.run(_bench(Path(tmp), args, process)))
    publish(report(results), args.out, TAG)
    return 0 if all(result.failed == 0 for result in results) else 1
