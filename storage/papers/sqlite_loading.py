"""The SQLite catalog load: the next catalog built in the shadow tables in short transactions,
then switched to in one (`SqliteIndex.load_prepared`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterable, AsyncIterator, Sequence

from domain.catalog import LoadCounts, LoadSource
from storage.db import Tx
from storage.dialect import SQLITE
from storage.notifications.store import record_unannounced
from storage.papers import sqlite_swap as catalog_swap
from storage.papers.catalog import record_load
from storage.papers.classify import LoadClassifier, live_rows, pipelined
from storage.papers.prepared import STORED_COLUMNS, PreparedPaper
from storage.papers.sqlite_index import INDEXES, indexed_rows, write_index
from storage.sqlite.database import Database

LOAD_BATCH = 5000
"""Papers per load transaction: at 10k papers/s a writer in another process waits about half a
second for the lock, well inside Discord's 3 s (measured: 1,000 a transaction cost a third
more in commits and FTS5 segment merges)."""
LOAD_CACHE_KIB = 64 * 1024
"""The writer's page cache while a load runs (SQLite's default is 2 MiB): FTS5 merges and the
shadow tables' unique indexes stay in memory. Put back to the default after."""
LOAD_CHECKPOINT_PAGES = 16_000
"""WAL pages (64 MiB) before the writer checkpoints during a load (SQLite's default is 1,000): a
checkpoint writes and syncs the database file, several times a second at the default."""
LOAD_FTS_OPTIONS = {"automerge": 16, "crisismerge": 64, "hashsize": 16 * 1024 * 1024}
"""FTS5 options while a load builds the next index: a load transaction's terms are written as one
segment, not one a MiB, and segments are merged 16 at a time, not 4 (measured at 100k: a third
less index CPU). The load then merges the index into one segment (`MERGE_PAGES` at a time):
searches read one b-tree a term, not a dozen."""
MERGE_PAGES = 2000
"""Index pages (8 MiB) merged a transaction when a load ends: about a tenth of a second each, so
other writers get in between (100k papers take about ten)."""
FTS_OPTIONS = {"automerge": 4, "crisismerge": 16, "hashsize": 1024 * 1024}
"""SQLite's defaults, set back before the switch: adds write and merge as any FTS5 table does."""
LOAD_PAUSE_SECONDS = 0.01
"""Pause between a load's transactions, so writers in other processes get the lock."""
PAPER_INSERT = (
    "(id, public_id, title_key, " + STORED_COLUMNS + ", source, source_line, content_hash, "
    "added_at, updated_at) VALUES (" + ", ".join("?" * (STORED_COLUMNS.count(",") + 9)) + ")"
)
"""What follows `INSERT INTO papers` (or `papers_next`): every column of a new row, bound in
order (a load and an add write the same row)."""


async def staged_load(db: Database, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                      source: LoadSource, prune: bool, announce: bool = False) -> LoadCounts:
    """`SqliteIndex.load_prepared`: build the next catalog in short transactions, then
    switch to it in one (the old catalog stays intact until then); with `announce`, the
    switch records the added papers as unannounced."""
    counts = LoadCounts()
    async with db.transaction() as tx:
        await catalog_swap.claim(tx)
        for index in INDEXES:
            await _fts_options(tx, catalog_swap.shadow(index), LOAD_FTS_OPTIONS)
        next_id = int(await tx.fetch_value("SELECT coalesce(max(id), 0) FROM papers")) + 1
    try:
        async with _load_settings(db):
            loader = _BatchLoader(db, source.name, counts, next_id)
            await pipelined(_rebatched(batches, LOAD_BATCH), list, loader.load)
            await _carry_over(db, source.name if prune else None)
            for index in reversed(INDEXES):  # the small one first: the pages its merge
                await _merge_index(db, catalog_swap.shadow(index))  # frees are written again
        async with db.transaction() as tx:
            if prune:
                counts.removed = await _pruned(tx, source.name)
            await record_load(tx, source, counts)
            for index in INDEXES:
                await _fts_options(tx, catalog_swap.shadow(index), FTS_OPTIONS)
            if announce:
                await record_unannounced(tx, SQLITE, counts.added_ids)
            await catalog_swap.switch(tx)
    except BaseException:
        with contextlib.suppress(Exception):
            async with db.transaction() as tx:
                await catalog_swap.release(tx)
        raise
    return counts


