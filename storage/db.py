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

`storage.sqlite.database.Database` and `storage.postgres.database.PgDatabase` are each a `Db`:
SQLite reads on its reader pool (outside a transaction) and writes on its one writer behind the
write lock (every `execute` and `transaction`), PostgreSQL runs each statement on its pool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import lru_cache
from typing import Any, Protocol

from storage.dialect import Dialect

__all__ = ["Db", "OnTransactions", "Row", "Statements", "Store", "Tx", "sqlite_sql"]

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


class OnTransactions:
    """What a `Db` does alike on both backends, on its own `transaction()`: a statement run
    once per row of arguments, or returning rows, in one transaction."""

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self.transaction() as tx:
            await tx.execute_many(sql, rows)

    async def returning(self, sql: str, *args: Any) -> list[Row]:
        async with self.transaction() as tx:
            return await tx.fetch(sql, *args)

    async def returning_one(self, sql: str, *args: Any) -> Row | None:
        rows = await self.returning(sql, *args)
        return rows[0] if rows else None


class Store:
    """A store written once over `Db`: its database and what the dialect spells its own way."""

    def __init__(self, db: Db) -> None:
        self._db = db
        self._dialect = db.dialect
        self._order = db.dialect.text_order

