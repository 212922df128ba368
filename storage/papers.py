"""SQLite implementation of `PaperStore`."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol

import aiosqlite

from bot.core.catalog_types import (
    ADD_SOURCE,
    AddOutcome,
    AddStatus,
    CatalogStats,
    LoadCounts,
    LoadSource,
    SearchHit,
    VenueCount,
)
from bot.core.models import Paper
from bot.core.paper_merge import filled, newer_version
from bot.core.query import Filters, SearchQuery
from bot.core.text import title_key
from storage import catalog_swap
from storage.database import Database, utc_timestamp
from storage.fts import (
    BM25,
    COLUMNS,
    HEADLINE_COLUMNS,
    index_row,
    match_expression,
    phrase_expression,
)
from storage.prepared import (
    PreparedPaper,
    content_hash,
    kept_links,
    paper_values,
    prepared_batches,
)
from storage.rows import (
    LINK_COLUMNS,
    PAPER_COLUMN_COUNT,
    PAPER_COLUMNS,
    hit_from_row,
    paper_from_row,
)

BATCH = 1000
"""Rows per page when reading every paper."""
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
RANK_WINDOW = 500
"""Matches ranked by bm25 for a frequent word: its newest this many (see `_top`); PostgreSQL
uses the same window. 500 kept hit@1 at 202/207 at 100k, where 2000 spent ~1.5 ms per
frequent word scoring rows that never reach a page."""
_SCORE = PAPER_COLUMN_COUNT
"""Where a query's score (or id) column follows the paper's columns."""
STORED_COLUMNS = (
    "title_en, title_zh, authors, affiliations, summary_zh, comments, journal_ref, conference, "
    "year, track, workshop, honours, pages, figures, tables, summary_en, arxiv_id, "
    "arxiv_version, doi, url, pdf_url, categories, arxiv_published, arxiv_updated"
)
"""The columns `storage.prepared.paper_values` fills, in order."""
_STORED = STORED_COLUMNS
_INSERT = (
    "(id, public_id, title_key, " + _STORED + ", source, source_line, content_hash, added_at, "
    "updated_at) VALUES (" + ", ".join("?" * (_STORED.count(",") + 9)) + ")"
)
_FTS_INSERT = ("INSERT INTO {table} (rowid, " + ", ".join(COLUMNS) + ") VALUES ("
               + ", ".join("?" * (len(COLUMNS) + 1)) + ")")


def _newest(match: str, room: str) -> str:
    """The `?2` newest rows matching `match`, scored; walked only while `room` > 0 (a constant
    condition, which SQLite tests before walking the index)."""
    return (f"SELECT rowid, {BM25} AS score FROM paper_fts WHERE paper_fts MATCH {match} "
            f"AND ({room}) > 0 ORDER BY rowid DESC LIMIT ?2")


_IF_PHRASE = ("LIMIT CASE WHEN EXISTS (SELECT 1 FROM paper_fts WHERE paper_fts MATCH ?7) "
              "THEN -1 ELSE 0 END")
"""No limit when the bare phrase `?7` is in some title, else a zero LIMIT, which SQLite tests
before it opens the full-text cursor: opening `?5` (the phrase AND the words) merges the
doclists of every term a prefix word such as `model*` starts, ~0.6 ms, and an EXISTS in the
WHERE clause was tested only after the open."""


def _ranking_sql(phrase: bool) -> str:
    """One statement ranking a page of `?3` rows in up to three steps, each only when the steps
    before leave room, each leaving out the rows already taken:
    1. (with `phrase`) titles holding the words as a phrase `?5`, the title whose key is `?6`
       first; not even opened when the bare phrase `?7` is in no title (`?5` is `?7` AND the
       words, whose prefix terms are what costs);
    2. headline (titles, authors) matches `?1`, the best among their `?2` newest;
    3. whole-paper matches `?4`, likewise.
    Ranked inside the full-text index; only the rows shown are joined to `papers`."""
    taken = "(SELECT count(*) FROM phrase)" if phrase else "0"
    steps = [
        "phrase AS MATERIALIZED (SELECT rowid, score, exact FROM (SELECT rowid, "
        f"{BM25} AS score, rowid IN (SELECT id FROM papers WHERE title_key = ?6) AS exact "
        f"FROM paper_fts WHERE paper_fts MATCH ?5 {_IF_PHRASE}) "
        "ORDER BY exact DESC, score, rowid LIMIT ?3)"
    ] if phrase else []
    unions = ["SELECT 0 AS step, rowid, score, exact FROM phrase"] if phrase else []
    left_out = " AND rowid NOT IN (SELECT rowid FROM phrase)" if phrase else ""
    steps += [
        f"head_newest AS ({_newest('?1', f'?3 - {taken}')})",
        f"head AS MATERIALIZED (SELECT rowid, score FROM head_newest WHERE TRUE{left_out} "
        f"ORDER BY score, rowid LIMIT ?3 - {taken})",
        f"shown AS MATERIALIZED (SELECT {taken} + (SELECT count(*) FROM head) AS n)",
        f"rest_newest AS ({_newest('?4', '?3 - (SELECT n FROM shown)')})",
        f"rest AS (SELECT rowid, score FROM rest_newest WHERE rowid NOT IN "
        f"(SELECT rowid FROM head){left_out} ORDER BY score, rowid "
        "LIMIT ?3 - (SELECT n FROM shown))",
    ]
    unions += ["SELECT 1 AS step, rowid, score, 0 AS exact FROM head",
               "SELECT 2, rowid, score, 0 FROM rest"]
    return (f"WITH {', '.join(steps)}, top AS ({' UNION ALL '.join(unions)}) "
            f"SELECT {PAPER_COLUMNS}, top.score FROM top JOIN papers p ON p.id = top.rowid "
            "ORDER BY top.step, top.exact DESC, top.score, p.id")


_RANKED = _ranking_sql(phrase=False)
_PHRASE_THEN_RANKED = _ranking_sql(phrase=True)



def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def filter_clauses(filters: Filters) -> tuple[list[str], list[Any]]:
    """SQL conditions on `papers p` for a query's filters, with their bound parameters."""
    where: list[str] = []
    params: list[Any] = []
    if filters.track:
        where.append("p.track = ?")
        params.append(filters.track.value)
    if filters.venue:
        where.append("(p.conference = ? COLLATE NOCASE OR p.workshop LIKE ? ESCAPE '\\')")
        params += [filters.venue, f"%{_escape_like(filters.venue)}%"]
    if filters.year is not None:
        where.append("p.year = ?")
        params.append(filters.year)
    if filters.honour:
        where.append(
            "EXISTS (SELECT 1 FROM paper_honours h WHERE h.paper_id = p.id AND h.honour = ?)"
        )
        params.append(filters.honour)
    return where, params