async def _carry_over(db: Database, pruned_source: str | None) -> None:
    """Copy the live papers this load did not touch into the shadows, a batch per
    transaction (all of them, or with `--prune` those of other sources)."""
    keep = " AND p.source != ?" if pruned_source is not None else ""
    last = 0
    while True:
        async with db.transaction() as tx:
            ids = [int(row[0]) for row in await tx.fetch(
                "SELECT p.id FROM papers p WHERE p.id > ? AND NOT EXISTS "
                f"(SELECT 1 FROM papers_next n WHERE n.id = p.id){keep} "
                "ORDER BY p.id LIMIT ?",
                last, *((pruned_source,) if pruned_source is not None else ()), LOAD_BATCH)]
            if not ids:
                return
            marks = ",".join("?" * len(ids))
            await tx.execute(f"INSERT INTO papers_next SELECT * FROM papers "
                             f"WHERE id IN ({marks})", *ids)
            await write_index(tx, await indexed_rows(tx, "papers", ids),
                              suffix=catalog_swap.SUFFIX)
            await tx.execute(f"INSERT INTO paper_honours_next SELECT * FROM "
                             f"paper_honours WHERE paper_id IN ({marks})", *ids)
        last = ids[-1]
        await _breathe()


async def _pruned(tx: Tx, source: str) -> int:
    """How many live papers of `source` the load left out: what `--prune` removes."""
    return int(await tx.fetch_value(
        "SELECT count(*) FROM papers p WHERE p.source = ? AND NOT EXISTS "
        "(SELECT 1 FROM papers_next n WHERE n.id = p.id)", source))


async def _rebatched(batches: AsyncIterable[Sequence[PreparedPaper]],
                     size: int) -> AsyncIterator[list[PreparedPaper]]:
    """The batches regrouped into lists of `size` (the last one shorter)."""
    batch: list[PreparedPaper] = []
    async for part in batches:
        batch.extend(part)
        while len(batch) >= size:
            yield batch[:size]
            batch = batch[size:]
    if batch:
        yield batch


_LOAD_PRAGMAS = {"cache_size": -LOAD_CACHE_KIB, "wal_autocheckpoint": LOAD_CHECKPOINT_PAGES}


@contextlib.asynccontextmanager
async def _load_settings(db: Database) -> AsyncIterator[None]:
    """The writer's page cache and WAL checkpoints (`_LOAD_PRAGMAS`) for a load, as they were
    after."""
    before: dict[str, int] = {}
    async with db.transaction() as tx:
        for pragma, value in _LOAD_PRAGMAS.items():
            now = await tx.fetch_value(f"PRAGMA {pragma}")
            if now is not None:
                before[pragma] = int(now)
            await tx.execute(f"PRAGMA {pragma} = {value}")
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            async with db.transaction() as tx:
                for pragma, value in before.items():
                    await tx.execute(f"PRAGMA {pragma} = {value}")


async def _fts_options(tx: Tx, table: str, options: dict[str, int]) -> None:
    """Set FTS5 configuration options (`automerge`, `hashsize`, ...) on a full-text table."""
    for option, value in options.items():
        await tx.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('{option}', ?)", value)


async def _merge_index(db: Database, table: str) -> None:
    """Merge a full-text table's segments into one, `MERGE_PAGES` a transaction (FTS5's
    'merge' with a negative count: every level at once), until a step finds nothing to do."""
    while True:
        async with db.transaction() as tx:
            before = await tx.fetch_value("SELECT total_changes()")
            await tx.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('merge', ?)",
                             -MERGE_PAGES)
            changed = await tx.fetch_value("SELECT total_changes()") - before
            merged = changed >= 2  # FTS5's documented sign of work done
        await _breathe()
        if not merged:
            return


async def _breathe() -> None:
    """Leave the write lock free for a moment: other processes' writers poll for it."""
    await asyncio.sleep(LOAD_PAUSE_SECONDS)


class _BatchLoader(LoadClassifier):
    """Writes one load's batches into the shadow tables, one short transaction each."""

    def __init__(self, db: Database, source: str, counts: LoadCounts, next_id: int) -> None:
        super().__init__(source, counts, next_id)
        self._db = db

    async def load(self, batch: list[PreparedPaper]) -> None:
        """Classify each paper as new, updated, unchanged or duplicate, then write in bulk."""
        async with self._db.transaction() as tx:
            await self._write(tx, batch)
        await _breathe()

    async def _write(self, tx: Tx, batch: list[PreparedPaper]) -> None:
        keys = [item.key for item in batch]
        found, taken, holders = await live_rows(tx, SQLITE, batch)
        marks = ",".join("?" * len(batch))
        earlier = {str(key): int(line) for key, line in await tx.fetch(
            f"SELECT title_key, source_line FROM papers_next WHERE title_key IN ({marks})",
            *keys)}
        taken |= {str(row[0]) for row in await tx.fetch(
            f"SELECT public_id FROM papers_next WHERE public_id IN ({marks})",
            *(item.public_id for item in batch))}
        rows, fts_rows, honours = await asyncio.to_thread(  # off the event loop
            self.merge_and_classify, batch, found, taken, holders, earlier)
        await tx.execute_many("INSERT INTO papers_next " + PAPER_INSERT, rows)
        await write_index(tx, fts_rows, suffix=catalog_swap.SUFFIX)
        await tx.execute_many(
            "INSERT OR IGNORE INTO paper_honours_next (honour, paper_id) VALUES (?, ?)", honours)
