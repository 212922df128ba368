"""The paper of the day for N servers (default 1,000) due in the same minute, posted by bot
processes each running a share of the shards, all through one stand-in that enforces Discord's
global 50 requests/s per token, on one shared database: side by side in one run, 1 process on
SQLite, 1 process on PostgreSQL and 3 processes on PostgreSQL (`--layouts`).

Each run starts real `paperclub run` subprocesses (`--shard-count/--shard-ids`), waits until they
are connected, makes every server's post due now, and times until every post and its thread
are recorded. Printed per layout: wall time, Discord requests per second over the run, 429s,
and posts per server (must be exactly one). PostgreSQL is a throwaway server
(tools/throwaway_postgres.py, one fresh database per layout) unless `--postgres-url` names one;
without PostgreSQL binaries its layouts are reported as not run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.report import progress
from discord_standin import Guild, StandIn
from domain.digest import DigestConfig
from storage import backend as stores
from storage.backend import AnyDatabase
from tools.throwaway_postgres import PostgresServer, throwaway_server

ROOT = Path(__file__).resolve().parents[1]
TAG = "sharded digest"
LAYOUTS = ("1:sqlite", "1:postgres", "3:postgres")


@dataclass(frozen=True, slots=True)
class SharedDatabase:
    """The database the processes share: a SQLite file, or a PostgreSQL URL."""

    sqlite_path: Path
    postgres_url: str | None = None

    @property
    def kind(self) -> str:
        return "sqlite" if self.postgres_url is None else "postgres"

    def toml(self) -> str:
        """The `[database]` lines of a process's config."""
        url = "" if self.postgres_url is None else f'url = "{self.postgres_url}"\n'
        return f'path = "{self.sqlite_path}"\n{url}'

    @asynccontextmanager
    async def opened(self) -> AsyncIterator[AnyDatabase]:
        db = await stores.open_database(postgres_url=self.postgres_url,
                                        sqlite_path=self.sqlite_path, pool_size=2)
        try:
            yield db
        finally:
            await db.close()


def servers(count: int) -> list[Guild]:
    """Servers spread over the shards (snowflakes a second apart, as Discord makes them)."""
    return [Guild(f"Group {n}", channels=["papers"],
                  id=((1_400_000_000_000 + n * 1000) << 22) | n) for n in range(count)]


async def due_now(database: SharedDatabase, guilds: list[Guild]) -> None:
    """Every server's paper of the day due in this minute."""
    now = datetime.now(UTC)
    async with database.opened() as db:
        store = stores.DIGESTS.open(db)
        for guild in guilds:
            await store.save_config(DigestConfig(
                guild.id, guild.channel("papers").id, now.strftime("%H:%M"), "UTC",
                enabled_since=now - timedelta(hours=1)))


async def finished(db: AnyDatabase) -> int:
    """How many servers' posts and threads are recorded."""
    sql = ("SELECT count(*) FROM digest_ledger WHERE status = 'posted' "
           "AND thread_id IS NOT NULL")
    return int(await db.fetch_value(sql) or 0)