async def _pipelined(loader: _BatchLoader,
                     batches: AsyncIterable[Sequence[PreparedPaper]]) -> None:
    """Write batch n while batch n+1 is being received (from a worker process or thread).

    The event loop only schedules: lookups keep being answered during a long load.
    """
    pending: asyncio.Task[None] | None = None
    try:
        async for batch in _rebatched(batches, LOAD_BATCH):
            if pending:
                await pending
            pending = asyncio.ensure_future(loader.load(batch))
        if pending:
            await pending
    except BaseException:
        if pending and not pending.done():
            pending.cancel()
            with contextlib.suppress(BaseException):
                await pending
        raise


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
    async with db.transaction() as conn:
        for pragma, value in _LOAD_PRAGMAS.items():
            async with conn.execute(f"PRAGMA {pragma}") as cursor:
                row = await cursor.fetchone()
            if row is not None:
                before[pragma] = int(row[0])
            await conn.execute(f"PRAGMA {pragma} = {value}")
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            async with db.transaction() as conn:
                for pragma, value in before.items():
                    await conn.execute(f"PRAGMA {pragma} = {value}")


async def _fts_options(conn: aiosqlite.Connection, table: str, options: dict[str, int]) -> None:
    """Set FTS5 configuration options (`automerge`, `hashsize`, ...) on a full-text table."""
    for option, value in options.items():
        await conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('{option}', ?)",
                           (value,))


async def _merge_index(db: Database, table: str) -> None:
    """Merge a full-text table's segments into one, `MERGE_PAGES` a transaction (FTS5's
    'merge' with a negative count: every level at once), until a step finds nothing to do."""
    while True:
        async with db.transaction() as conn:
            before = conn.total_changes
            await conn.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('merge', ?)",
                               (-MERGE_PAGES,))
            merged = conn.total_changes - before >= 2  # FTS5's documented sign of work done
        await _breathe()
        if not merged:
            return


