"""Broken, foreign, full, read-only and busy databases: one typed error with the real cause."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.catalog import LoadSource
from domain.paper import Paper
from domain.storage_faults import (
    CatalogLoadRunning,
    CorruptDatabase,
    DatabaseBusy,
    DiskFull,
    ReadOnlyDatabase,
    UnusablePath,
)
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database, _read_only_uri


async def _real_database(path: Path, papers: list[Paper]) -> None:
    db = await Database.open(path)
    try:
        await SqlitePaperStore(db).load(enumerate(papers, 1), source=LoadSource("seed"))
    finally:
        await db.close()


def _many(papers: list[Paper], n: int) -> list[tuple[int, Paper]]:
    return [(i, dataclasses.replace(papers[i % 30], title_en=f"{papers[i % 30].title_en} {i}"))
            for i in range(1, n + 1)]


@pytest.mark.parametrize("name", ["", "."])
async def test_an_empty_path_is_refused(name: str) -> None:
    with pytest.raises(UnusablePath, match="empty"):
        await Database.open(name)


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnusablePath, match="is a directory"):
        await Database.open(tmp_path)


async def test_a_missing_directory_is_refused_not_created(tmp_path: Path) -> None:
    with pytest.raises(UnusablePath, match="no such directory"):
        await Database.open(tmp_path / "missing" / "dir" / "x.db")
    assert not (tmp_path / "missing").exists()


async def test_a_text_file_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes\n")
    with pytest.raises(CorruptDatabase, match="not a SQLite database"):
        await Database.open(path)
    assert path.read_text() == "these are my notes\n"


async def damaged_database(path: Path, papers: list[Paper], *, last_only: bool = False) -> None:
    """A real database with every third page partly overwritten (or only its last data
    pages: the schema intact)."""
    await _real_database(path, papers)
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with path.open("r+b") as handle:
        for page in range(pages - 2 if last_only else 2, pages, 3):
            handle.seek(page * page_size + 16)
            handle.write(b"\xa5" * 200)


async def test_overwritten_pages_are_found_at_start(tmp_path: Path,
                                                    bundled_papers: list[Paper]) -> None:
    path = tmp_path / "damaged.db"
    await damaged_database(path, bundled_papers)
    with pytest.raises(CorruptDatabase, match=r"corrupt|malformed"):
        await Database.open(path, verify=True)


async def test_a_truncated_database_is_refused(tmp_path: Path,
                                               bundled_papers: list[Paper]) -> None:
    path = tmp_path / "cut.db"
    await _real_database(path, bundled_papers)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    os.truncate(path, path.stat().st_size // 3)
    with pytest.raises(CorruptDatabase):
        await Database.open(path, verify=True)


async def test_a_full_disk_names_the_cause_not_a_failed_rollback(
        tmp_path: Path, bundled_papers: list[Paper]) -> None:
    db = await Database.open(tmp_path / "full.db")
    try:
        async with db.transaction() as tx:  # grow by 60 pages at most
            pages = int(await tx.fetch_value("PRAGMA page_count"))
            await tx.execute(f"PRAGMA max_page_count = {pages + 60}")
        store = SqlitePaperStore(db)
        with pytest.raises(DiskFull, match=r"^disk full: .*database or disk is full") as caught:
            await store.load(_many(bundled_papers, 3000), source=LoadSource("big"))
        assert "rollback" not in str(caught.value)
        assert await store.count() == 0
    finally:
        await db.close()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes through chmod; a read-only mount is not available here")
async def test_a_read_only_file_is_refused(tmp_path: Path, bundled_papers: list[Paper]) -> None:
    path = tmp_path / "ro.db"
    await _real_database(path, bundled_papers)
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(ReadOnlyDatabase):
            await Database.open(path)
    finally:
        tmp_path.chmod(0o755)
        path.chmod(0o644)


async def test_a_write_defers_through_the_hook_then_gives_up_when_busy(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    calls: list[str] = []

    async def hook() -> None:
        calls.append("deferred")

    db = await Database.open(path, write_wait=0.2, before_wait=hook)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(DatabaseBusy, match="another writer"):
            async with db.transaction():
                pass
        assert calls == ["deferred"]
        other.execute("ROLLBACK")
        async with db.transaction():  # and free again afterwards, without a second hook call
            pass
        assert calls == ["deferred"]
    finally:
        other.close()
        await db.close()


async def test_other_processes_write_between_the_batches_of_a_load(
        tmp_path: Path, bundled_papers: list[Paper]) -> None:
    """A second connection (as another process would) commits while a load is still going."""
    path = tmp_path / "shared.db"
    loader_db = await Database.open(path)
    other_db = await Database.open(path, write_wait=30)
    try:
        store = SqlitePaperStore(loader_db)
        load = asyncio.create_task(store.load(_many(bundled_papers, 6000),
                                              source=LoadSource("big")))
        while not await other_db.fetch("SELECT 1 FROM sqlite_master WHERE name = 'papers_next'"):
            await asyncio.sleep(0.01)
        async with other_db.transaction() as tx:
            await tx.execute("INSERT INTO bot_state (key, value, updated_at) "
                             "VALUES ('x', 'y', 'now')")
        assert not load.done(), "the write waited for the whole load"
        counts = await load
        assert counts.added == 6000
        assert await SqlitePaperStore(other_db).count() == 6000
    finally:
        await loader_db.close()
        await other_db.close()


async def test_one_load_at_a_time_and_a_dead_loads_slot_is_taken_over(
        tmp_path: Path, bundled_papers: list[Paper]) -> None:
    db = await Database.open(tmp_path / "slot.db")
    try:
        store = SqlitePaperStore(db)
        first = asyncio.create_task(store.load(_many(bundled_papers, 3000),
                                               source=LoadSource("a")))
        while not await db.fetch("SELECT 1 FROM sqlite_master WHERE name = 'papers_next'"):
            await asyncio.sleep(0.01)
        with pytest.raises(CatalogLoadRunning, match="being reloaded"):
            await store.load(_many(bundled_papers, 10), source=LoadSource("b"))
        assert (await first).added == 3000
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
        async with db.transaction() as tx:  # as a load killed with SIGKILL leaves it
            await tx.execute("UPDATE bot_state SET value = $1 WHERE key = 'catalog_load'",
                             dead.stdout.strip())
            await tx.execute("INSERT INTO bot_state (key, value, updated_at) VALUES "
                             "('catalog_load', $1, 'then') ON CONFLICT DO NOTHING",
                             dead.stdout.strip())
        counts = await store.load(_many(bundled_papers, 10), source=LoadSource("b"))
        assert counts.unchanged == 10
        assert not await db.fetch("SELECT 1 FROM bot_state WHERE key = 'catalog_load'")
    finally:
        await db.close()


async def test_concurrent_reads_are_served_by_the_pool(tmp_path: Path,
                                                       bundled_papers: list[Paper]) -> None:
    path = tmp_path / "pool.db"
    await _real_database(path, bundled_papers)
    db = await Database.open(path, readers=3)
    try:
        assert db.readers == 3
        counts = await asyncio.gather(*(SqlitePaperStore(db).count() for _ in range(20)))
        assert counts == [30] * 20
    finally:
        await db.close()


@contextlib.contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """`path` made unwritable while its directory stays writable (SQLite then opens it
    read-only without a word): chmod for a user, the immutable attribute for root."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if shutil.which("chattr") is None or subprocess.run(
                ["chattr", "+i", str(path)], capture_output=True, check=False).returncode:
            pytest.skip("root writes through chmod, and chattr +i is not available here")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        return
    path.chmod(0o444)
    try:
        yield
    finally:
        path.chmod(0o644)


