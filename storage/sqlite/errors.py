"""Translating low-level failures into the storage failure family of `domain.storage_faults`.

`storage_failure` maps a `sqlite3.Error` (or an `OSError`) to the family member that says what
an operator can do about it; callers show `str(error)` and never a traceback.
"""

from __future__ import annotations

import errno
import resource
import sqlite3

from domain.storage_faults import (
    CorruptDatabase,
    DatabaseBusy,
    DiskFull,
    ReadOnlyDatabase,
    StorageError,
)

__all__ = ["storage_failure"]


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

_WRITE_FAILED = frozenset({778, 1546})  # SQLITE_IOERR_WRITE, SQLITE_IOERR_TRUNCATE
"""A write the operating system refused: SQLite says "disk I/O error" where the cause is a
full disk or quota (EDQUOT) or the file-size limit (EFBIG), which it does not tell apart."""


def _write_failure() -> str:
    """What to tell an operator whose write was refused: the file-size limit when one is set
    (`ulimit -f`), else the disk or the quota."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft != resource.RLIM_INFINITY:
        return (f"could not write: the file-size limit of this process ({soft:,} bytes, "
                "ulimit -f) or the disk or quota is full")
    return "could not write: the disk or your quota is full"


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
    if code in _WRITE_FAILED:
        return DiskFull(f"{_write_failure()}: {exc}{suffix}")
    known = _BY_CODE.get(code & 0xFF)
    if known is None:
        return None
    kind, label = known
    return kind(f"{label}: {exc}{suffix}")