async def _breathe() -> None:
    """Leave the write lock free for a moment: other processes' writers poll for it."""
    await asyncio.sleep(LOAD_PAUSE_SECONDS)


class LoadClassifier:
    """One load's bookkeeping, for either backend: ids are assigned here (one load at a time
    holds the slot); a paper already in the live catalog keeps its id and `added_at`."""

    def __init__(self, source: str, counts: LoadCounts, next_id: int) -> None:
        self._source = source
        self._counts = counts
        self._next_id = next_id
        self._lines: dict[str, int] = {}
        self._ids: set[str] = set()
        self._arxiv: dict[str, str] = {}
        """arXiv id -> title key of the paper holding it in this load."""

    def classify(self, batch: Sequence[PreparedPaper],
                 live: dict[str, tuple[int, str, str, str]],
                 taken: set[str], holders: dict[str, str] | None = None,
                 earlier: dict[str, int] | None = None,
                 ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]],
                            list[tuple[str, int]]]:
        """Count each paper as new, updated, unchanged, duplicate, arXiv conflict or id
        collision; return the paper rows, index rows and honour rows to write (`live`: title
        key -> id, content hash, added, updated; `taken`: public ids held by live papers with
        other titles; `holders`: arXiv id -> title key of the live paper holding it).

        `earlier` (title key -> line) are the batch's titles already written by this load, as
        the store found them, with `taken` then holding the public ids it has written too: the
        classifier need not remember every title of a million-paper load (~270 MB)."""
        if earlier is not None:
            self._lines, self._ids = dict(earlier), set()
        counts, source, now = self._counts, self._source, utc_timestamp()
        holders = holders or {}
        taken = taken | self._ids
        rows: list[tuple[Any, ...]] = []
        fts_rows: list[tuple[Any, ...]] = []
        honours: list[tuple[str, int]] = []
        for item in batch:
            first = self._lines.get(item.key)
            if first is not None:
                counts.duplicates.append((item.line, first))
                continue
            arxiv_id = item.arxiv_id
            if arxiv_id and self._arxiv.get(arxiv_id, holders.get(arxiv_id, item.key)) != item.key:
                counts.arxiv_conflicts.append(item.line)
                continue
            found = live.get(item.key)
            if found is None:
                if item.public_id in taken:
                    counts.id_collisions.append(item.line)
                    continue
                rowid, added, updated = self._next_id, now, now
                self._next_id += 1
                counts.added += 1
                counts.added_ids.append(item.public_id)
            else:
                rowid, digest, added, updated = found
                if digest == item.digest:
                    counts.unchanged += 1
                else:
                    updated = now
                    counts.updated += 1
            self._lines[item.key] = item.line
            self._ids.add(item.public_id)
            if arxiv_id:
                self._arxiv[arxiv_id] = item.key
            taken.add(item.public_id)
            rows.append((rowid, item.public_id, item.key, *item.values, source, item.line,
                         item.digest, added, updated))
            fts_rows.append((rowid, *item.index_text))
            honours.extend((honour, rowid) for honour in item.honours)
        return rows, fts_rows, honours


    def merge_and_classify(
            self, batch: Sequence[PreparedPaper],
            found: dict[str, tuple[Any, ...]], taken: set[str], holders: dict[str, str],
            earlier: dict[str, int] | None = None,
    ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[str, int]]]:
        """`classify`, after each record found live keeps the links an add stored (`found`:
        title key -> id, content hash, added, updated, link values)."""
        batch = [kept_links(item, found[item.key][4]) if item.key in found else item
                 for item in batch]
        live = {key: (int(row[0]), str(row[1]), str(row[2]), str(row[3]))
                for key, row in found.items()}
        return self.classify(batch, live, taken, holders, earlier)