async def test_a_read_only_file_is_refused_at_start_and_still_read(
        tmp_path: Path, bundled_papers: list[Paper]) -> None:
    """Writers are refused at once (not at the outbox's first write); readers read it."""
    path = tmp_path / "ro.db"
    await _real_database(path, bundled_papers)
    with unwritable(path):
        with pytest.raises(ReadOnlyDatabase) as refused:
            await Database.open(path)
        assert str(refused.value).startswith(f"read-only database: {path}: ")
        assert "\n" not in str(refused.value)
        db = await Database.open(path, migrate=False)
        try:
            assert await SqlitePaperStore(db).count() == len(bundled_papers)
        finally:
            await db.close()


async def test_a_corruption_report_is_one_line(tmp_path: Path,
                                               bundled_papers: list[Paper]) -> None:
    """SQLite puts a whole report in one row ("*** in database main ***\\nOn tree page …")."""
    path = tmp_path / "damaged.db"
    await damaged_database(path, bundled_papers, last_only=True)  # the schema intact
    with sqlite3.connect(path) as conn:
        report = [row[0] for row in conn.execute("PRAGMA quick_check")]
    assert "\n" in report[0]  # what the message must not carry
    problems = [line for row in report for line in row.splitlines() if not line.startswith("***")]
    with pytest.raises(CorruptDatabase) as refused:
        await Database.open(path, verify=True)
    message = str(refused.value)
    assert "\n" not in message and "***" not in message
    assert message.startswith(f"database corrupted: {path}: {problems[0]}")
    if len(problems) > 1:
        assert f"(and {len(problems) - 1} more problems)" in message


