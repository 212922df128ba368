"""A big catalog file is parsed and prepared in a worker process, with the same outcome as in
a thread: rejected lines, warnings, strict mode, whole-file errors, progress, and a worker that
dies leaves the old catalog."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.features.catalog import pipeline as catalog_pipeline
from bot.features.catalog.files import CatalogFileError
from bot.features.catalog.listing import ListingParser
from bot.features.catalog.loader import LOAD_SWITCH_SECONDS, StrictLoadError, load_catalog
from domain.paper import Paper
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.features.catalog.test_loader import BAD_LISTING
from tools.synthetic_catalog import write_listing

IN_PROCESS = 0
"""`process_from`: every file, however small, goes to a worker process."""


def _not_here(*_: object) -> None:
    raise AssertionError("parsed in the bot's process")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


async def _fresh(tmp_path: Path, name: str) -> tuple[Database, SqlitePaperStore]:
    db = await Database.open(tmp_path / name)
    return db, SqlitePaperStore(db)


async def test_a_worker_process_loads_what_a_thread_loads(
        tmp_path: Path, catalog_path: Path, bundled_papers: list[Paper],
        monkeypatch: pytest.MonkeyPatch) -> None:
    progress: list[tuple[int, int]] = []
    db, store = await _fresh(tmp_path, "a.db")
    try:
        monkeypatch.setattr(ListingParser, "parse", _not_here)  # the worker's own copy parses
        report = await load_catalog(store, catalog_path, process_from=IN_PROCESS,
                                    progress=lambda done, total: progress.append((done, total)))
        assert (report.counts.added, report.rejected, report.listing_query) == (30, 0, "ICML")
        assert {p.id: p async for p in store.iter_papers()} == {p.id: p for p in bundled_papers}
        size = catalog_path.stat().st_size
        assert progress and progress[-1] == (size, size)
    finally:
        await db.close()


async def test_rejected_lines_and_warnings_come_back_from_the_worker(tmp_path: Path) -> None:
    db, store = await _fresh(tmp_path, "b.db")
    try:
        report = await load_catalog(store, _write(tmp_path, "mixed.txt", BAD_LISTING),
                                    process_from=IN_PROCESS)
        assert (report.counts.added, report.rejected) == (2, 1)
        assert [(e.line, "AI总结" in e.reason) for e in report.errors] == [(11, True)]
        record = {"title_en": "A Paper", "title_zh": "论文", "authors": ["Ann"],
                  "summary_zh": "摘要。"}
        lines = [json.dumps({**record, "colour": "red"}), "{not json",
                 json.dumps({**record, "title_en": "A Paper."})]  # same title: a duplicate
        jsonl = _write(tmp_path, "warned.jsonl", "\n".join(lines) + "\n")
        report = await load_catalog(store, jsonl, process_from=IN_PROCESS)
        assert (report.counts.added, report.rejected, report.warned) == (1, 2, 1)
        assert [e.line for e in report.errors] == [2, 3]
        assert [(w.line, w.reason) for w in report.warnings] == [
            (1, "unknown field 'colour' ignored")]
    finally:
        await db.close()


async def test_strict_mode_and_whole_file_errors_cross_from_the_worker(
        store: SqlitePaperStore, tmp_path: Path) -> None:
    path = _write(tmp_path, "mixed.txt", BAD_LISTING)
    with pytest.raises(StrictLoadError, match=f"^{path}: line 11") as caught:
        await load_catalog(store, path, strict=True, process_from=IN_PROCESS)
    assert caught.value.error.line == 11
    with pytest.raises(CatalogFileError, match="no paper records found"):
        await load_catalog(store, _write(tmp_path, "x.csv", "a,b\nc,d\n"),
                           process_from=IN_PROCESS)
    assert await store.count() == 30


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the worker in /proc")
async def test_a_killed_worker_fails_the_load_and_keeps_the_old_catalog(
        store: SqlitePaperStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    version = await store.catalog_version()
    started = catalog_pipeline._from_process

    async def killed_after_start(*args: object):  # type: ignore[no-untyped-def]
        messages = started(*args)  # type: ignore[arg-type]
        async for message in messages:
            for child in _children():
                os.kill(child, signal.SIGKILL)
            yield message

    monkeypatch.setattr(catalog_pipeline, "_from_process", killed_after_start)
    big = write_listing(tmp_path / "big.txt", 4 * catalog_pipeline.CHUNK, seed=7)
    with pytest.raises(catalog_pipeline.ParserStopped, match="stopped"):
        await load_catalog(store, big, process_from=IN_PROCESS)
    assert await store.count() == 30
    assert await store.catalog_version() == version
    await asyncio.sleep(0)
    assert not _children()


def _children() -> list[int]:
    """This process's live catalog workers (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
            if (int(fields[1]) == os.getpid() and fields[0] != "Z"
                    and b"bot.features.catalog.pipeline" in cmdline):
                found.append(int(stat.parent.name))
    return found


async def test_threads_switch_promptly_during_a_load_and_as_before_after(
        store: SqlitePaperStore, catalog_path: Path, tmp_path: Path) -> None:
    before = sys.getswitchinterval()
    seen: list[float] = []
    await load_catalog(store, catalog_path,
                       progress=lambda *_: seen.append(sys.getswitchinterval()))
    assert seen and set(seen) == {LOAD_SWITCH_SECONDS} != {before}
    assert sys.getswitchinterval() == before
    with pytest.raises(StrictLoadError):
        await load_catalog(store, _write(tmp_path, "bad.txt", BAD_LISTING), strict=True)
    assert sys.getswitchinterval() == before


async def test_no_full_garbage_collection_runs_while_a_load_does(
        db: Database, tmp_path: Path) -> None:
    """A full collection walks the whole heap with the GIL taken: the event loop's longest
    stalls during a reload. The young generations are still collected."""
    listing = write_listing(tmp_path / "big.txt", 12_000, 7, [])
    thresholds = gc.get_threshold()
    generations: list[int] = []
    loading = False

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and loading:
            generations.append(info["generation"])

    gc.callbacks.append(record)
    try:
        loading = True  # in a thread: the most allocation in this process
        await load_catalog(SqlitePaperStore(db), listing, process_from=sys.maxsize)
        loading = False
    finally:
        gc.callbacks.remove(record)
    assert 0 in generations and 2 not in generations
    assert gc.get_threshold() == thresholds
