"""Storage failures as a small typed family, the same for both backends (each message names the
real cause): what services and the Discord side catch and answer without importing storage.
Each backend translates its own errors into it (`storage.sqlite.errors`, the PostgreSQL pool).
"""

from __future__ import annotations


class StorageError(RuntimeError):
    """The database cannot do what was asked; the message names the cause."""


class SchemaError(StorageError):
    """The database cannot be used by this version of the code."""


class DatabaseBusy(StorageError):
    """Another writer (typically a catalog load) kept the write lock for too long."""


class CatalogLoadRunning(DatabaseBusy):
    """Another catalog load is already running on this database."""


class DiskFull(StorageError):
    """The database could not grow (its file, its journal, or the server's disk is full)."""


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
