"""The one database API (`storage.db`), the same on both backends: placeholders, rows, row
counts, transactions, locks and the dialect's array membership."""

from __future__ import annotations

import asyncio

import pytest

from storage.db import database_api, sqlite_sql
from tests.backends import Backend

INSERT = "INSERT INTO bot_state (key, value, updated_at) VALUES ($1, $2, $3)"


def test_numbered_placeholders_become_sqlites_numbered_ones() -> None:
    assert sqlite_sql("SELECT $1, $2, $1 WHERE x = $10") == "SELECT ?1, ?2, ?1 WHERE x = ?10"


async def test_reads_rows_and_values_by_position(backend: Backend) -> None:
    db = database_api(backend.db)
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
    db = database_api(backend.db)
    await db.execute(INSERT, "same", "same", "t")
    assert await db.fetch_value(
        "SELECT count(*) FROM bot_state WHERE key = $1 AND value = $1", "same") == 1


async def test_execute_counts_the_rows_it_changed(backend: Backend) -> None:
    db = database_api(backend.db)
    await db.execute_many(INSERT, [("a", "1", "t"), ("b", "1", "t"), ("c", "2", "t")])
    assert await db.execute("UPDATE bot_state SET value = $1 WHERE value = $2", "3", "1") == 2
    assert await db.execute("DELETE FROM bot_state WHERE key = $1", "nope") == 0
    async with db.transaction() as tx:
        assert await tx.execute("DELETE FROM bot_state WHERE value = $1", "3") == 2


async def test_a_failed_transaction_leaves_nothing(backend: Backend) -> None:
    db = database_api(backend.db)
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute(INSERT, "gone", "v", "t")
            assert await tx.fetch_value("SELECT value FROM bot_state WHERE key = $1",
                                        "gone") == "v"
            raise RuntimeError("abandon")
    assert await db.fetch("SELECT key FROM bot_state") == []


async def test_array_membership(backend: Backend) -> None:
    db = database_api(backend.db)
    await db.execute_many(INSERT, [("x", "1", "t"), ("y", "2", "t"), ("z", "3", "t")])
    dialect = db.dialect
    rows = await db.fetch(f"SELECT key FROM bot_state WHERE key {dialect.in_array('$1')} "
                          f"ORDER BY key{dialect.text_order}", dialect.array(["z", "x", "w"]))
    assert [row[0] for row in rows] == ["x", "z"]
    assert await db.fetch(f"SELECT key FROM bot_state WHERE key {dialect.in_array('$1')}",
                          dialect.array([])) == []


async def test_a_lock_is_held_until_the_transaction_ends(backend: Backend) -> None:
    """Two transactions locking one key take turns: the second reads what the first wrote."""
    db = database_api(backend.db)
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