async def until_finished(database: SharedDatabase, count: int, timeout: float) -> None:
    """Wait until `count` servers' posts and threads are recorded."""
    async with database.opened() as db, asyncio.timeout(timeout):
        while await finished(db) < count:
            await asyncio.sleep(0.2)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: servers, layouts, the database."""
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--layouts", nargs="+", default=list(LAYOUTS),
                        help="PROCESSES:BACKEND pairs, e.g. 1:sqlite 3:postgres (each process "
                             "runs shard_count/processes of the shards)")
    parser.add_argument("--postgres-url", default=None,
                        help="an empty PostgreSQL database to use (default: a throwaway server)")


def run(args: argparse.Namespace) -> int:
    """Run every layout and print the figures side by side."""
    layouts = [_layout_of(text) for text in args.layouts]
    rows = asyncio.run(_all(args.servers, layouts, args.postgres_url))
    print(f"\n{TAG}: {args.servers} servers due in the same minute, global limit 50/s per token")
    print(f"{'processes':>9} {'backend':>9} {'seconds':>8} {'requests/s':>11} {'429s':>5} "
          f"{'posts/server':>13}")
    for processes, kind, figures in rows:
        if figures is None:
            print(f"{processes:>9} {kind:>9}  not run: no PostgreSQL binaries found")
            continue
        seconds, rate, limited, posts = figures
        print(f"{processes:>9} {kind:>9} {seconds:>8.1f} {rate:>11.1f} {limited:>5} "
              f"{posts:>13}")
    return 0 if all(f is not None and f[3] == "1" for _, _, f in rows) else 1


Figures = tuple[float, float, int, str]


def _layout_of(text: str) -> tuple[int, str]:
    processes, _, kind = text.partition(":")
    if kind not in ("sqlite", "postgres") or not processes.isdigit() or int(processes) < 1:
        raise SystemExit(f"bad layout {text!r}: use PROCESSES:sqlite or PROCESSES:postgres")
    return int(processes), kind


async def _all(count: int, layouts: list[tuple[int, str]],
               postgres_url: str | None) -> list[tuple[int, str, Figures | None]]:
    rows: list[tuple[int, str, Figures | None]] = []
    needs_server = postgres_url is None and any(k == "postgres" for _, k in layouts)
    async with _maybe_server(needs_server) as server:
        for processes, kind in layouts:
            with tempfile.TemporaryDirectory() as tmp:
                url = None
                if kind == "postgres":
                    url = postgres_url or (await server.fresh_database() if server else None)
                    if url is None:
                        rows.append((processes, kind, None))
                        continue
                database = SharedDatabase(Path(tmp) / "bench.db", url)
                figures = await _layout(count, processes, database, Path(tmp))
                rows.append((processes, kind, figures))
                if server is not None and url is not None:
                    await server.drop_database(url)
    return rows


@asynccontextmanager
async def _maybe_server(wanted: bool) -> AsyncIterator[PostgresServer | None]:
    if not wanted:
        yield None
        return
    async with throwaway_server() as server:
        progress(TAG, "throwaway PostgreSQL started" if server else "no PostgreSQL binaries")
        yield server


async def _layout(count: int, processes: int, database: SharedDatabase, tmp: Path) -> Figures:
    guilds = servers(count)
    async with StandIn(guilds=guilds, rate_limit=50, max_concurrency=16) as standin:
        config = tmp / "bench.toml"
        config.write_text(
            f"[database]\n{database.toml()}[discord]\napi_base = \"{standin.rest_base}\"\n"
            f'gateway_url = "{standin.gateway_url}"\nsync = "global"\n'
            "[digest]\ntick_seconds = 5\n[logging]\nlevel = \"WARNING\"\n", encoding="utf-8")
        procs = []
        try:
            for n in range(processes):
                procs.append(await _start(config, tmp / f"p{n}.log", processes, n))
                await _wait(lambda n=n: len(standin.gateway.live_sessions) > n)
            progress(TAG, f"{processes} process(es) on {database.kind} connected")
            before = len(standin.rest.log)
            started = time.perf_counter()
            await due_now(database, guilds)
            await until_finished(database, count, 600)
            seconds = time.perf_counter() - started
            requests = len(standin.rest.log) - before
        finally:
            for proc in procs:
                proc.terminate()
                await proc.wait()
        posts = Counter(sum(1 for m in standin.messages(g.channel("papers")) if m.embeds)
                        for g in guilds)
        return (seconds, requests / seconds, standin.rate_limited,
                ",".join(str(k) for k in sorted(posts)))


async def _start(config: Path, log: Path, count: int,
                 shard: int) -> asyncio.subprocess.Process:
    env = {**os.environ, "DISCORD_TOKEN": "standin-token"}
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", "--config", str(config), "--shard-count",
            str(count), "--shard-ids", str(shard), cwd=ROOT, env=env, stdout=out, stderr=out)


async def _wait(check: object, timeout: float = 120) -> None:
    assert callable(check)
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.05)
