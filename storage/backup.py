"""Backups of a running bot's database, and their restore.

SQLite: the online backup API copies a consistent snapshot while the bot goes on writing
(WAL: the copy reads, nobody waits), into a file of its own (no `-wal` beside it), checked
before it takes the backup's name. PostgreSQL: `pg_dump -Fc` (one consistent snapshot) and
`pg_restore --clean --single-transaction`; the password goes to them in `PGPASSWORD`, never
on their command line. Every refusal is a `StorageError` with a one-line reason."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from domain.storage_faults import SchemaError, StorageError
from storage.sqlite.migrations import LATEST_VERSION

PG_TOOL_WAIT_SECONDS = 3600.0


def _new_file(target: Path) -> Path:
    """The partial file a backup is written to first (`target` must not exist yet)."""
    if target.exists():
        raise StorageError(f"{target} already exists: a backup never overwrites; choose a new "
                           "name")
    if not target.parent.is_dir():
        raise StorageError(f"{target.parent}: no such directory")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    return partial


def backup_sqlite(database: Path, target: Path) -> None:
    """Copy the SQLite database at `database` into the new file `target`, online."""
    if not database.is_file():
        raise StorageError(f"no such SQLite database: {database}")
    partial = _new_file(target)
    try:
        source = sqlite3.connect(database)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # in one step: one consistent snapshot
                copy.execute("PRAGMA journal_mode = DELETE")  # self-contained: no -wal file
                _check_sqlite(copy, partial)
            finally:
                copy.close()
        finally:
            source.close()
        partial.replace(target)
    except sqlite3.Error as exc:
        raise StorageError(f"backup of {database} failed: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)


def restore_sqlite(backup: Path, database: Path) -> None:
    """Replace the SQLite database at `database` by the backup `backup` (checked first). The
    bot must be stopped: the pages are replaced under any open connection."""
    if not backup.is_file():
        raise StorageError(f"no such backup file: {backup}")
    if not database.parent.is_dir():
        raise StorageError(f"{database.parent}: no such directory")
    try:
        source = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
        try:
            _check_sqlite(source, backup)
            target = sqlite3.connect(database)
            try:
                source.backup(target)
                target.execute("PRAGMA journal_mode = WAL")
            finally:
                target.close()
        finally:
            source.close()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{backup} is not a usable SQLite backup: {exc}") from exc


def _check_sqlite(conn: sqlite3.Connection, where: Path) -> None:
    """Refuse a damaged file, or one that is not a paperclub database this code can use."""
    problems = [row[0] for row in conn.execute("PRAGMA quick_check") if row[0] != "ok"]
    if problems:
        raise StorageError(f"{where} is damaged: {problems[0]}")
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version == 0:
        raise StorageError(f"{where} is not a paperclub database (no schema)")
    if version > LATEST_VERSION:
        raise SchemaError(f"{where} has schema version {version}, newer than this paperclub "
                          f"understands ({LATEST_VERSION}): upgrade paperclub first")


def _pg_command(tool: str, url: str) -> tuple[list[str], dict[str, str]]:
    """The tool, and the environment with the URL's password in `PGPASSWORD`; the URL
    without its password goes on the command line."""
    found = shutil.which(tool)
    if found is None:
        raise StorageError(f"{tool} not found: install PostgreSQL's client tools "
                           "(Debian: postgresql-client) of the server's version or newer")
    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
        userinfo, hostport = parts.netloc.rsplit("@", 1)
        url = urlunsplit(parts._replace(netloc=f"{userinfo.split(':', 1)[0]}@{hostport}"))
    return [found, f"--dbname={url}"], env


def _run_pg(command: list[str], env: dict[str, str], what: str) -> None:
    try:
        done = subprocess.run(  # noqa: S603 - our own arguments, no shell
            command, env=env, capture_output=True, text=True, check=False,
            timeout=PG_TOOL_WAIT_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StorageError(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        raise StorageError(f"{what} failed: {_cause(done.stderr) or done.returncode}")


def _cause(stderr: str) -> str:
    """The line of a PostgreSQL tool's complaint that says what went wrong: its first
    `error:` line (the lines after it are hints, such as "Is the server running…?"), else its
    last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if "error:" in line]
    if errors:
        return errors[0]
    return lines[-1] if lines else ""


def backup_postgres(url: str, target: Path) -> None:
    """`pg_dump -Fc` of the database at `url` into the new file `target`."""
    partial = _new_file(target)
    command, env = _pg_command("pg_dump", url)
    try:
        _run_pg([*command, "--format=custom", "--no-owner", f"--file={partial}"], env,
                "pg_dump")
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)


def restore_postgres(backup: Path, url: str) -> None:
    """`pg_restore` of the dump `backup` into the database at `url`, replacing what it holds,
    in one transaction (a failure leaves it as it was). The bot must be stopped."""
    if not backup.is_file():
        raise StorageError(f"no such backup file: {backup}")
    command, env = _pg_command("pg_restore", url)
    _run_pg([*command, "--clean", "--if-exists", "--no-owner", "--no-privileges",
             "--single-transaction", "--exit-on-error", str(backup)], env, "pg_restore")
