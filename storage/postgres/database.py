"""The PostgreSQL connection pool, transactions, start-up checks and migrations.

One asyncpg pool per process. Reads run on any pooled connection (each statement sees the last
committed state); writes run in `transaction()`, READ COMMITTED by default, where the stores rely
on single atomic statements (`INSERT … ON CONFLICT DO NOTHING RETURNING`, conditional `UPDATE`)
or on row locks (`SELECT … FOR UPDATE`), the equivalent of SQLite's `BEGIN IMMEDIATE` discipline.
A failure to reach the server or a refused login leaves as one line (`DatabaseUnreachable`);
the password never appears in a message. `PgDatabase` is a `storage.db.Db`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractContextManager, asynccontextmanager
from typing import Any, Literal, cast
from urllib.parse import parse_qs, urlsplit

import asyncpg

from domain.storage_faults import (
    DatabaseUnreachable,
    DiskFull,
    ReadOnlyDatabase,
    StorageError,
)
from storage.db import Row, Statements, Tx
from storage.dialect import POSTGRES
from storage.migrations import Versioned
from storage.postgres.migrations import MIGRATIONS

__all__ = ["SERVER_SETTINGS", "Isolation", "PgDatabase", "PgTx", "where_of"]

Isolation = Literal["read_committed", "repeatable_read", "serializable"]
CONNECT_TIMEOUT_SECONDS = 10.0
SERVER_SETTINGS = {"plan_cache_mode": "force_custom_plan"}
"""Session settings of every pooled connection. asyncpg prepares each statement, and after five
runs PostgreSQL would switch it to a generic plan, blind to the bound values: a search's
`tsquery` then looks as selective as any, and a rare word's search walked every row backwards
by id instead of using the GIN index (0.6 s instead of 2 ms at 100k papers). Planning one of
these statements for its values costs tens of microseconds; the search, whose SQL fixes its
plan and takes long to plan, runs on connections of its own (`fetch_planned_once`)."""
PLANNED_ONCE_SETTINGS = {"plan_cache_mode": "force_generic_plan", "enable_seqscan": "off"}
"""Session settings of the connections `fetch_planned_once` uses: each prepared statement
planned once, for its shape, never again for its values; and never a sequential scan, which a
plan blind to the values could prefer to walking an index whose rows the table no longer
keeps in order (after many reloads): a search's every step has an index way."""
PLANNED_STATEMENTS = 64
PLANNED_STATEMENT_BYTES = 256 * 1024
"""How many statements each of those connections keeps prepared (the least recently used
closed first), and up to what size: a search's SQL takes one form per shape of its query
(tiers, phrases, prefixes; the benchmark's 277 queries at two page sizes take 56), and a prefix
expanded to its completions makes it tens of kilobytes, past asyncpg's default 15 KiB, over
which a statement was parsed and planned again on every run. A kept plan holds about 0.65 MB
of the server's memory (36 MB for those 56), so 64 bound each search connection to ~40 MB."""
_MIGRATION_LOCK = 0x70617065  # pg_advisory_xact_lock key: one migrating process at a time


async def _kept_session(conn: asyncpg.Connection) -> None:
    """A released connection's reset: nothing beyond asyncpg's own (it rolls back an open
    transaction). The default also sends `RESET ALL`, `CLOSE ALL`, `UNLISTEN *` and
    `pg_advisory_unlock_all()`, one more round trip on every release (a search's third), for
    session state paperclub never leaves: it takes only transaction-scoped advisory locks and
    `SET LOCAL`, never `LISTEN`s and holds no cursor outside a transaction."""


def where_of(url: str) -> str:
    """The server and database of a URL, for messages: never the user's password."""
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    socket = parse_qs(parts.query).get("host", [""])[0]
    host = parts.hostname or socket or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{user}{host}{port}{parts.path or '/'}"


def _unreachable(exc: BaseException, url: str) -> StorageError:
    where = where_of(url)
    refused = asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
    if isinstance(exc, refused):
        return DatabaseUnreachable(f"PostgreSQL refused the credentials for {where}: {exc}")
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return DatabaseUnreachable(f"PostgreSQL at {where}: no such database ({exc})")
    if isinstance(exc, TimeoutError):
        return DatabaseUnreachable(f"cannot reach PostgreSQL at {where}: timed out after "
                                   f"{CONNECT_TIMEOUT_SECONDS:g} s")
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    reason = reason or type(exc).__name__
    return DatabaseUnreachable(f"cannot reach PostgreSQL at {where}: {reason}")


def pg_failure(exc: BaseException) -> StorageError | None:
    """The `StorageError` for an environmental PostgreSQL failure, or None for a bug."""
    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, asyncpg.DiskFullError):
        return DiskFull(f"disk full: {exc}")
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return ReadOnlyDatabase(f"read-only database: {exc}")
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return ReadOnlyDatabase(f"permission denied: {exc}")
    if isinstance(exc, asyncpg.PostgresConnectionError | asyncpg.InterfaceError
                  | ConnectionError):
        return DatabaseUnreachable(f"lost the connection to PostgreSQL: {exc}")
    return None


