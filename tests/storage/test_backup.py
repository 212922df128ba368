"""`storage.backup` in-process, on both backends it supports: a backup reads back what was in
the database when it was taken (and not what came after), a restore replaces what the target
held, and every refusal is a one-line `StorageError` that leaves no file behind. (The CLI
around it, under a running bot: tests/e2e/test_ops_backup.py.)"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from domain.storage_faults import SchemaError, StorageError
from storage import backend as stores
from storage.backend import AnyDatabase
from storage.backup import backup_postgres, backup_sqlite, restore_postgres, restore_sqlite
from storage.postgres.database import PgDatabase
from storage.sqlite.database import Database
from storage.sqlite.migrations import LATEST_VERSION
from tools.throwaway_postgres import PostgresServer


async def _read(db: AnyDatabase, key: str) -> str | None:
    return await stores.STATE.open(db).get(key)


async def test_a_sqlite_backup_is_a_snapshot_that_restores(db: Database, tmp_path: Path) -> None:
    source, backup, restored = tmp_path / "test.db", tmp_path / "b.db", tmp_path / "r.db"
    await stores.STATE.open(db).set("before", "1")
    await asyncio.to_thread(backup_sqlite, source, backup)  # the database stays open
    await stores.STATE.open(db).set("after", "2")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("b.db")) == ["b.db"]
    await asyncio.to_thread(restore_sqlite, backup, restored)
    again = await Database.open(restored, migrate=False)
    try:
        assert (await _read(again, "before"), await _read(again, "after")) == ("1", None)
    finally:
        await again.close()
    await asyncio.to_thread(restore_sqlite, backup, source)  # over a database: replaced
    assert (await _read(db, "before"), await _read(db, "after")) == ("1", None)


async def test_sqlite_refusals_leave_nothing_behind(db: Database, tmp_path: Path) -> None:
    source, taken = tmp_path / "test.db", tmp_path / "taken.db"
    taken.write_bytes(b"keep me")
    with pytest.raises(StorageError, match="already exists"):
        backup_sqlite(source, taken)
    assert taken.read_bytes() == b"keep me"  # never overwritten
    with pytest.raises(StorageError, match="no such directory"):
        backup_sqlite(source, tmp_path / "nowhere" / "b.db")
    with pytest.raises(StorageError, match="no such SQLite database"):
        backup_sqlite(tmp_path / "missing.db", tmp_path / "b.db")
    blank = tmp_path / "blank.db"
    with sqlite3.connect(blank) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(StorageError, match="not a paperclub database"):
        backup_sqlite(blank, tmp_path / "b.db")
    with pytest.raises(StorageError, match="no such backup file"):
        restore_sqlite(tmp_path / "missing.db", source)
    with pytest.raises(StorageError, match="not a usable SQLite backup"):
        restore_sqlite(taken, source)
    with pytest.raises(StorageError, match="not a paperclub database"):
        restore_sqlite(blank, source)
    with pytest.raises(StorageError, match="no such directory"):
        restore_sqlite(blank, tmp_path / "nowhere" / "r.db")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("b.db", "r.db"))) \
        == []
    assert await stores.STATE.open(db).get("anything") is None  # the database still works


def test_a_sqlite_backup_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(SchemaError, match="upgrade paperclub first"):
        restore_sqlite(newer, tmp_path / "r.db")
    assert not (tmp_path / "r.db").exists()


@pytest.fixture
def pg_server(postgres_server: PostgresServer | None) -> PostgresServer:
    if postgres_server is None:
        pytest.skip("no PostgreSQL binaries here (see tools/throwaway_postgres.py)")
    return postgres_server


async def test_a_postgres_backup_is_a_snapshot_that_restores(
        pg_server: PostgresServer, postgres_url: str, tmp_path: Path) -> None:
    dump = tmp_path / "b.dump"
    db = await PgDatabase.open(postgres_url)
    empty = await pg_server.fresh_database(migrated=False)
    try:
        await stores.STATE.open(db).set("before", "1")
        await asyncio.to_thread(backup_postgres, postgres_url, dump)
        await stores.STATE.open(db).set("after", "2")
        assert [p.name for p in tmp_path.iterdir()] == ["b.dump"]
        await asyncio.to_thread(restore_postgres, dump, empty)
        again = await PgDatabase.open(empty, migrate=False)
        try:
            assert (await _read(again, "before"), await _read(again, "after")) == ("1", None)
        finally:
            await again.close()
        await db.close()
        await asyncio.to_thread(restore_postgres, dump, postgres_url)  # replaces what it held
        db = await PgDatabase.open(postgres_url, migrate=False)
        assert (await _read(db, "before"), await _read(db, "after")) == ("1", None)
    finally:
        await db.close()
        await pg_server.drop_database(empty)


async def test_postgres_refusals_leave_nothing_behind(
        pg_server: PostgresServer, postgres_url: str, tmp_path: Path) -> None:
    junk = tmp_path / "junk.dump"
    junk.write_text("not a dump")
    with pytest.raises(StorageError, match="already exists"):
        backup_postgres(postgres_url, junk)
    assert junk.read_text() == "not a dump"
    missing = urlunsplit(urlsplit(postgres_url)._replace(path="/no_such_database"))
    with pytest.raises(StorageError, match=r"^pg_dump failed: .*no_such_database"):
        await asyncio.to_thread(backup_postgres, missing, tmp_path / "b.dump")
    with pytest.raises(StorageError, match="no such backup file"):
        restore_postgres(tmp_path / "none.dump", postgres_url)
    with pytest.raises(StorageError, match=r"^pg_restore failed: ") as refused:
        await asyncio.to_thread(restore_postgres, junk, postgres_url)
    assert "\n" not in str(refused.value)
    assert [p.name for p in tmp_path.iterdir()] == ["junk.dump"]
    db = await PgDatabase.open(postgres_url, migrate=False)  # the database is as it was
    try:
        assert await stores.STATE.open(db).get("anything") is None
    finally:
        await db.close()


async def test_an_unreachable_server_is_named_not_only_hinted_at(
        pg_server: PostgresServer, tmp_path: Path) -> None:
    """pg_dump says what failed, then a hint on a line of its own: the one line is the
    failure."""
    nowhere = f"postgresql://postgres@/paperclub?host={tmp_path / 'no-server'}"
    with pytest.raises(StorageError, match=r"^pg_dump failed: .*connection to server") as refused:
        await asyncio.to_thread(backup_postgres, nowhere, tmp_path / "b.dump")
    assert "\n" not in str(refused.value) and "Is the server running" not in str(refused.value)
    assert not (tmp_path / "b.dump").exists()


async def test_the_postgres_password_goes_in_the_environment_never_the_command_line(
        pg_server: PostgresServer, postgres_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[tuple[list[str], dict[str, str]]] = []
    real_run = subprocess.run

    def run(command: list[str], **kwargs: Any) -> Any:
        ran.append((command, kwargs["env"]))
        return real_run(command, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    parts = urlsplit(postgres_url)
    with_password = urlunsplit(parts._replace(netloc=parts.netloc.replace(
        "postgres@", "postgres:s%40cret@")))  # the local server trusts: the password is unused
    await asyncio.to_thread(backup_postgres, with_password, tmp_path / "b.dump")
    await asyncio.to_thread(restore_postgres, tmp_path / "b.dump", with_password)
    assert [Path(command[0]).name for command, _ in ran] == ["pg_dump", "pg_restore"]
    for command, env in ran:
        assert env["PGPASSWORD"] == "s@cret"
        assert not any("cret" in arg for arg in command)
        assert f"--dbname={postgres_url}" in command


def test_missing_postgres_tools_are_named(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    dump = tmp_path / "b.dump"
    with pytest.raises(StorageError, match="pg_dump not found"):
        backup_postgres("postgresql://postgres@localhost/paperclub", dump)
    assert list(tmp_path.iterdir()) == []
    dump.write_bytes(b"x")
    with pytest.raises(StorageError, match="pg_restore not found"):
        restore_postgres(dump, "postgresql://postgres@localhost/paperclub")
