"""The SQLite connection pair, transactions and migrations.

One writer connection, guarded by a lock so that transactions from concurrent tasks never
interleave, and one reader connection that sees the last committed state (WAL), so lookups go on
while a long catalog load is being written.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.models import paper_id
from storage.fts import stored_index_column
from storage.migrations import LATEST_VERSION, MIGRATIONS


def utc_timestamp() -> str:
    """Now in UTC, ISO 8601 to the second: the form every stored timestamp takes."""
    return datetime.now(UTC).isoformat(timespec="seconds")

log = logging.getLogger(__name__)

_PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 10000",
    "PRAGMA synchronous = NORMAL",
)


class SchemaError(RuntimeError):
    """The database cannot be used by this version of the code."""


class Database:
    """Owns the connections; open with `Database.open(path)` and always `close()`."""

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, migrate: bool = True) -> Database:
        """Connect, enable WAL, and bring the schema up to date (refusing a newer one)."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path)
        try:
            mode = await _scalar(writer, "PRAGMA journal_mode = WAL")
            if str(path) != ":memory:" and str(mode).lower() != "wal":
                raise SchemaError(f"could not switch {path} to WAL mode (got {mode})")
            reader = writer if str(path) == ":memory:" else await _connect(path)
        except BaseException:
            await writer.close()
            raise
        db = cls(writer, reader)
        try:
            await db.check_version()
            if migrate:
                await db.migrate()
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        """Close both connections (their threads end with them)."""
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

    @property
    def reader(self) -> aiosqlite.Connection:
        """The connection for reads outside a transaction."""
        return self._reader

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of a read, executed and fetched in one step on the reader connection.

        One step matters: a statement left open across an `await` would pin the reader's
        snapshot, and other tasks' reads would then miss rows committed meanwhile.
        """
        return list(await self._reader.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        """The first row of a read (see `fetchall`), or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """`BEGIN IMMEDIATE` ... `COMMIT`, or `ROLLBACK` on any exception; one at a time."""
        async with self._lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")

    async def schema_version(self) -> int:
        """The version stored in the database file."""
        return await _int(self._writer, "PRAGMA user_version")

    async def check_version(self) -> None:
        """Refuse a database written by a newer paperclub."""
        version = await self.schema_version()
        if version > LATEST_VERSION:
            raise SchemaError(
                f"database schema version {version} is newer than this paperclub understands "
                f"({LATEST_VERSION}); upgrade paperclub or use another database file"
            )

    async def migrate(self) -> int:
        """Apply pending migrations, each in its own transaction; returns the new version."""
        for migration in MIGRATIONS:
            async with self.transaction() as conn:
                current = await _int(conn, "PRAGMA user_version")
                if current > LATEST_VERSION:
                    raise SchemaError(f"database schema version {current} is too new")
                if current >= migration.version:
                    continue
                log.info("migrating database to version %d: %s", migration.version, migration.name)
                for statement in migration.statements:
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
        return await self.schema_version()


async def _connect(path: str | Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        for pragma in _PRAGMAS:
            await conn.execute(pragma)
        await conn.create_function("paperclub_id", 1, paper_id, deterministic=True)
        await conn.create_function("paperclub_index", 13, stored_index_column, deterministic=True)
    except BaseException:
        await conn.close()
        raise
    return conn


async def _scalar(conn: aiosqlite.Connection, sql: str) -> object:
    async with conn.execute(sql) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def _int(conn: aiosqlite.Connection, sql: str) -> int:
    value = await _scalar(conn, sql)
    return value if isinstance(value, int) else 0
