"""The one database API (`storage.db`), the same on both backends: placeholders, rows, row
counts, transactions, locks and the dialect's arrays."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from domain.storage_faults import DatabaseBusy, DatabaseUnreachable
from storage.db import sqlite_sql
from storage.postgres.database import pg_errors
from storage.sqlite.database import Database
from tests.backends import Backend

INSERT = "INSERT INTO bot_state (key, value, updated_at) VALUES ($1, $2, $3)"


def test_pg_errors_name_the_environment_and_leave_bugs_alone() -> None:
    """A failure of the server or connection leaves as its `StorageError`; a bug unchanged."""
    with pytest.raises(DatabaseUnreachable, match="lost the connection") as lost, pg_errors:
        raise asyncpg.InterfaceError("connection is closed")
    assert isinstance(lost.value.__cause__, asyncpg.InterfaceError)
    bug = ValueError("a bug")
    with pytest.raises(ValueError) as raised, pg_errors:
        raise bug
    assert raised.value is bug


def test_numbered_placeholders_become_sqlites_numbered_ones() -> None:
    assert sqlite_sql("SELECT $1, $2, $1 WHERE x = $10") == "SELECT ?1, ?2, ?1 WHERE x = ?10"


async def test_reads_rows_and_values_by_position(backend: Backend) -> None:
    db = backend.db
    await db.execute_many(INSERT, [(f"k{i}", f"v{i}", "t") for i in range(3)])
    rows = await db.fetch("SELECT key, value FROM bot_state WHERE key <> $1 ORDER BY key"
                          f"{db.dialect.text_order}", "k1")
    assert [(row[0], row[1]) for row in rows] == [("k0", "v0"), ("k2", "v2")]
    row = await db.fetch_one("SELECT value, key FROM bot_state WHERE key = $1", "k2")
    assert row is not None and (row[0], row[1]) == ("v2", "k2")
    assert await db.fetch_one("SELECT value FROM bot_state WHERE key = $1", "nope") is None
    assert await db.fetch_value("SELECT value FROM bot_state WHERE key = $1", "k0") == "v0"
    assert await db.fetch_value("SELECT value FROM bot_state WHERE key = $1", "nope") is None


async def test_a_placeholder_used_twice_binds_the_same_value(backend: Backend) -> None:
    db = backend.db
    await db.execute(INSERT, "same", "same", "t")
    assert await db.fetch_value(
        "SELECT count(*) FROM bot_state WHERE key = $1 AND value = $1", "same") == 1


async def test_execute_counts_the_rows_it_changed(backend: Backend) -> None:
    db = backend.db
    await db.execute_many(INSERT, [("a", "1", "t"), ("b", "1", "t"), ("c", "2", "t")])
    assert await db.execute("UPDATE bot_state SET value = $1 WHERE value = $2", "3", "1") == 2
    assert await db.execute("DELETE FROM bot_state WHERE key = $1", "nope") == 0
    async with db.transaction() as tx:
        assert await tx.execute("DELETE FROM bot_state WHERE value = $1", "3") == 2


async def test_a_failed_transaction_leaves_nothing(backend: Backend) -> None:
    db = backend.db
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute(INSERT, "gone", "v", "t")
            assert await tx.fetch_value("SELECT value FROM bot_state WHERE key = $1",
                                        "gone") == "v"
            raise RuntimeError("abandon")
    assert await db.fetch("SELECT key FROM bot_state") == []


async def test_array_membership(backend: Backend) -> None:
    db = backend.db
    await db.execute_many(INSERT, [("x", "1", "t"), ("y", "2", "t"), ("z", "3", "t")])
    dialect = db.dialect
    rows = await db.fetch(f"SELECT key FROM bot_state WHERE key {dialect.in_array('$1')} "
                          f"ORDER BY key{dialect.text_order}", dialect.array(["z", "x", "w"]))
    assert [row[0] for row in rows] == ["x", "z"]
    assert await db.fetch(f"SELECT key FROM bot_state WHERE key {dialect.in_array('$1')}",
                          dialect.array([])) == []


async def test_arrays_read_side_by_side_as_rows(backend: Backend) -> None:
    db = backend.db
    dialect = db.dialect
    table = dialect.zipped(("$1", "bigint"), ("$2", "text"))
    rows = await db.fetch(f"SELECT c1, c2 FROM {table} ORDER BY c1",
                          dialect.array([3, 1, 2]), dialect.array(["c", "a", "b"]))
    assert [(row[0], row[1]) for row in rows] == [(1, "a"), (2, "b"), (3, "c")]
    in_order = await db.fetch(f"SELECT c2 FROM {table} ORDER BY n", dialect.array([3, 1, 2]),
                              dialect.array(["c", "a", "b"]))
    assert [row[0] for row in in_order] == ["c", "a", "b"]
    assert await db.fetch(f"SELECT c1 FROM {table}", dialect.array([]),
                          dialect.array([])) == []
    inserted = await db.fetch(
        f"INSERT INTO bot_state (key, value, updated_at) SELECT c2, c1, $3 FROM "
        f"{dialect.zipped(('$1', 'text'), ('$2', 'text'))} WHERE true ON CONFLICT DO NOTHING "
        "RETURNING key", dialect.array(["1", "2"]), dialect.array(["one", "two"]), "t")
    assert sorted(row[0] for row in inserted) == ["one", "two"]


async def test_a_lock_is_held_until_the_transaction_ends(backend: Backend) -> None:
    """Two transactions locking one key take turns: the second reads what the first wrote."""
    db = backend.db
    await db.execute(INSERT, "counter", "0", "t")

    async def bump() -> None:
        async with db.transaction() as tx:
            await tx.lock("counter")
            value = int(await tx.fetch_value(
                "SELECT value FROM bot_state WHERE key = $1", "counter"))
            await asyncio.sleep(0.01)
            await tx.execute("UPDATE bot_state SET value = $1 WHERE key = $2",
                             str(value + 1), "counter")

    await asyncio.gather(*(bump() for _ in range(4)))
    assert await db.fetch_value("SELECT value FROM bot_state WHERE key = $1", "counter") == "4"


async def test_sqlite_writes_keep_the_write_lock_its_hook_and_its_wait(tmp_path: Path) -> None:
    """The API wraps SQLite's `Database`: a write through it waits for the one write lock,
    defers through the `before_wait` hook first, and gives up as `DatabaseBusy`; reads go on
    (the reader pool) while another process holds the lock."""
    path = tmp_path / "busy.db"
    calls: list[str] = []

    async def hook() -> None:
        calls.append("deferred")

    database = await Database.open(path, write_wait=0.2, before_wait=hook)
    db = database
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(DatabaseBusy, match="another writer"):
            await db.execute(INSERT, "k", "v", "t")
        assert calls == ["deferred"]
        assert await db.fetch("SELECT key FROM bot_state") == []
        other.execute("ROLLBACK")
        assert await db.execute(INSERT, "k", "v", "t") == 1
        assert calls == ["deferred"]
    finally:
        other.close()
        await database.close()


async def test_sqlite_transactions_of_concurrent_tasks_never_interleave(tmp_path: Path) -> None:
    """Transactions from concurrent tasks take turns on the one writer (the lock)."""
    database = await Database.open(tmp_path / "turns.db")
    db = database
    order: list[str] = []

    async def write(name: str) -> None:
        async with db.transaction() as tx:
            order.append(f"{name} in")
            await tx.execute(INSERT, name, "v", "t")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    try:
        await asyncio.gather(write("a"), write("b"))
        assert order in (["a in", "a out", "b in", "b out"], ["b in", "b out", "a in", "a out"])
    finally:
        await database.close()