class _BatchLoader(LoadClassifier):
    """Writes one load's batches into the shadow tables, one short transaction each."""

    def __init__(self, db: Database, source: str, counts: LoadCounts, next_id: int) -> None:
        super().__init__(source, counts, next_id)
        self._db = db

    async def _live(self, conn: aiosqlite.Connection,
                    keys: list[str]) -> dict[str, tuple[int, str, str, str, tuple[Any, ...]]]:
        """Live rows by title key: id, content hash, times and English abstract and links."""
        async with conn.execute(
            f"SELECT title_key, id, content_hash, added_at, updated_at, {LINK_COLUMNS} "
            f"FROM papers WHERE title_key IN ({','.join('?' * len(keys))})", keys,
        ) as cursor:
            return {row[0]: (row[1], row[2], row[3], row[4], tuple(row[5:]))
                    async for row in cursor}

    async def _arxiv_holders(self, conn: aiosqlite.Connection,
                             batch: list[PreparedPaper]) -> dict[str, str]:
        """Title keys of the live papers holding the batch's arXiv ids."""
        ids = [item.arxiv_id for item in batch if item.arxiv_id]
        if not ids:
            return {}
        async with conn.execute(
            f"SELECT arxiv_id, title_key FROM papers WHERE arxiv_id IN "
            f"({','.join('?' * len(ids))})", ids,
        ) as cursor:
            return {str(arxiv_id): str(key) async for arxiv_id, key in cursor}

    async def _taken_ids(self, conn: aiosqlite.Connection,
                         batch: list[PreparedPaper]) -> set[str]:
        """Public ids in the batch already held by a live paper with another title (64-bit ids
        make this improbable, but one must never abort the whole load)."""
        ids = [item.public_id for item in batch]
        async with conn.execute(
            f"SELECT public_id FROM papers WHERE public_id IN ({','.join('?' * len(ids))}) "
            f"AND title_key NOT IN ({','.join('?' * len(ids))})",
            [*ids, *(item.key for item in batch)],
        ) as cursor:
            return {str(row[0]) async for row in cursor}

    async def load(self, batch: list[PreparedPaper]) -> None:
        """Classify each paper as new, updated, unchanged or duplicate, then write in bulk."""
        async with self._db.transaction() as conn:
            await self._write(conn, batch)
        await _breathe()

    async def _write(self, conn: aiosqlite.Connection, batch: list[PreparedPaper]) -> None:
        keys = [item.key for item in batch]
        found = await self._live(conn, keys)
        taken = await self._taken_ids(conn, batch)
        holders = await self._arxiv_holders(conn, batch)
        marks = ",".join("?" * len(batch))
        async with conn.execute(f"SELECT title_key, source_line FROM papers_next "
                                f"WHERE title_key IN ({marks})", keys) as cursor:
            earlier = {str(key): int(line) async for key, line in cursor}
        async with conn.execute(f"SELECT public_id FROM papers_next WHERE public_id IN "
                                f"({marks})", [item.public_id for item in batch]) as cursor:
            taken |= {str(row[0]) async for row in cursor}
        rows, fts_rows, honours = await asyncio.to_thread(  # off the event loop
            self.merge_and_classify, batch, found, taken, holders, earlier)
        await conn.executemany("INSERT INTO papers_next " + _INSERT, rows)
        await conn.executemany(_FTS_INSERT.format(table="paper_fts_next"), fts_rows)
        await conn.executemany(
            "INSERT OR IGNORE INTO paper_honours_next (honour, paper_id) VALUES (?, ?)", honours
        )


class PaperRows(Protocol):
    """What the identity rules need from a backend, inside one transaction."""

    async def stored(self, column: str, value: str) -> tuple[int, Paper] | None:
        """The row id and paper whose `column` (arxiv_id, title_key, public_id) is `value`."""
        ...

    async def rewrite(self, rowid: int, paper: Paper) -> None:
        """Update a stored paper in place (same title key, so the same public id)."""
        ...

    async def insert(self, paper: Paper) -> None:
        """Store a new paper."""
        ...


async def add_by_identity(rows: PaperRows, paper: Paper) -> AddOutcome:
    """The identity rules, for either backend: a known arXiv id updates in place when the
    version is newer (else nothing changes); a record with the same normalised title gets what
    it lacks (the id, links, English abstract) and is never duplicated; anything else is a new
    paper."""
    if paper.links.arxiv_id:
        found = await rows.stored("arxiv_id", paper.links.arxiv_id)
        if found is not None:
            rowid, stored = found
            merged = newer_version(stored, paper)
            if paper.links.arxiv_version <= stored.links.arxiv_version or merged == stored:
                return AddOutcome(AddStatus.UNCHANGED, stored)
            await rows.rewrite(rowid, merged)
            return AddOutcome(AddStatus.UPDATED, merged)
    found = await rows.stored("title_key", paper.key)
    if found is not None:
        rowid, stored = found
        if stored.links.arxiv_id and paper.links.arxiv_id:
            return AddOutcome(AddStatus.CONFLICT, stored)  # two arXiv papers, one title
        merged = filled(stored, paper)
        if merged == stored:
            return AddOutcome(AddStatus.UNCHANGED, stored)
        await rows.rewrite(rowid, merged)
        return AddOutcome(AddStatus.FILLED, merged)
    holder = await rows.stored("public_id", paper.id)
    if holder is not None:  # a 64-bit id collision between two titles: improbable
        return AddOutcome(AddStatus.CONFLICT, holder[1])
    await rows.insert(paper)
    return AddOutcome(AddStatus.ADDED, paper)


