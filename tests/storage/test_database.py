"""Connections, migrations and transactions."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from domain.storage_faults import SchemaError
from storage.sqlite.database import Database
from storage.sqlite.migrations import LATEST_VERSION, MIGRATIONS


async def test_migrates_an_empty_database_to_the_latest_version(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "new.db")
    try:
        assert await db.schema_version() == LATEST_VERSION
        assert await db.fetch("PRAGMA journal_mode") == [("wal",)]
        assert await db.fetch("PRAGMA foreign_keys") == [(1,)]
        names = {row[0] for row in await db.fetch(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        assert {"papers", "paper_honours", "paper_fts", "catalog_loads"} <= names
    finally:
        await db.close()


async def test_reopening_is_idempotent(tmp_path: Path) -> None:
    for _ in range(2):
        db = await Database.open(tmp_path / "again.db")
        assert await db.migrate() == LATEST_VERSION
        await db.close()


async def test_refuses_a_database_newer_than_the_code(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(SchemaError, match="newer than this paperclub"):
        await Database.open(path)


def test_migrations_are_numbered_in_order() -> None:
    """Strictly increasing from 1 (a branch's migration keeps the number it was given until
    the merge closes the gap)."""
    versions = [m.version for m in MIGRATIONS]
    assert versions[0] == 1 and versions == sorted(set(versions))


async def test_failed_transaction_rolls_back(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO catalog_loads (source, loaded_at, added, updated, unchanged, "
                "removed, rejected) VALUES ('x', 'now', 0, 0, 0, 0, 0)"
            )
            raise RuntimeError("boom")
    assert await db.fetch("SELECT count(*) FROM catalog_loads") == [(0,)]


async def test_concurrent_transactions_never_interleave(db: Database) -> None:
    """Task B must not commit task A's half-done work (the shared-connection pitfall)."""
    a_inside = asyncio.Event()

    async def task_a() -> None:
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO catalog_loads (source, loaded_at, added, updated, unchanged, "
                "removed, rejected) VALUES ('a', 'now', 0, 0, 0, 0, 0)"
            )
            a_inside.set()
            await asyncio.sleep(0.05)
            raise RuntimeError("a fails after B tried to commit")

    async def task_b() -> None:
        await a_inside.wait()
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO catalog_loads (source, loaded_at, added, updated, unchanged, "
                "removed, rejected) VALUES ('b', 'now', 0, 0, 0, 0, 0)"
            )

    results = await asyncio.gather(task_a(), task_b(), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert await db.fetch("SELECT source FROM catalog_loads") == [("b",)]


async def test_a_task_cancelled_while_beginning_leaves_no_transaction_open(
        db: Database) -> None:
    async def write() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO bot_state (key, value) VALUES ('a', 'b')")

    for _ in range(3):
        task = asyncio.create_task(write())
        await asyncio.sleep(0)  # now awaiting its BEGIN in aiosqlite's thread
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        async with db.transaction() as tx:  # would fail: a transaction within a transaction
            await tx.execute("DELETE FROM bot_state WHERE key = 'a'")
