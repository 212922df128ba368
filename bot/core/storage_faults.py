"""Storage failures as a small typed family (each message names the real cause), and the hook
a task arms to be told before it waits for the database's write lock.

Defined in the core so that the Discord side can answer them without importing storage.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar

write_wait_hook: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar(
    "paperclub_write_wait_hook", default=None)
"""Run (once) just before the current task starts waiting for the write lock."""


class StorageError(RuntimeError):
    """The database cannot do what was asked; the message names the cause."""


class SchemaError(StorageError):
    """The database cannot be used by this version of the code."""


class DatabaseBusy(StorageError):
    """Another writer (typically a catalog load) kept the write lock for too long."""


class CatalogLoadRunning(DatabaseBusy):
    """Another catalog load is already running on this database."""


class DiskFull(StorageError):
    """SQLite could not grow the database or its journal."""


class ReadOnlyDatabase(StorageError):
    """The database file or its directory cannot be written."""


class CorruptDatabase(StorageError):
    """The file is damaged or is not a SQLite database."""


class NoDatabase(StorageError):
    """A command that only reads found no database to read (none is created for it)."""


class UnusablePath(StorageError):
    """The configured path cannot hold a database (empty, a directory, no such directory)."""


class DatabaseUnreachable(StorageError):
    """The database server cannot be reached, or refused the credentials or database name."""
