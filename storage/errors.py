"""Storage failures as a small typed family, each carrying the real cause in one line.

`storage_failure` maps a `sqlite3.Error` (or an `OSError`) to the family member that says what
an operator can do about it; callers show `str(error)` and never a traceback.
"""

from __future__ import annotations

import errno
import sqlite3


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


class UnusablePath(StorageError):
    """The configured path cannot hold a database (empty, a directory, no such directory)."""


# SQLite's primary result codes (the low byte of an extended code).
_BY_CODE: dict[int, tuple[type[StorageError], str]] = {
    13: (DiskFull, "disk full"),  # SQLITE_FULL
    8: (ReadOnlyDatabase, "read-only database"),  # SQLITE_READONLY
    3: (ReadOnlyDatabase, "permission denied"),  # SQLITE_PERM
    14: (ReadOnlyDatabase, "cannot open the database file"),  # SQLITE_CANTOPEN
    11: (CorruptDatabase, "database corrupted"),  # SQLITE_CORRUPT
    26: (CorruptDatabase, "not a SQLite database"),  # SQLITE_NOTADB
    5: (DatabaseBusy, "database busy"),  # SQLITE_BUSY
    6: (DatabaseBusy, "database busy"),  # SQLITE_LOCKED
    10: (StorageError, "I/O error"),  # SQLITE_IOERR
}


def storage_failure(exc: BaseException, where: str = "") -> StorageError | None:
    """The `StorageError` for an environmental failure (`disk full: <sqlite's words> (where)`),
    or None for anything else: a constraint or SQL mistake is a bug, not the disk's fault."""
    if isinstance(exc, StorageError):
        return exc
    suffix = f" ({where})" if where else ""
    if isinstance(exc, OSError):
        if isinstance(exc, PermissionError):
            return ReadOnlyDatabase(f"permission denied: {exc.strerror}{suffix}")
        if exc.errno == errno.ENOSPC:
            return DiskFull(f"disk full: {exc.strerror}{suffix}")
        return StorageError(f"I/O error: {exc.strerror or exc}{suffix}")
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(exc, sqlite3.Error) or not isinstance(code, int):
        return None
    known = _BY_CODE.get(code & 0xFF)
    if known is None:
        return None
    kind, label = known
    return kind(f"{label}: {exc}{suffix}")
