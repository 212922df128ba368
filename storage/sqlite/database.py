"""The SQLite connections, transactions, start-up checks and migrations.

One writer connection, guarded by a lock so that transactions from concurrent tasks never
interleave, and a small pool of reader connections that see the last committed state (WAL), so
concurrent lookups run side by side and go on while a catalog load is being written.

The write lock is taken by polling `BEGIN IMMEDIATE` every few milliseconds (SQLite's own busy
handler sleeps up to 100 ms between tries and so rarely finds the short gap another process
leaves between its batches). Before waiting, the `before_wait` hook given at opening runs: the
bot passes one that defers the waiting command's interaction, so a reply never misses Discord's
deadline behind the lock.
`Database` is a `storage.db.Db`: statements written with `$n` placeholders (`sqlite_sql`).
Environmental failures leave as a `StorageError` naming the real cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from domain.paper import paper_id
from domain.storage_faults import (
    CorruptDatabase,
    DatabaseBusy,
    DiskFull,
    ReadOnlyDatabase,
    StorageError,
    UnusablePath,
)
from storage.db import Row, Tx, sqlite_sql
from storage.dialect import SQLITE
from storage.migrations import Versioned
from storage.papers.fts import stored_index_column
from storage.sqlite.errors import storage_failure
from storage.sqlite.migrations import MIGRATIONS

__all__ = ["Database", "SqliteTx"]

log = logging.getLogger(__name__)

READERS = 4
"""Reader connections in the pool (WAL lets them read at the same time)."""
WRITE_WAIT_SECONDS = 10.0
"""How long a write waits for the lock before `DatabaseBusy`."""
_POLL_SECONDS = 0.004
_SQLITE_HEADER = b"SQLite format 3\x00"
_SQLITE_BUSY = 5
MIN_FREE_BYTES = 1 << 20
"""Less free space than this beside the database makes an I/O error at start a full disk (the
shared-memory index and the write-ahead log are created or grown when it opens)."""

_PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 10000",
    "PRAGMA synchronous = NORMAL",
)

def check_path(path: Path) -> None:
    """Refuse a path that cannot hold a database, before SQLite creates anything."""
    if str(path).strip() in ("", "."):
        raise UnusablePath("the database path is empty: name the SQLite file, e.g. paperclub.db")
    if path.is_dir():
        raise UnusablePath(f"{path} is a directory, not a database file")
    if not path.parent.is_dir():
        raise UnusablePath(f"{path.parent}: no such directory (create it, or fix the path)")
    if path.exists():
        try:
            with path.open("rb") as handle:
                head = handle.read(len(_SQLITE_HEADER))
        except OSError as exc:
            raise storage_failure(exc, str(path)) or StorageError(str(exc)) from exc
        if head and head != _SQLITE_HEADER:
            raise CorruptDatabase(f"{path} is not a SQLite database")


def check_writable(path: Path) -> None:
    """Refuse an existing database file this process cannot write (permissions, an immutable
    attribute, a read-only mount), as SQLite tries it: it would open the file read-only and
    fail at the first write, long after the start."""
    if not path.exists():
        return
    try:
        os.close(os.open(path, os.O_RDWR))
    except OSError as exc:
        raise ReadOnlyDatabase(f"read-only database: {path}: {exc.strerror}: paperclub writes "
                               "to it (check its permissions, attributes and mount)") from exc


def _opening_failure(exc: BaseException, path: str | Path) -> BaseException:
    """`exc` met while opening `path`, as the `StorageError` that names its cause: an I/O error
    with (almost) no space left beside the file is a full disk."""
    failure = _translated(exc, str(path))
    if type(failure) is not StorageError or str(path) == ":memory:":
        return failure
    folder = Path(path).parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return failure
    if free >= MIN_FREE_BYTES:
        return failure
    return DiskFull(f"disk full: {free:,} bytes free in {folder}, where {path} needs room for "
                    f"its write-ahead log and index (SQLite: {exc})")


class _Statements:
    """`fetch_one` and `fetch_value` read from `fetch`: SQLite fetches a read whole in one
    step (see `Database.fetch`)."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        raise NotImplementedError

    async def fetch_one(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetch_value(self, sql: str, *args: Any) -> Any:
        rows = await self.fetch(sql, *args)
        return rows[0][0] if rows else None


class SqliteTx(_Statements):
    """A `storage.db.Tx` on the writer connection (`conn`), inside `Database.transaction()`."""

    __slots__ = ("conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.conn.execute_fetchall(sqlite_sql(sql), args))

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self.conn.execute(sqlite_sql(sql), args)
        return max(cursor.rowcount, 0)

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(sqlite_sql(sql), rows)

    async def lock(self, key: str) -> None:
        """Nothing to take: `BEGIN IMMEDIATE` holds the one write lock already."""


class Database(_Statements, Versioned):
    """Owns the connections; open with `Database.open(path)` and always `close()`. Reads
    outside a transaction run on the reader pool, every write on the writer under the write
    lock (and its wait, `before_wait` hook and errors)."""

    MIGRATIONS = MIGRATIONS
    dialect = SQLITE

    def __init__(self, writer: aiosqlite.Connection,
                 readers: Sequence[aiosqlite.Connection]) -> None:
        self._writer = writer
        self._readers = tuple(readers)
        self._free: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for conn in self._readers:
            self._free.put_nowait(conn)
        self._lock = asyncio.Lock()
        self.write_wait = WRITE_WAIT_SECONDS
        self.before_wait: Callable[[], Awaitable[None]] | None = None
        """Awaited just before a transaction starts waiting for the write lock."""

    @classmethod
    async def open(cls, path: str | Path, *, migrate: bool = True, readers: int = READERS,
                   verify: bool = False, write_wait: float = WRITE_WAIT_SECONDS,
                   before_wait: Callable[[], Awaitable[None]] | None = None,
                   read_only: bool = False) -> Database:
        """Check the file, connect, enable WAL, and bring the schema up to date (refusing a
        newer one). `verify` runs `PRAGMA quick_check` first (about a second at 150k papers:
        the bot's start asks for it, a command-line lookup does not). Every refusal is a
        `StorageError` with a one-line reason; no missing directory is ever created.
        `read_only` (a reading command in a directory it cannot write): opened for reading
        only, nothing migrated, the journal mode left as it is."""
        migrate = migrate and not read_only
        memory = str(path) == ":memory:"
        if not memory:
            check_path(Path(path))
            if migrate:  # it will be written: SQLite would quietly open it read-only instead
                check_writable(Path(path))
        try:
            writer = await _connect(path, read_only=read_only)
        except sqlite3.Error as exc:
            failure = _opening_failure(exc, path)
            raise (failure if isinstance(failure, StorageError) else StorageError(str(exc))
                   ) from exc
        pool: list[aiosqlite.Connection] = []
        try:
            if verify:
                await _quick_check(writer, path)
            mode = await _scalar(writer, "PRAGMA journal_mode" if read_only
                                 else "PRAGMA journal_mode = WAL")
            if not memory and not read_only and str(mode).lower() != "wal":
                raise StorageError(f"could not switch {path} to WAL mode (got {mode})")
            await writer.execute("PRAGMA busy_timeout = 0")  # `_begin` polls instead
            for _ in range(0 if memory else max(1, readers)):
                pool.append(await _connect(path, read_only=read_only))
        except BaseException as exc:
            for conn in (*pool, writer):
                await conn.close()
            raise _opening_failure(exc, path) from exc
        db = cls(writer, pool or [writer])
        db.write_wait, db.before_wait = write_wait, before_wait
        await db._ready(migrate, lambda exc: _opening_failure(exc, path))
        return db

    async def close(self) -> None:
        """Close every connection (their threads end with them)."""
        for conn in self._readers:
            if conn is not self._writer:
                await conn.close()
        await self._writer.close()

    @property
    def readers(self) -> int:
        """How many reader connections serve `fetch`."""
        return len(self._readers)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """Rows of a read, executed and fetched in one step on a free reader connection.

        One step matters: a statement left open across an `await` would pin the reader's
        snapshot, and other tasks' reads would then miss rows committed meanwhile.
        """
        conn = await self._free.get()
        try:
            return list(await conn.execute_fetchall(sqlite_sql(sql), args))
        except sqlite3.Error as exc:
            raise _translated(exc) from exc
        finally:
            self._free.put_nowait(conn)

    async def execute(self, sql: str, *args: Any) -> int:
        async with self.transaction() as tx:
            return await tx.execute(sql, *args)

    async def prime(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run each statement once on every reader connection, so that each holds it compiled
        in its statement cache before a lookup needs it: compiling the search's ranking
        statement takes ~15 ms, paid once per connection (and again after a load renames the
        tables). Each call queues behind whatever the connection is running."""
        for conn in self._readers:
            for sql, params in statements:
                try:
                    await conn.execute_fetchall(sql, params)
                except sqlite3.Error as exc:
                    raise _translated(exc) from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTx]:
        """`BEGIN IMMEDIATE` ... `COMMIT`, or `ROLLBACK` on any exception; one at a time.

        Waits at most `write_wait` seconds for the lock (`DatabaseBusy`); a disk that is full,
        read-only or damaged surfaces as the matching `StorageError`, never as a failed
        ROLLBACK hiding the cause.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.write_wait
        if self._lock.locked():
            await self._before_wait()
            try:
                await asyncio.wait_for(self._lock.acquire(), self.write_wait)
            except TimeoutError:
                raise self._busy() from None
        else:
            await self._lock.acquire()
        try:
            await self._begin(deadline)
            try:
                yield SqliteTx(self._writer)
            except BaseException as exc:
                await self._rollback()
                raise _translated(exc) from exc
            try:
                await self._writer.execute("COMMIT")
            except sqlite3.Error as exc:
                await self._rollback()
                raise _translated(exc) from exc
        finally:
            self._lock.release()

    async def _begin(self, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        waited = False
        while True:
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                return
            except asyncio.CancelledError:
                await self._cancelled_begin()
                raise
            except sqlite3.OperationalError as exc:
                if (getattr(exc, "sqlite_errorcode", 0) & 0xFF) != _SQLITE_BUSY:
                    raise _translated(exc) from exc
            if not waited:  # before the deadline check: a slow first try still defers
                waited = True
                await self._before_wait()
            if loop.time() >= deadline:
                raise self._busy()
            await asyncio.sleep(_POLL_SECONDS)

    async def _before_wait(self) -> None:
        """Run the hook before a wait (it defers an interaction); its failure is only logged."""
        if self.before_wait is None:
            return
        try:
            await self.before_wait()
        except Exception:
            log.warning("write wait hook failed", exc_info=True)

    def _busy(self) -> DatabaseBusy:
        return DatabaseBusy(f"database busy: another writer held the lock for over "
                            f"{self.write_wait:g} s (a catalog load?)")

    async def _cancelled_begin(self) -> None:
        """A task cancelled while aiosqlite's thread runs its BEGIN: the BEGIN still runs, so
        wait for the thread (a no-op queued after it), then roll back what it opened, before
        the lock is released (else the next transaction's BEGIN fails inside this one)."""
        with contextlib.suppress(sqlite3.Error):
            await self._writer.execute("SELECT 1")
        await self._rollback()

    async def _rollback(self) -> None:
        """Roll back if a transaction is still open (SQLite ends some on its own, e.g. when
        the disk is full); a failure here is logged, never raised over the real error."""
        if not self._writer.in_transaction:
            return
        try:
            await self._writer.execute("ROLLBACK")
        except sqlite3.Error as exc:
            log.warning("rollback failed: %s", exc)

    async def schema_version(self) -> int:
        """The version stored in the database file."""
        return int(await _scalar(self._writer, "PRAGMA user_version"))

    async def _current(self, tx: Tx) -> int:
        return int(await tx.fetch_value("PRAGMA user_version"))

    async def _record(self, tx: Tx, version: int) -> None:
        await tx.execute(f"PRAGMA user_version = {int(version)}")


def _translated(exc: BaseException, where: str = "") -> BaseException:
    """`exc` as a `StorageError` when it is an environmental failure, else unchanged."""
    return storage_failure(exc, where) or exc


async def _quick_check(conn: aiosqlite.Connection, path: str | Path) -> None:
    rows = [str(row[0]) for row in await conn.execute_fetchall("PRAGMA quick_check")]
    if rows != ["ok"]:
        # One row can hold a whole report ("*** in database main ***\nOn tree page 105 …"):
        # name the first problem, count the others.
        problems = [line for row in rows for line in row.splitlines()
                    if line.strip() and not line.startswith("*** in database")]
        first = problems[0] if problems else "no result"
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise CorruptDatabase(f"database corrupted: {path}: {first}{more}: restore it from a "
                              "backup")


def _read_only_uri(path: Path) -> str:
    """A URI that opens `path` for reading only. In a directory this process cannot write,
    SQLite cannot create the WAL's shared-memory file; with no `-wal` file beside the database
    no writer is active (none could create one), so the file is opened as immutable."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    wal = path.with_name(path.name + "-wal")
    if not os.access(path.parent, os.W_OK) and not wal.exists():
        uri += "&immutable=1"
    return uri


async def _connect(path: str | Path, *, read_only: bool = False) -> aiosqlite.Connection:
    conn = await (aiosqlite.connect(_read_only_uri(Path(path)), uri=True, isolation_level=None)
                  if read_only else aiosqlite.connect(path, isolation_level=None))
    try:
        for pragma in _PRAGMAS:
            await conn.execute(pragma)
        await conn.create_function("paperclub_id", 1, paper_id, deterministic=True)
        await conn.create_function("paperclub_index", 13, stored_index_column, deterministic=True)
        await conn.create_function("paperclub_index", 14, stored_index_column, deterministic=True)
    except BaseException:
        await conn.close()
        raise
    return conn


async def _scalar(conn: aiosqlite.Connection, sql: str) -> Any:
    rows = list(await conn.execute_fetchall(sql))
    return rows[0][0] if rows else None