_OPEN_ON_A_FULL_DISK = """
import asyncio, sys
from storage.sqlite.database import Database, _read_only_uri
async def main() -> None:
    try:
        await (await Database.open(sys.argv[1])).close()
    except Exception as exc:
        print(type(exc).__name__, exc, sep=": ")
asyncio.run(main())
"""


async def test_a_full_disk_at_start_says_so(tmp_path: Path, bundled_papers: list[Paper]) -> None:
    """On a filesystem with no byte left, opening fails with SQLite's bare "disk I/O error"
    (the shared-memory index cannot grow): it is named a full disk."""
    if sys.platform != "linux" or shutil.which("unshare") is None:
        pytest.skip("needs Linux and unshare to mount a small tmpfs")
    source, disk = tmp_path / "real.db", tmp_path / "disk"
    await _real_database(source, bundled_papers)
    disk.mkdir()
    script = (f"mount -t tmpfs -o size=2m tmpfs {disk} && cp {source} {disk}/full.db && "
              f"{{ dd if=/dev/zero of={disk}/filler bs=4k 2>/dev/null; true; }} && "
              f'"{sys.executable}" -c "$0" {disk}/full.db')
    done = subprocess.run(["unshare", "-m", "sh", "-c", script, _OPEN_ON_A_FULL_DISK],
                          capture_output=True, text=True, timeout=60, check=False)
    if "mount" in done.stderr or "unshare" in done.stderr:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    assert done.stdout.startswith(f"DiskFull: disk full: 0 bytes free in {disk}"), (
        done.stdout, done.stderr)


async def test_a_read_only_open_reads_and_writes_nothing(
        tmp_path: Path, bundled_papers: list[Paper]) -> None:
    """What reading commands use in a directory they cannot write: the papers read, no
    migration, no change of journal mode, and a write refused."""
    path = tmp_path / "ro.db"
    await _real_database(path, bundled_papers)
    db = await Database.open(path, read_only=True)
    try:
        assert await SqlitePaperStore(db).count() == len(bundled_papers)
        with pytest.raises(ReadOnlyDatabase):
            async with db.transaction() as tx:
                await tx.execute("DELETE FROM papers")
    finally:
        await db.close()


def test_an_unwritable_directory_without_a_writer_is_read_as_immutable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ro.db"
    path.write_bytes(b"")
    assert "immutable" not in _read_only_uri(path)  # writable: SQLite's shared memory works
    monkeypatch.setattr(os, "access", lambda *_: False)
    assert _read_only_uri(path).endswith("?mode=ro&immutable=1")
    (tmp_path / "ro.db-wal").write_bytes(b"")  # a writer is active: never immutable
    assert _read_only_uri(path).endswith("?mode=ro")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes through chmod; a read-only mount is not available here")
@pytest.mark.parametrize("command", [["search", "grokking"], ["stats"]])
def test_reading_commands_read_a_database_in_a_read_only_directory(
        tmp_path: Path, bundled_papers: list[Paper], command: list[str]) -> None:
    path = tmp_path / "ro.db"
    asyncio.run(_real_database(path, bundled_papers))
    tmp_path.chmod(0o555)
    try:
        result = subprocess.run([sys.executable, "-m", "bot", *command, "--db", str(path)],
                                capture_output=True, text=True, check=False,
                                cwd=Path(__file__).resolve().parents[2])
    finally:
        tmp_path.chmod(0o755)
    assert result.returncode == 0, result.stderr
