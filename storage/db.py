"""One async database API over both backends, so that a store is written once.

`Db` runs a statement on either backend: `fetch` (all rows), `fetch_one`, `fetch_value`,
`execute` (the rows it changed), `execute_many`, `returning` / `returning_one` (the rows a
writing statement returns, in a transaction of its own), and `transaction()`, which hands out a
`Tx` offering the same calls on one connection, committed at the end and rolled back on any
exception. `Store` is what every store is built on. Statements are written with PostgreSQL's
numbered placeholders (`$1`, `$2`, a number may be used twice); on SQLite they become `?1`,
`?2`, which bind the same way. A row is a `Row`: a tuple on SQLite, an `asyncpg.Record` on
PostgreSQL, both read by position.

What the two dialects really spell differently is asked of `db.dialect`
(`storage.dialect.Dialect`: text order, row locks, array membership), and `Tx.lock(key)` takes
a lock for the rest of the transaction (PostgreSQL's advisory lock; SQLite's transaction holds
the one write lock already).

The API wraps the backends' own database classes and changes nothing of them: SQLite keeps its
reader pool (reads outside a transaction) and its one writer behind the write lock (every
`execute` and `transaction`), PostgreSQL its pool.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from typing import Any, Generic, Protocol, TypeVar, cast

import aiosqlite
import asyncpg

from storage.dialect import POSTGRES, SQLITE, Dialect
from storage.postgres.database import PgDatabase, pg_errors, rows_affected
from storage.sqlite.database import Database

__all__ = ["Db", "PgDb", "Row", "SqliteDb", "Store", "Tx", "database_api", "tx_on"]

Row = Sequence[Any]
"""One row, read by position."""

_NUMBERED = re.compile(r"\$(\d+)")


class Statements(Protocol):
    """Statements outside a transaction (each stands alone, reads see the last committed
    state) or on the one connection of a transaction."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """Every row of a statement."""

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        """The first row, or None."""

    async def fetch_value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, or None."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; how many rows it inserted, changed or deleted."""

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per row of arguments (outside a transaction: in one)."""


class Tx(Statements, Protocol):
    """Statements on the one connection of a transaction."""

    async def lock(self, key: str) -> None:
        """Hold a lock named `key` until the transaction ends (one holder at a time)."""


class Db(Statements, Protocol):
    """A database of either backend."""

    @property
    def dialect(self) -> Dialect:
        """What this backend spells its own way."""

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One transaction: committed at the end, rolled back on any exception."""

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        """The rows a writing statement returns (`… RETURNING`), in a transaction of its own."""

    async def returning_one(self, sql: str, *args: Any) -> Row | None:
        """The first row a writing statement returns, or None."""


@lru_cache(maxsize=2048)
def sqlite_sql(sql: str) -> str:
    """`$n` placeholders as SQLite's `?n` (the statements are a fixed set: cached)."""
    return _NUMBERED.sub(r"?\1", sql)


DatabaseT = TypeVar("DatabaseT", bound="Database | PgDatabase")


class _OnDatabase(Generic[DatabaseT]):
    """What a `Db` does alike on both backends: its database's own transaction, handed out as
    a `Tx`; a statement run once per row of arguments, or returning rows, in one transaction."""

    __slots__ = ()
    database: DatabaseT
    _tx: Callable[[Any], Tx]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self.database.transaction() as conn:
            yield self._tx(conn)

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self.transaction() as tx:
            await tx.execute_many(sql, rows)

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        async with self.transaction() as tx:
            return await tx.fetch(sql, *args)

    async def returning_one(self, sql: str, *args: Any) -> Row | None:
        rows = await self.returning(sql, *args)
        return rows[0] if rows else None


class _SqliteStatements:
    """`fetch_one` and `fetch_value` read from `fetch`: SQLite fetches a read whole in one
    step (see `Database.fetchall`)."""

    __slots__ = ()

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        raise NotImplementedError

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetch_value(self, sql: str, *args: Any) -> Any:
        rows = await self.fetch(sql, *args)
        return rows[0][0] if rows else None


class _SqliteTx(_SqliteStatements):
    """A `Tx` on SQLite's writer connection, inside `Database.transaction()`."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self._conn.execute_fetchall(sqlite_sql(sql), args))

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self._conn.execute(sqlite_sql(sql), args)
        return max(cursor.rowcount, 0)

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sqlite_sql(sql), rows)

    async def lock(self, key: str) -> None:
        """Nothing to take: `BEGIN IMMEDIATE` holds the one write lock already."""


class SqliteDb(_OnDatabase[Database], _SqliteStatements):
    """`Db` over `storage.sqlite.database.Database`: reads on its reader pool, writes on its
    writer under its write lock (and its wait, `before_wait` hook and errors)."""

    __slots__ = ("database",)
    dialect = SQLITE
    _tx = _SqliteTx

    def __init__(self, database: Database) -> None:
        self.database = database

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return await self.database.fetchall(sqlite_sql(sql), args)

    async def execute(self, sql: str, *args: Any) -> int:
        async with self.transaction() as tx:
            return await tx.execute(sql, *args)


class _PgStatements:
    """Statements on what runs them: one pooled connection in a transaction, or the pool
    (each statement on its own); a failure of the environment leaves as its `StorageError`."""

    __slots__ = ("_on",)

    def __init__(self, on: asyncpg.Connection | asyncpg.Pool) -> None:
        self._on = on

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with pg_errors:
            return cast(list[Row], await self._on.fetch(sql, *args))

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        with pg_errors:
            return cast(Row | None, await self._on.fetchrow(sql, *args))

    async def fetch_value(self, sql: str, *args: Any) -> Any:
        with pg_errors:
            return await self._on.fetchval(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        with pg_errors:
            return rows_affected(await self._on.execute(sql, *args))


class _PgTx(_PgStatements):
    """A `Tx` on one pooled PostgreSQL connection inside `PgDatabase.transaction()`."""

    __slots__ = ()

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._on.executemany(sql, rows)

    async def lock(self, key: str) -> None:
        await self._on.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


class PgDb(_OnDatabase[PgDatabase], _PgStatements):
    """`Db` over `storage.postgres.database.PgDatabase`: each statement on its pool."""

    __slots__ = ("database",)
    dialect = POSTGRES
    _tx = _PgTx

    def __init__(self, database: PgDatabase) -> None:
        super().__init__(database.pool)
        self.database = database


class Store:
    """A store written once over `Db`: its database and what the dialect spells its own way."""

    def __init__(self, db: Db) -> None:
        self._db = db
        self._dialect = db.dialect
        self._order = db.dialect.text_order


def database_api(database: Database | PgDatabase) -> Db:
    """The one API over an open database of either backend."""
    if isinstance(database, PgDatabase):
        return PgDb(database)
    return SqliteDb(database)


def tx_on(conn: asyncpg.Connection) -> Tx:
    """A `Tx` on a connection already inside `PgDatabase.transaction()`: the catalog's load,
    which needs the connection itself for `COPY`."""
    return _PgTx(conn)
