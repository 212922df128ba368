"""SQLite implementation of `PaperStore`: lookups, search and adds here; the ranking SQL in
`storage.papers.sqlite_ranking`, the staged load in `storage.papers.sqlite_loading`."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from domain.catalog import (
    ADD_SOURCE,
    AddOutcome,
    AddStatus,
    CatalogStats,
    LoadCounts,
    LoadSource,
    SearchHit,
    VenueCount,
)
from domain.paper import Paper
from domain.prefixes import Expansion
from domain.query import SearchQuery
from domain.text import title_key
from storage.notifications.announce_sqlite import record_unannounced
from storage.papers import sqlite_ranking as paper_ranking
from storage.papers import sqlite_swap as catalog_swap
from storage.papers.fts import (
    BM25,
    index_row,
    match_expression,
    phrase_expression,
)
from storage.papers.identity import add_by_identity, added_tally
from storage.papers.prefixes import ExpansionCache
from storage.papers.prepared import (
    STORED_COLUMNS,
    PreparedPaper,
    content_hash,
    paper_values,
    prepared_batches,
)
from storage.papers.rows import (
    PAPER_COLUMN_COUNT,
    PAPER_COLUMNS,
    READ_BATCH,
    hit_from_row,
    paper_from_row,
    unread_hit,
)
from storage.papers.sqlite_index import unindex, write_index
from storage.papers.sqlite_loading import PAPER_INSERT, staged_load
from storage.papers.sqlite_ranking import escape_like, filter_clauses
from storage.sqlite.database import Database
from storage.times import utc_timestamp

_SCORE = PAPER_COLUMN_COUNT
"""Where a query's score (or id) column follows the paper's columns."""


class _SqliteRows:
    """`storage.papers.identity.PaperRows` on one SQLite transaction."""

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
        assignments = ", ".join(f"{column.strip()} = ?" for column in STORED_COLUMNS.split(","))
        await unindex(self._conn, [rowid])  # the text it was indexed with: before it changes
        await self._conn.execute(
            f"UPDATE papers SET {assignments}, content_hash = ?, updated_at = ? WHERE id = ?",
            (*values, content_hash(values), self._now, rowid))
        await self._index(rowid, paper)

    async def insert(self, paper: Paper) -> None:
        """Store a new paper, with its index row."""
        values = paper_values(paper)
        cursor = await self._conn.execute(
            "INSERT INTO papers " + PAPER_INSERT,
            (None, paper.id, paper.key, *values, self._source, None, content_hash(values),
             self._now, self._now))
        await self._index(int(cursor.lastrowid or 0), paper)

    async def _index(self, rowid: int, paper: Paper) -> None:
        """Write a paper's full-text row (taken out first by `rewrite`) and honours."""
        conn = self._conn
        await write_index(conn, [(rowid, *index_row(paper))])
        await conn.execute("DELETE FROM paper_honours WHERE paper_id = ?", (rowid,))
        await conn.executemany("INSERT OR IGNORE INTO paper_honours (honour, paper_id) "
                               "VALUES (?, ?)", [(h, rowid) for h in paper.venue.honours])


_IDS_PER_READ = 500
"""Ids bound in one `IN (...)` (SQLite allows 32,766 variables; a read stays short)."""


async def add_papers(db: Database, papers: Sequence[Paper], *, source: str,
                     announce: bool) -> list[AddOutcome]:
    """`SqlitePaperStore.add_papers`: each paper by the identity rules (`add_by_identity`),
    in one transaction that records the added ones as unannounced with `announce`.

    Raises `CatalogLoadRunning` while a load is being built (its switch would lose them).
    A change is recorded as a load of `source`, so `catalog_version` moves.
    """
    async with db.transaction() as conn:
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
        if announce:
            await record_unannounced(conn, [o.paper.id for o in outcomes
                                            if o.status is AddStatus.ADDED])
    return outcomes


async def papers_by_ids(db: Database, public_ids: Sequence[str]) -> list[Paper]:
    """`SqlitePaperStore.get_many`: a read per 500 ids."""
    found: dict[str, Paper] = {}
    for start in range(0, len(public_ids), _IDS_PER_READ):
        chunk = public_ids[start:start + _IDS_PER_READ]
        rows = await db.fetchall(f"SELECT {PAPER_COLUMNS} FROM papers p WHERE p.public_id IN "
                                 f"({', '.join('?' * len(chunk))})", chunk)
        found.update((paper.id, paper) for paper in map(paper_from_row, rows))
    return [found[i] for i in public_ids if i in found]


