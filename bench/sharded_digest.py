"""The paper of the day for N servers (default 1,000) due in the same minute, posted by one
bot process beside three processes each running a third of the shards, all through one stand-in
that enforces Discord's global 50 requests/s per token, on one shared database.

Each run starts real `paperclub run` subprocesses (`--shard-count/--shard-ids`), waits until they
are connected, makes every server's post due now, and times until every post and its thread
are recorded. Printed per layout: wall time, Discord requests per second over the run, 429s,
and posts per server (must be exactly one). `--database` takes the database URL (a SQLite path
today; a PostgreSQL URL once that backend exists).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.report import progress
from bot.core.digest_types import DigestConfig
from discord_standin import Guild, StandIn
from storage.database import Database
from storage.digests import SqliteDigestStore

ROOT = Path(__file__).resolve().parents[1]
TAG = "sharded digest"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: servers, process layouts, the database."""
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 3],
                        help="process counts to compare (each runs shard_count/processes)")
    parser.add_argument("--database", default=None,
                        help="database URL or SQLite path (default: a new file per run)")


def run(args: argparse.Namespace) -> int:
    """Run every layout and print the figures side by side."""
    rows = [asyncio.run(_layout(args.servers, n, args.database)) for n in args.processes]
    print(f"\n{TAG}: {args.servers} servers due in the same minute, global limit 50/s per token")
    print(f"{'processes':>9} {'seconds':>8} {'requests/s':>11} {'429s':>5} {'posts/server':>13}")
    for n, seconds, rate, limited, posts in rows:
        print(f"{n:>9} {seconds:>8.1f} {rate:>11.1f} {limited:>5} {posts:>13}")
    return 0 if all(r[4] == "1" for r in rows) else 1


def _servers(count: int) -> list[Guild]:
    return [Guild(f"Group {n}", channels=["papers"],
                  id=((1_400_000_000_000 + n * 1000) << 22) | n) for n in range(count)]


async def _layout(servers: int, processes: int,
                  database: str | None) -> tuple[int, float, float, int, str]:
    guilds = _servers(servers)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(database) if database else Path(tmp) / "bench.db"
        async with StandIn(guilds=guilds, rate_limit=50, max_concurrency=16) as standin:
            config = Path(tmp) / "bench.toml"
            config.write_text(
                f'[database]\npath = "{db_path}"\n[discord]\napi_base = "{standin.rest_base}"\n'
                f'gateway_url = "{standin.gateway_url}"\nsync = "global"\n'
                "[digest]\ntick_seconds = 5\n[logging]\nlevel = \"WARNING\"\n", encoding="utf-8")
            procs = []
            try:
                for n in range(processes):
                    procs.append(await _start(config, Path(tmp) / f"p{n}.log", processes, n))
                    await _wait(lambda n=n: len(standin.gateway.live_sessions) > n)
                progress(TAG, f"{processes} process(es) connected")
                before = len(standin.rest.log)
                started = time.perf_counter()
                await _due_now(db_path, guilds)
                while await _finished(db_path) < servers:
                    await asyncio.sleep(0.2)
                seconds = time.perf_counter() - started
                requests = len(standin.rest.log) - before
            finally:
                for proc in procs:
                    proc.terminate()
                    await proc.wait()
            posts = Counter(sum(1 for m in standin.messages(g.channel("papers")) if m.embeds)
                            for g in guilds)
            return (processes, seconds, requests / seconds, standin.rate_limited,
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


async def _due_now(db_path: Path, guilds: list[Guild]) -> None:
    now = datetime.now(UTC)
    db = await Database.open(db_path)
    try:
        store = SqliteDigestStore(db)
        for guild in guilds:
            await store.save_config(DigestConfig(
                guild.id, guild.channel("papers").id, now.strftime("%H:%M"), "UTC",
                enabled_since=now - timedelta(hours=1)))
    finally:
        await db.close()


async def _finished(db_path: Path) -> int:
    db = await Database.open(db_path, readers=1)
    try:
        row = await db.fetchone("SELECT count(*) FROM digest_ledger WHERE status = 'posted' "
                                "AND thread_id IS NOT NULL")
        return int(row[0]) if row else 0
    finally:
        await db.close()