def added_tally(outcomes: Sequence[AddOutcome]) -> tuple[int, int, int, int] | None:
    """A `catalog_loads` row's added, updated, unchanged and rejected counts for an add, or
    None when nothing changed (no row: the catalog version stays)."""
    tally = Counter(outcome.status for outcome in outcomes)
    if not (tally[AddStatus.ADDED] or tally[AddStatus.UPDATED] or tally[AddStatus.FILLED]):
        return None
    return (tally[AddStatus.ADDED], tally[AddStatus.UPDATED] + tally[AddStatus.FILLED],
            tally[AddStatus.UNCHANGED], tally[AddStatus.CONFLICT])


class _SqliteRows:
    """`PaperRows` on one SQLite transaction."""

    def __init__(self, conn: aiosqlite.Connection, source: str, now: str) -> None:
        self._conn, self._source, self._now = conn, source, now

    async def stored(self, column: str, value: str) -> tuple[int, Paper] | None:
        """The row id and paper whose `column` is `value`."""
        async with self._conn.execute(
                f"SELECT {PAPER_COLUMNS}, p.id FROM papers p WHERE p.{column} = ?",
                (value,)) as cursor:
            row = await cursor.fetchone()
        return (int(row[_SCORE]), paper_from_row(row)) if row else None

    async def rewrite(self, rowid: int, paper: Paper) -> None:
        """Update a stored paper in place, with its index row."""
        values = paper_values(paper)
        assignments = ", ".join(f"{column.strip()} = ?" for column in _STORED.split(","))
        await self._conn.execute(
            f"UPDATE papers SET {assignments}, content_hash = ?, updated_at = ? WHERE id = ?",
            (*values, content_hash(values), self._now, rowid))
        await self._index(rowid, paper)

    async def insert(self, paper: Paper) -> None:
        """Store a new paper, with its index row."""
        values = paper_values(paper)
        cursor = await self._conn.execute(
            "INSERT INTO papers " + _INSERT,
            (None, paper.id, paper.key, *values, self._source, None, content_hash(values),
             self._now, self._now))
        await self._index(int(cursor.lastrowid or 0), paper)

    async def _index(self, rowid: int, paper: Paper) -> None:
        """(Re)write a paper's full-text row and honours."""
        conn = self._conn
        await conn.execute("DELETE FROM paper_fts WHERE rowid = ?", (rowid,))
        await conn.execute(_FTS_INSERT.format(table="paper_fts"), (rowid, *index_row(paper)))
        await conn.execute("DELETE FROM paper_honours WHERE paper_id = ?", (rowid,))
        await conn.executemany("INSERT OR IGNORE INTO paper_honours (honour, paper_id) "
                               "VALUES (?, ?)", [(h, rowid) for h in paper.venue.honours])


