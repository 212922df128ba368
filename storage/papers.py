"""SQLite implementation of `PaperStore`."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from typing import Any

import aiosqlite

from bot.core.catalog_types import CatalogStats, LoadCounts, LoadSource, SearchHit, VenueCount
from bot.core.models import Paper
from bot.core.query import Filters, SearchQuery
from bot.core.text import title_key
from storage import catalog_swap
from storage.database import Database, utc_timestamp
from storage.fts import (
    COLUMNS,
    HEADLINE_COLUMNS,
    WEIGHTS,
    index_row,
    match_expression,
    phrase_expression,
)
from storage.rows import paper_from_row

BATCH = 1000
"""Papers per load transaction (and rows per page when reading every paper)."""
LOAD_PAUSE_SECONDS = 0.01
"""Pause between a load's transactions, so writers in other processes get the lock."""
RANK_WINDOW = 2000
_PAPER_COLUMNS = (
    "p.title_en, p.title_zh, p.authors, p.affiliations, p.summary_zh, p.comments, "
    "p.journal_ref, p.conference, p.year, p.track, p.workshop, p.honours, p.pages, "
    "p.figures, p.tables"
)
_BM25 = "bm25(paper_fts, " + ", ".join(str(w) for w in WEIGHTS) + ")"
assert len(WEIGHTS) == len(COLUMNS)



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


def _paper_values(paper: Paper) -> tuple[Any, ...]:
    v = paper.venue
    return (
        paper.title_en,
        paper.title_zh,
        json.dumps(list(paper.authors), ensure_ascii=False),
        json.dumps([[a.en, a.zh] for a in paper.affiliations], ensure_ascii=False),
        paper.summary_zh,
        paper.comments,
        paper.journal_ref,
        v.conference,
        v.year,
        v.track.value,
        v.workshop,
        json.dumps(list(v.honours)),
        v.pages,
        v.figures,
        v.tables,
    )


