"""Per-query overhead of the ways a store can reach the database, on a hot path: a one-row read
by primary key (`StateStore.get`: `SELECT value FROM bot_state WHERE key = …`), on SQLite and
on a throwaway PostgreSQL, the ways taking turns round by round so that drift hits them alike.

- `direct`: the backends' own primitives under the API (SQLite's reader pool, `Database.fetch`
  with `?`; asyncpg's `Pool.fetchval`);
- `storage.db`: the one API (`Db.fetch_value` with `$1`);
- `SQLAlchemy Core`: its asyncio engine on the same database (aiosqlite / asyncpg under it), a
  compiled `select()` run on a connection taken from its pool for each read, as a store would.

Prints microseconds per read: the median of the rounds' means, and their range (the noise).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from storage.postgres.database import PgDatabase
from storage.sqlite.database import Database
from tools.throwaway_postgres import PostgresServer, started_server

KEYS = 1000
Read = Callable[[str], Awaitable[Any]]


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--reads", type=int, default=10_000, help="reads per way and backend")
    parser.add_argument("--rounds", type=int, default=10,
                        help="rounds the reads are split into, the ways taking turns")


def run(args: argparse.Namespace) -> int:
    """Measure on SQLite and, when its binaries are found, on a throwaway PostgreSQL."""
    with tempfile.TemporaryDirectory(prefix="paperclub-bench-db-") as scratch:
        asyncio.run(_sqlite(args, Path(scratch) / "bench.db"))
    with started_server() as server:
        if server is None:
            print("PostgreSQL binaries not found (initdb, pg_ctl, postgres): not measured")
            return 0
        asyncio.run(_postgres(args, server))
    return 0


async def _fill(execute: Callable[..., Awaitable[Any]]) -> None:
    for i in range(KEYS):
        await execute("INSERT INTO bot_state (key, value, updated_at) VALUES ($1, $2, $3)",
                      f"key{i}", f"value{i}", "2026-01-01T00:00:00+00:00")


async def _sqlite(args: argparse.Namespace, path: Path) -> None:
    db = await Database.open(path)
    await _fill(db.execute)
    ways: dict[str, Read] = {
        "direct": lambda key: db.fetch("SELECT value FROM bot_state WHERE key = ?", key),
        "storage.db": lambda key: db.fetch_value(
            "SELECT value FROM bot_state WHERE key = $1", key),
    }
    engine = _sqlalchemy(f"sqlite+aiosqlite:///{path}", ways)
    try:
        _report("SQLite", await _measure(ways, args))
    finally:
        if engine is not None:
            await engine.dispose()
        await db.close()


async def _postgres(args: argparse.Namespace, server: PostgresServer) -> None:
    url = await server.fresh_database()
    db = await PgDatabase.open(url)
    await _fill(db.execute)
    ways: dict[str, Read] = {
        "direct": lambda key: db.pool.fetchval("SELECT value FROM bot_state WHERE key = $1", key),
        "storage.db": lambda key: db.fetch_value(
            "SELECT value FROM bot_state WHERE key = $1", key),
    }
    engine = _sqlalchemy(url.replace("postgresql://", "postgresql+asyncpg://", 1), ways)
    try:
        _report("PostgreSQL", await _measure(ways, args))
    finally:
        if engine is not None:
            await engine.dispose()
        await db.close()


def _sqlalchemy(url: str, ways: dict[str, Read]) -> Any:
    """Add SQLAlchemy Core's way to `ways` when it is installed; its engine, to dispose of."""
    try:
        import sqlalchemy as sa
        from sqlalchemy.ext.asyncio import create_async_engine
    except ImportError:
        print("SQLAlchemy is not installed (pip install 'sqlalchemy[asyncio]'): not measured")
        return None
    engine = create_async_engine(url)
    table = sa.table("bot_state", sa.column("key"), sa.column("value"))
    statement = sa.select(table.c.value).where(table.c.key == sa.bindparam("key"))

    async def read(key: str) -> Any:
        async with engine.connect() as conn:
            return (await conn.execute(statement, {"key": key})).scalar()

    ways["SQLAlchemy Core"] = read
    return engine


async def _measure(ways: dict[str, Read], args: argparse.Namespace) -> dict[str, list[float]]:
    """Microseconds per read of each round of each way; every way warmed up first."""
    per_round = max(1, args.reads // args.rounds)
    keys = [f"key{i % KEYS}" for i in range(per_round)]
    for read in ways.values():
        for key in keys[:200]:
            assert await read(key) is not None
    means: dict[str, list[float]] = {name: [] for name in ways}
    names = list(ways)
    for round_ in range(args.rounds):
        turn = names[round_ % len(names):] + names[:round_ % len(names)]
        for name in turn:
            read = ways[name]
            start = time.perf_counter()
            for key in keys:
                await read(key)
            means[name].append((time.perf_counter() - start) / per_round * 1e6)
    return means


def _report(backend: str, means: dict[str, list[float]]) -> None:
    base = statistics.median(means["direct"])
    print(f"\n{backend}: µs per read by primary key (median of {len(means['direct'])} "
          "rounds; range)")
    for name, values in means.items():
        median = statistics.median(values)
        print(f"  {name:<16} {median:8.1f}  ({min(values):.1f}–{max(values):.1f})  "
              f"{median / base:.2f}× direct")