class _Statements:
    """Statements on what runs them: one pooled connection in a transaction, or the pool
    (each statement on its own); a failure of the environment leaves as its `StorageError`."""

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


class PgTx(_Statements):
    """A `storage.db.Tx` on one pooled connection (`conn`) inside `PgDatabase.transaction()`."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        super().__init__(conn)
        self.conn = conn

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)

    async def lock(self, key: str) -> None:
        await self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


class PgDatabase(_Statements, Versioned):
    """Owns the pool; open with `PgDatabase.open(url)` and always `close()`. Each statement
    outside a transaction runs on the pool."""

    MIGRATIONS = MIGRATIONS
    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, planned_once: asyncpg.Pool, url: str) -> None:
        super().__init__(pool)
        self._pool = pool
        self._planned_once = planned_once
        self.url = url

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True, pool_size: int = 10) -> PgDatabase:
        """Connect, refuse a schema newer than the code, and bring the schema up to date."""
        try:
            pool = await _pool(url, 1, pool_size, SERVER_SETTINGS)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
                ValueError) as exc:
            raise _unreachable(exc, url) from exc
        # opened as searches need them: nothing to connect (or fail) here
        planned_once = await _pool(url, 0, pool_size, PLANNED_ONCE_SETTINGS,
                                   statement_cache_size=PLANNED_STATEMENTS,
                                   max_cacheable_statement_size=PLANNED_STATEMENT_BYTES)
        db = cls(pool, planned_once, url)
        await db._ready(migrate, lambda exc: pg_failure(exc) or exc)
        return db

    async def close(self) -> None:
        """Close every pooled connection."""
        await self._planned_once.close()
        await self._pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        """The pool every statement outside `transaction()` runs on."""
        return self._pool

    async def fetch_planned_once(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """The rows of a statement whose SQL fixes its plan's shape (no bound value can make
        another way better), on a connection that plans each statement once, not for each
        run's values. Planning a search for its values took three times as long as running
        it (a median of 0.47 against 0.15 ms at 100k papers)."""
        with pg_errors:
            return list(await self._planned_once.fetch(sql, *args))

    @asynccontextmanager
    async def transaction(self, isolation: Isolation = "read_committed", *,
                          binary_tsvector: bool = False) -> AsyncIterator[PgTx]:
        """One connection in one transaction: COMMIT at the end, ROLLBACK on any exception.
        `binary_tsvector`: on this connection, for this transaction only, `tsvector` values
        travel in their binary form, as bytes (`storage.papers.postgres_vectors`)."""
        with pg_errors:
            async with self._pool.acquire() as conn:
                if binary_tsvector:
                    await conn.set_type_codec("tsvector", schema="pg_catalog", encoder=bytes,
                                              decoder=bytes, format="binary")
                try:
                    async with conn.transaction(isolation=isolation):
                        yield PgTx(conn)
                finally:
                    if binary_tsvector and not conn.is_closed():
                        await conn.reset_type_codec("tsvector", schema="pg_catalog")

    async def schema_version(self) -> int:
        """The version recorded in the database (0 for an empty one)."""
        return await _version(self)

    async def _current(self, tx: Tx) -> int:
        """One migrating process at a time; the version's table created first."""
        await tx.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await tx.execute(
            "CREATE TABLE IF NOT EXISTS paperclub_schema (version integer NOT NULL)")
        return await _version(tx)

    async def _record(self, tx: Tx, version: int) -> None:
        await tx.execute("DELETE FROM paperclub_schema")
        await tx.execute("INSERT INTO paperclub_schema (version) VALUES ($1)", version)


async def _pool(url: str, least: int, most: int, settings: dict[str, str],
                **options: Any) -> asyncpg.Pool:
    return await asyncpg.create_pool(
        url, min_size=least, max_size=max(1, most), timeout=CONNECT_TIMEOUT_SECONDS,
        command_timeout=None, server_settings=settings, reset=_kept_session, **options)


async def _version(on: Statements) -> int:
    exists = await on.fetch_value("SELECT to_regclass('paperclub_schema') IS NOT NULL")
    if not exists:
        return 0
    value = await on.fetch_value("SELECT max(version) FROM paperclub_schema")
    return int(value) if value is not None else 0


class _PgErrors(AbstractContextManager[None]):
    """Raises an environmental PostgreSQL failure within as its `StorageError` (a class, not
    a generator: it wraps every statement, and costs a tenth as much)."""

    __slots__ = ()

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> None:
        failure = pg_failure(exc) if isinstance(exc, Exception) else None
        if failure is not None and failure is not exc:
            raise failure from exc


pg_errors = _PgErrors()
"""`with pg_errors:` a PostgreSQL failure of the environment leaves as its `StorageError`."""


def rows_affected(status: str) -> int:
    """The row count of a command status such as `UPDATE 3` or `INSERT 0 1`."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0