class SqlitePaperStore:
    """Papers, their honours and the FTS5 index, kept in step; loads switch atomically."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def load(
        self,
        papers: Iterable[tuple[int, Paper]],
        *,
        source: LoadSource,
        prune: bool = False,
    ) -> LoadCounts:
        """`load_prepared`, the papers prepared in a worker thread."""
        return await self.load_prepared(prepared_batches(papers), source=source, prune=prune)

    async def load_prepared(
        self,
        batches: AsyncIterable[Sequence[PreparedPaper]],
        *,
        source: LoadSource,
        prune: bool = False,
    ) -> LoadCounts:
        """Build the next catalog in short transactions, then switch to it in one.

        Other writers get the lock between batches; readers see the old catalog until the
        switch; an exception (or a kill) leaves the old catalog intact. Raises
        `CatalogLoadRunning` while another load holds the slot.
        """
        counts = LoadCounts()
        async with self._db.transaction() as conn:
            await catalog_swap.claim(conn)
            await _fts_options(conn, catalog_swap.shadow("paper_fts"), LOAD_FTS_OPTIONS)
            async with conn.execute("SELECT coalesce(max(id), 0) FROM papers") as cursor:
                row = await cursor.fetchone()
        try:
            next_id = int(row[0] if row else 0) + 1
            async with _load_settings(self._db):
                await _pipelined(_BatchLoader(self._db, source.name, counts, next_id), batches)
                await self._carry_over(source.name if prune else None)
                await _merge_index(self._db, catalog_swap.shadow("paper_fts"))
            async with self._db.transaction() as conn:
                if prune:
                    counts.removed = await self._pruned(conn, source.name)
                await conn.execute(
                    "INSERT INTO catalog_loads (source, listing_query, loaded_at, added, "
                    "updated, unchanged, removed, rejected) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (source.name, source.listing_query, utc_timestamp(), counts.added,
                     counts.updated, counts.unchanged, counts.removed,
                     source.rejected + len(counts.duplicates) + len(counts.id_collisions)
                     + len(counts.arxiv_conflicts)),
                )
                await _fts_options(conn, catalog_swap.shadow("paper_fts"), FTS_OPTIONS)
                await catalog_swap.switch(conn)
        except BaseException:
            with contextlib.suppress(Exception):
                async with self._db.transaction() as conn:
                    await catalog_swap.release(conn)
            raise
        return counts

    async def add_papers(self, papers: Sequence[Paper], *,
                         source: str = ADD_SOURCE) -> list[AddOutcome]:
        """Add a few papers in one transaction, each by the identity rules (`_add_one`).

        Raises `CatalogLoadRunning` while a load is being built (its switch would lose them).
        A change is recorded as a load of `source`, so `catalog_version` moves.
        """
        async with self._db.transaction() as conn:
            await catalog_swap.ensure_free(conn)
            now = utc_timestamp()
            rows = _SqliteRows(conn, source, now)
            outcomes = [await add_by_identity(rows, paper) for paper in papers]
            tally = added_tally(outcomes)
            if tally is not None:
                await conn.execute(
                    "INSERT INTO catalog_loads (source, listing_query, loaded_at, added, "
                    "updated, unchanged, removed, rejected) VALUES (?, NULL, ?, ?, ?, ?, 0, ?)",
                    (source, now, *tally))
        return outcomes

    async def _carry_over(self, pruned_source: str | None) -> None:
        """Copy the live papers this load did not touch into the shadows, a batch per
        transaction (all of them, or with `--prune` those of other sources)."""
        keep = " AND p.source != ?" if pruned_source is not None else ""
        last = 0
        while True:
            async with self._db.transaction() as conn:
                async with conn.execute(
                    "SELECT p.id FROM papers p WHERE p.id > ? AND NOT EXISTS "
                    f"(SELECT 1 FROM papers_next n WHERE n.id = p.id){keep} "
                    "ORDER BY p.id LIMIT ?",
                    (last, *((pruned_source,) if pruned_source is not None else ()),
                     LOAD_BATCH),
                ) as cursor:
                    ids = [int(row[0]) async for row in cursor]
                if not ids:
                    return
                marks = ",".join("?" * len(ids))
                await conn.execute(f"INSERT INTO papers_next SELECT * FROM papers "
                                   f"WHERE id IN ({marks})", ids)
                await conn.execute(
                    f"INSERT INTO paper_fts_next (rowid, {', '.join(COLUMNS)}) SELECT rowid, "
                    f"{', '.join(COLUMNS)} FROM paper_fts WHERE rowid IN ({marks})", ids)
                await conn.execute(f"INSERT INTO paper_honours_next SELECT * FROM "
                                   f"paper_honours WHERE paper_id IN ({marks})", ids)
            last = ids[-1]
            await _breathe()

    async def _pruned(self, conn: aiosqlite.Connection, source: str) -> int:
        async with conn.execute(
            "SELECT count(*) FROM papers p WHERE p.source = ? AND NOT EXISTS "
            "(SELECT 1 FROM papers_next n WHERE n.id = p.id)", (source,)) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        row = await self._db.fetchone(
            f"SELECT {PAPER_COLUMNS} FROM papers p WHERE p.public_id = ?", (public_id,)
        )
        return paper_from_row(row) if row else None

    async def search(
        self, query: SearchQuery, *, any_word: bool = False, limit: int = 10, offset: int = 0
    ) -> list[SearchHit]:
        """Ranked by bm25 with column weights; filters narrow in SQL with bound parameters.

        Titles holding the words as one phrase come first, the exact title before them all:
        `attention is all you need` finds that paper above a title that merely contains it.
        """
        match = match_expression(query, any_word=any_word)
        where, params = filter_clauses(query.filters)
        if match is None and not where:
            return []
        wanted = max(0, limit) + max(0, offset)
        phrase = bare = phrase_expression(query)
        if phrase and match:  # a phrase hit must match as the words do (an unindexable word
            phrase = f"({phrase}) AND ({match})"  # such as U+19B0 drops out of the phrase)
        if match is not None and not where:
            hits = await self._ranked(query, any_word, phrase, bare, wanted)
        else:
            hits = await self._phrase_hits(query, phrase, where, params, wanted) if phrase else []
            if len(hits) < wanted:
                rest = await self._matches(match, where, params, wanted + len(hits))
                seen = {hit.id for hit in hits}
                hits += [hit for hit in rest if hit.id not in seen]
        return hits[max(0, offset) : wanted]

    async def _phrase_hits(self, query: SearchQuery, phrase: str, where: list[str],
                           params: list[Any], limit: int) -> list[SearchHit]:
        """Papers with the words as a phrase in a title, the exact English title first."""
        sql = (
            f"SELECT {PAPER_COLUMNS}, {BM25} AS score FROM paper_fts "
            "JOIN papers p ON p.id = paper_fts.rowid WHERE paper_fts MATCH ?"
            + "".join(f" AND {clause}" for clause in where)
            + " ORDER BY p.title_key = ? DESC, score, p.id LIMIT ?"
        )
        exact = title_key(" ".join(query.phrase))
        rows = await self._db.fetchall(sql, [phrase, *params, exact, limit])
        return [hit_from_row(row, float(row[_SCORE])) for row in rows]

    async def _matches(self, match: str | None, where: list[str], params: list[Any],
                       limit: int) -> list[SearchHit]:
        """Under filters, the first `limit` matches by bm25 (or, with filters only, newest
        first)."""
        if match is not None:
            sql = (
                f"SELECT {PAPER_COLUMNS}, {BM25} AS score FROM paper_fts "
                "JOIN papers p ON p.id = paper_fts.rowid WHERE paper_fts MATCH ?"
                + "".join(f" AND {clause}" for clause in where)
                + " ORDER BY score, p.id LIMIT ?"
            )
            params = [match, *params]
        else:
            sql = (
                f"SELECT {PAPER_COLUMNS}, 0.0 AS score FROM papers p WHERE "
                + " AND ".join(where)
                + " ORDER BY p.year DESC, p.title_key LIMIT ?"
            )
        rows = await self._db.fetchall(sql, [*params, max(0, limit)])
        return [hit_from_row(row, float(row[_SCORE])) for row in rows]

    async def _ranked(self, query: SearchQuery, any_word: bool, phrase: str | None,
                      bare_phrase: str | None, limit: int) -> list[SearchHit]:
        """Without filters, in one statement (`_ranking_sql`): the phrase hits, then headline
        hits (title, authors), then the rest: titles outrank summaries, and a frequent word
        needs no ranking of every summary that mentions it.

        bm25 costs about a microsecond per matching row, so a word found in thousands of papers
        is ranked among its `RANK_WINDOW` newest matches only, found by walking the index
        backwards; narrower queries rank every match. One round trip for all the steps: a
        search that finds nothing, as a typo does, once cost two, a phrase three.
        """
        everywhere = match_expression(query, any_word=any_word)
        headline = match_expression(query, any_word=any_word, columns=HEADLINE_COLUMNS)
        if everywhere is None or headline is None or limit <= 0:
            return []
        values: tuple[Any, ...] = (headline, RANK_WINDOW, limit, everywhere)
        if phrase is None:
            rows = await self._db.fetchall(_RANKED, values)
        else:
            exact = title_key(" ".join(query.phrase))
            rows = await self._db.fetchall(_PHRASE_THEN_RANKED,
                                           (*values, phrase, exact, bare_phrase))
        return [hit_from_row(row, float(row[_SCORE])) for row in rows]

    async def workshop_names(self, prefix: str = "", limit: int = 10) -> list[str]:
        """Workshop names containing `prefix` (case-insensitive), most papers first."""
        rows = await self._db.fetchall(
            "SELECT workshop FROM papers WHERE workshop LIKE ? ESCAPE '\\' "
            "GROUP BY workshop ORDER BY count(*) DESC, workshop LIMIT ?",
            (f"%{_escape_like(prefix)}%", limit))
        return [str(row[0]) for row in rows]

    async def venue_names(self, text: str = "", limit: int = 25) -> list[str]:
        """Conference and workshop names containing `text` (case-insensitive), most papers
        first: what a `venue:` filter can name."""
        pattern = f"%{_escape_like(text)}%"
        rows = await self._db.fetchall(
            "SELECT name FROM (SELECT conference AS name, count(*) AS n FROM papers "
            "WHERE conference LIKE ? ESCAPE '\\' GROUP BY conference UNION ALL "
            "SELECT workshop, count(*) FROM papers WHERE workshop LIKE ? ESCAPE '\\' "
            "GROUP BY workshop) ORDER BY n DESC, name LIMIT ?",
            (pattern, pattern, limit))
        return [str(row[0]) for row in rows]

    async def paper_ids(self, track: str | None = None) -> list[str]:
        """Public ids of every paper, or of those on one track."""
        sql = "SELECT public_id FROM papers" + (" WHERE track = ?" if track else "")
        return [str(row[0]) for row in await self._db.fetchall(sql, (track,) if track else ())]

    async def random(self) -> Paper | None:
        """A uniformly random paper."""
        row = await self._db.fetchone(
            f"SELECT {PAPER_COLUMNS} FROM papers p WHERE p.id >= "
            "(SELECT abs(random()) % (max(id) + 1) FROM papers) ORDER BY p.id LIMIT 1"
        )
        if row is None:
            row = await self._db.fetchone(
                f"SELECT {PAPER_COLUMNS} FROM papers p ORDER BY p.id LIMIT 1"
            )
        return paper_from_row(row) if row else None

    async def count(self) -> int:
        """Number of papers."""
        row = await self._db.fetchone("SELECT count(*) FROM papers")
        return int(row[0]) if row else 0

    async def stats(self) -> CatalogStats:
        """Totals per conference, year and track, and the last load."""
        venues = tuple(VenueCount(c, y, t, n) for c, y, t, n in await self._db.fetchall(
            "SELECT conference, year, track, count(*) FROM papers "
            "GROUP BY conference, year, track ORDER BY count(*) DESC, conference, year, track"
        ))
        row = await self._db.fetchone(
            "SELECT count(DISTINCT workshop) FROM papers WHERE workshop IS NOT NULL"
        )
        workshops = int(row[0]) if row else 0
        last = await self._db.fetchone(
            "SELECT loaded_at, source, rejected FROM catalog_loads ORDER BY id DESC LIMIT 1"
        )
        return CatalogStats(
            papers=sum(v.papers for v in venues),
            venues=venues,
            workshops=workshops,
            last_load_at=datetime.fromisoformat(last[0]) if last else None,
            last_load_source=last[1] if last else None,
            last_load_rejected=int(last[2]) if last else 0,
        )

    async def vocabulary(self) -> list[tuple[str, int]]:
        """Indexed Latin words of 4+ letters with their document counts. The term range lets
        fts5vocab skip the CJK bigrams and digits (a quarter of the scan at 100k)."""
        # The rows are (TEXT, INTEGER) tuples already: returned as they are, with no copy of
        # a few hundred thousand rows on the event loop.
        rows: list[tuple[str, int]] = await self._db.fetchall(
            "SELECT term, doc FROM paper_vocab WHERE term >= 'a' AND term < '{' "
            "AND length(term) >= 4 "
            "AND term GLOB '[a-z]*' AND term NOT GLOB '*[0-9]*'"
        )
        return rows

    async def catalog_version(self) -> int:
        """The id of the last load; changes with every load."""
        row = await self._db.fetchone("SELECT max(id) FROM catalog_loads")
        return int(row[0] or 0) if row else 0

    async def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper in insertion order, read in pages."""
        last = 0
        while True:
            rows = await self._db.fetchall(
                f"SELECT {PAPER_COLUMNS}, p.id FROM papers p WHERE p.id > ? ORDER BY p.id LIMIT ?",
                (last, BATCH),
            )
            if not rows:
                return
            for row in rows:
                yield paper_from_row(row)
            last = int(rows[-1][_SCORE])