class SqlitePaperStore:
    """Papers, their honours and the FTS5 index, kept in step; loads switch atomically."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._expansions = ExpansionCache()

    async def load(
        self,
        papers: Iterable[tuple[int, Paper]],
        *,
        source: LoadSource,
        prune: bool = False,
        announce: bool = False,
    ) -> LoadCounts:
        """`load_prepared`, the papers prepared in a worker thread."""
        return await self.load_prepared(prepared_batches(papers), source=source, prune=prune,
                                        announce=announce)

    async def load_prepared(
        self,
        batches: AsyncIterable[Sequence[PreparedPaper]],
        *,
        source: LoadSource,
        prune: bool = False,
        announce: bool = False,
    ) -> LoadCounts:
        """Build the next catalog in short transactions, then switch to it in one (which
        records the added papers as unannounced, with `announce`).

        Other writers get the lock between batches; readers see the old catalog until the
        switch; an exception (or a kill) leaves the old catalog intact. Raises
        `CatalogLoadRunning` while another load holds the slot.
        """
        return await staged_load(self._db, batches, source=source, prune=prune,
                                 announce=announce)

    async def add_papers(self, papers: Sequence[Paper], *, source: str = ADD_SOURCE,
                         announce: bool = False) -> list[AddOutcome]:
        """Add a few papers in one transaction, each by the identity rules (`add_papers`)."""
        return await add_papers(self._db, papers, source=source, announce=announce)

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        row = await self._db.fetchone(
            f"SELECT {PAPER_COLUMNS} FROM papers p WHERE p.public_id = ?", (public_id,)
        )
        return paper_from_row(row) if row else None

    async def get_many(self, public_ids: Sequence[str]) -> list[Paper]:
        """The papers of these public ids still in the catalog, in the ids' order."""
        return await papers_by_ids(self._db, public_ids)

    async def by_link(self, *, arxiv_id: str = "", doi: str = "") -> Paper | None:
        """The paper with this arXiv id (without version) or this DOI (any case), if any."""
        if arxiv_id:
            row = await self._db.fetchone(
                f"SELECT {PAPER_COLUMNS} FROM papers p WHERE p.arxiv_id = ?", (arxiv_id,))
        elif doi:
            row = await self._db.fetchone(
                f"SELECT {PAPER_COLUMNS} FROM papers p WHERE p.doi != '' "
                "AND lower(p.doi) = lower(?) LIMIT 1", (doi,))
        else:
            return None
        return paper_from_row(row) if row else None

    async def search(
        self, query: SearchQuery, *, any_word: bool = False, limit: int = 10, offset: int = 0,
        papers: int | None = None,
    ) -> list[SearchHit]:
        """Ranked by bm25 with column weights; filters narrow in SQL with bound parameters.

        Titles holding the words as one phrase come first, the exact title before them all:
        `attention is all you need` finds that paper above a title that merely contains it.
        Without filters only the first `papers` hits' rows are read in full (None: all).
        """
        where, params = filter_clauses(query.filters)
        if not query.words and not query.filters.author and not where:
            return []
        wanted = max(0, limit) + max(0, offset)
        read = None if papers is None else max(0, offset) + max(0, papers)
        known = None if where else paper_ranking.cached_expansions(self._expansions, query)
        if known is not None:  # checked against the version the ranked rows carry
            hits = await self._ranked(query, any_word, wanted, known[1], version=known[0],
                                      read=read)
            if hits is not None:
                return hits[max(0, offset) : wanted]
        expansions = await paper_ranking.expansions(self._db, self._expansions, query)
        match = match_expression(query, any_word=any_word, expansions=expansions)
        if match is not None and not where:
            hits = await self._ranked(query, any_word, wanted, expansions, read=read) or []
        else:
            phrase = phrase_expression(query)
            if phrase and match:
                phrase = f"({phrase}) AND ({match})"
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

    async def _ranked(self, query: SearchQuery, any_word: bool, limit: int,
                      expansions: dict[str, Expansion], *, version: int | None = None,
                      read: int | None = None) -> list[SearchHit] | None:
        """Without filters, in one statement (`paper_ranking.ranked_rows`), the papers of the
        first `read` hits read (None: all); None when `expansions`, of the catalog version
        `version`, are out of date."""
        rows = await paper_ranking.ranked_rows(self._db, query, any_word, limit, expansions,
                                               version, read)
        if rows is None:
            return None
        full = len(rows) if read is None else read
        return [(hit_from_row if n < full else unread_hit)(row, float(row[_SCORE]))
                for n, row in enumerate(rows)]

    async def workshop_names(self, prefix: str = "", limit: int = 10) -> list[str]:
        """Workshop names containing `prefix` (case-insensitive), most papers first."""
        rows = await self._db.fetchall(
            "SELECT workshop FROM papers WHERE workshop LIKE ? ESCAPE '\\' "
            "GROUP BY workshop ORDER BY count(*) DESC, workshop LIMIT ?",
            (f"%{escape_like(prefix)}%", limit))
        return [str(row[0]) for row in rows]

    async def venue_names(self, text: str = "", limit: int = 25) -> list[str]:
        """Conference and workshop names containing `text` (case-insensitive), most papers
        first: what a `venue:` filter can name."""
        pattern = f"%{escape_like(text)}%"
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
            "SELECT count(DISTINCT workshop) FROM papers WHERE workshop IS NOT NULL")
        workshops = int(row[0]) if row else 0
        last = await self._db.fetchone(
            "SELECT loaded_at, source, rejected FROM catalog_loads ORDER BY id DESC LIMIT 1")
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
        # already (TEXT, INTEGER) tuples: returned with no copy of 100,000s of rows on the loop
        rows: list[tuple[str, int]] = await self._db.fetchall(
            "SELECT term, doc FROM paper_vocab WHERE term >= 'a' AND term < '{' "
            "AND length(term) >= 4 "
            "AND term GLOB '[a-z]*' AND term NOT GLOB '*[0-9]*'"
        )
        return rows

    async def warm_up(self) -> None:
        """Compile the ranking statements on every reader (~15 ms each, once a connection)."""
        await self._db.prime(paper_ranking.PRIMING)

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
                (last, READ_BATCH))
            if not rows:
                return
            for row in rows:
                yield paper_from_row(row)
            last = int(rows[-1][_SCORE])