def content_hash(values: tuple[Any, ...]) -> str:
    """A digest of every stored field, to tell an updated record from an unchanged one."""
    joined = "\x1f".join("" if v is None else str(v) for v in values)
    return hashlib.sha1(joined.encode(), usedforsecurity=False).hexdigest()


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A paper with everything computed that needs no database: done while SQLite writes."""

    line: int
    paper: Paper
    key: str
    values: tuple[Any, ...]
    digest: str


def _prepare(batch: list[tuple[int, Paper]]) -> list[_Prepared]:
    prepared = []
    for line, paper in batch:
        values = _paper_values(paper)
        prepared.append(
            _Prepared(line, paper, paper.key, values, content_hash(values))
        )
    return prepared


async def _pipelined(loader: _BatchLoader, papers: Iterator[tuple[int, Paper]]) -> None:
    """Parse and prepare batch n+1 in a worker thread while SQLite writes batch n.

    The event loop only schedules: lookups keep being answered during a long load.
    """
    pending: asyncio.Task[None] | None = None
    try:
        while batch := await asyncio.to_thread(_next_batch, papers):
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


def _next_batch(papers: Iterator[tuple[int, Paper]]) -> list[_Prepared]:
    return _prepare(list(islice(papers, BATCH)))


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

    def classify(self, batch: list[_Prepared], live: dict[str, tuple[int, str, str, str]],
                 taken: set[str]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]],
                                           list[tuple[str, int]]]:
        """Count each paper as new, updated, unchanged, duplicate or id collision; return the
        paper rows, index rows and honour rows to write (`live`: title key -> id, content
        hash, added, updated; `taken`: public ids held by live papers with other titles)."""
        counts, source, now = self._counts, self._source, utc_timestamp()
        taken = taken | self._ids
        rows: list[tuple[Any, ...]] = []
        fts_rows: list[tuple[Any, ...]] = []
        honours: list[tuple[str, int]] = []
        for item in batch:
            first = self._lines.get(item.key)
            if first is not None:
                counts.duplicates.append((item.line, first))
                continue
            found = live.get(item.key)
            if found is None:
                if item.paper.id in taken:
                    counts.id_collisions.append(item.line)
                    continue
                rowid, added, updated = self._next_id, now, now
                self._next_id += 1
                counts.added += 1
                counts.added_ids.append(item.paper.id)
            else:
                rowid, digest, added, updated = found
                if digest == item.digest:
                    counts.unchanged += 1
                else:
                    updated = now
                    counts.updated += 1
            self._lines[item.key] = item.line
            self._ids.add(item.paper.id)
            taken.add(item.paper.id)
            rows.append((rowid, item.paper.id, item.key, *item.values, source, item.line,
                         item.digest, added, updated))
            fts_rows.append((rowid, *index_row(item.paper)))
            honours.extend((honour, rowid) for honour in item.paper.venue.honours)
        return rows, fts_rows, honours


class _BatchLoader(LoadClassifier):
    """Writes one load's batches into the shadow tables, one short transaction each."""

    def __init__(self, db: Database, source: str, counts: LoadCounts, next_id: int) -> None:
        super().__init__(source, counts, next_id)
        self._db = db

    async def _live(self, conn: aiosqlite.Connection,
                    keys: list[str]) -> dict[str, tuple[int, str, str, str]]:
        async with conn.execute(
            f"SELECT title_key, id, content_hash, added_at, updated_at FROM papers "
            f"WHERE title_key IN ({','.join('?' * len(keys))})", keys,
        ) as cursor:
            return {key: (rowid, digest, added, updated)
                    async for key, rowid, digest, added, updated in cursor}

    async def _taken_ids(self, conn: aiosqlite.Connection, batch: list[_Prepared]) -> set[str]:
        """Public ids in the batch already held by a live paper with another title (64-bit ids
        make this improbable, but one must never abort the whole load)."""
        ids = [item.paper.id for item in batch]
        async with conn.execute(
            f"SELECT public_id FROM papers WHERE public_id IN ({','.join('?' * len(ids))}) "
            f"AND title_key NOT IN ({','.join('?' * len(ids))})",
            [*ids, *(item.key for item in batch)],
        ) as cursor:
            return {str(row[0]) async for row in cursor}

    async def load(self, batch: list[_Prepared]) -> None:
        """Classify each paper as new, updated, unchanged or duplicate, then write in bulk."""
        async with self._db.transaction() as conn:
            await self._write(conn, batch)
        await _breathe()

    async def _write(self, conn: aiosqlite.Connection, batch: list[_Prepared]) -> None:
        live = await self._live(conn, [item.key for item in batch])
        taken = await self._taken_ids(conn, batch)
        rows, fts_rows, honours = self.classify(batch, live, taken)
        await conn.executemany(
            "INSERT INTO papers_next (id, public_id, title_key, title_en, title_zh, authors, "
            "affiliations, summary_zh, comments, journal_ref, conference, year, track, workshop, "
            "honours, pages, figures, tables, source, source_line, content_hash, added_at, "
            "updated_at) VALUES (" + ", ".join("?" * 23) + ")",
            rows,
        )
        await conn.executemany(
            f"INSERT INTO paper_fts_next (rowid, {', '.join(COLUMNS)}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            fts_rows,
        )
        await conn.executemany(
            "INSERT OR IGNORE INTO paper_honours_next (honour, paper_id) VALUES (?, ?)", honours
        )


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
        """Build the next catalog in short transactions, then switch to it in one.

        Other writers get the lock between batches; readers see the old catalog until the
        switch; an exception (or a kill) leaves the old catalog intact. Raises
        `CatalogLoadRunning` while another load holds the slot.
        """
        counts = LoadCounts()
        async with self._db.transaction() as conn:
            await catalog_swap.claim(conn)
            async with conn.execute("SELECT coalesce(max(id), 0) FROM papers") as cursor:
                row = await cursor.fetchone()
        try:
            next_id = int(row[0] if row else 0) + 1
            await _pipelined(_BatchLoader(self._db, source.name, counts, next_id),
                             iter(papers))
            await self._carry_over(source.name if prune else None)
            async with self._db.transaction() as conn:
                if prune:
                    counts.removed = await self._pruned(conn, source.name)
                await conn.execute(
                    "INSERT INTO catalog_loads (source, listing_query, loaded_at, added, "
                    "updated, unchanged, removed, rejected) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (source.name, source.listing_query, utc_timestamp(), counts.added,
                     counts.updated, counts.unchanged, counts.removed,
                     source.rejected + len(counts.duplicates) + len(counts.id_collisions)),
                )
                await catalog_swap.switch(conn)
        except BaseException:
            with contextlib.suppress(Exception):
                async with self._db.transaction() as conn:
                    await catalog_swap.release(conn)
            raise
        return counts

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
                    (last, *((pruned_source,) if pruned_source is not None else ()), BATCH),
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
            f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.public_id = ?", (public_id,)
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
        phrase = phrase_expression(query)
        if phrase and match:  # a phrase hit must match as the words do (an unindexable word
            phrase = f"({phrase}) AND ({match})"  # such as U+19B0 drops out of the phrase)
        hits = await self._phrase_hits(query, phrase, where, params, wanted) if phrase else []
        if len(hits) < wanted:
            rest = await self._matches(query, any_word, match, where, params,
                                       wanted + len(hits))
            seen = {hit.paper.id for hit in hits}
            hits += [hit for hit in rest if hit.paper.id not in seen]
        return hits[max(0, offset) : wanted]

    async def _phrase_hits(self, query: SearchQuery, phrase: str, where: list[str],
                           params: list[Any], limit: int) -> list[SearchHit]:
        """Papers with the words as a phrase in a title, the exact English title first."""
        sql = (
            f"SELECT {_PAPER_COLUMNS}, {_BM25} AS score FROM paper_fts "
            "JOIN papers p ON p.id = paper_fts.rowid WHERE paper_fts MATCH ?"
            + "".join(f" AND {clause}" for clause in where)
            + " ORDER BY p.title_key = ? DESC, score, p.id LIMIT ?"
        )
        exact = title_key(" ".join(query.phrase))
        rows = await self._db.fetchall(sql, [phrase, *params, exact, limit])
        return [SearchHit(paper_from_row(row), float(row[15])) for row in rows]

    async def _matches(self, query: SearchQuery, any_word: bool, match: str | None,
                       where: list[str], params: list[Any], limit: int) -> list[SearchHit]:
        """The first `limit` matches by bm25 (or, with filters only, newest first)."""
        if match is not None and not where:
            return await self._ranked(query, any_word, limit, 0)
        if match is not None:
            sql = (
                f"SELECT {_PAPER_COLUMNS}, {_BM25} AS score FROM paper_fts "
                "JOIN papers p ON p.id = paper_fts.rowid WHERE paper_fts MATCH ?"
                + "".join(f" AND {clause}" for clause in where)
                + " ORDER BY score, p.id LIMIT ?"
            )
            params = [match, *params]
        else:
            sql = (
                f"SELECT {_PAPER_COLUMNS}, 0.0 AS score FROM papers p WHERE "
                + " AND ".join(where)
                + " ORDER BY p.year DESC, p.title_key LIMIT ?"
            )
        rows = await self._db.fetchall(sql, [*params, max(0, limit)])
        return [SearchHit(paper_from_row(row), float(row[15])) for row in rows]

    async def _top(self, match: str, limit: int) -> list[SearchHit]:
        """Rank inside the full-text index, then fetch only the rows shown (joining every
        match to `papers` before the LIMIT doubled the cost of frequent words).

        bm25 costs about a microsecond per matching row, so a word found in tens of thousands
        of papers is ranked among its `RANK_WINDOW` newest matches only (found by walking the
        index backwards, which needs no scoring); narrower queries rank every match.
        """
        window = await self._db.fetchone(
            "SELECT rowid FROM paper_fts WHERE paper_fts MATCH ? ORDER BY rowid DESC "
            "LIMIT 1 OFFSET ?", (match, RANK_WINDOW - 1))
        floor = int(window[0]) if window else 0
        sql = (
            f"WITH top AS (SELECT rowid, {_BM25} AS score FROM paper_fts "
            "WHERE paper_fts MATCH ? AND rowid >= ? ORDER BY score, rowid LIMIT ?) "
            f"SELECT {_PAPER_COLUMNS}, top.score, p.id FROM top "
            "JOIN papers p ON p.id = top.rowid ORDER BY top.score, p.id"
        )
        rows = await self._db.fetchall(sql, (match, floor, limit))
        return [SearchHit(paper_from_row(row), float(row[15])) for row in rows]

    async def _ranked(self, query: SearchQuery, any_word: bool, limit: int,
                      offset: int) -> list[SearchHit]:
        """Headline hits (title, authors) first, then the rest: titles outrank summaries, and
        a frequent word needs no ranking of every summary that mentions it."""
        wanted = max(0, limit) + max(0, offset)
        headline = match_expression(query, any_word=any_word, columns=HEADLINE_COLUMNS)
        hits = await self._top(headline, wanted) if headline else []
        if len(hits) < wanted:
            everywhere = match_expression(query, any_word=any_word)
            seen = {hit.paper.id for hit in hits}
            more = await self._top(str(everywhere), wanted + len(hits))
            hits += [hit for hit in more if hit.paper.id not in seen][: wanted - len(hits)]
        return hits[max(0, offset) : wanted]

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
            f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.id >= "
            "(SELECT abs(random()) % (max(id) + 1) FROM papers) ORDER BY p.id LIMIT 1"
        )
        if row is None:
            row = await self._db.fetchone(
                f"SELECT {_PAPER_COLUMNS} FROM papers p ORDER BY p.id LIMIT 1"
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
        """Indexed Latin words of 4+ letters with their document counts."""
        return [(term, int(doc)) for term, doc in await self._db.fetchall(
            "SELECT term, doc FROM paper_vocab WHERE length(term) >= 4 "
            "AND term GLOB '[a-z]*' AND term NOT GLOB '*[0-9]*'"
        )]

    async def catalog_version(self) -> int:
        """The id of the last load; changes with every load."""
        row = await self._db.fetchone("SELECT max(id) FROM catalog_loads")
        return int(row[0] or 0) if row else 0

    async def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper in insertion order, read in pages."""
        last = 0
        while True:
            rows = await self._db.fetchall(
                f"SELECT {_PAPER_COLUMNS}, p.id FROM papers p WHERE p.id > ? ORDER BY p.id LIMIT ?",
                (last, BATCH),
            )
            if not rows:
                return
            for row in rows:
                yield paper_from_row(row)
            last = int(rows[-1][15])
