"""PostgreSQL implementation of `PaperStore`: the catalog and its `tsvector` search.

A load runs in one transaction (readers see the old catalog until it commits, MVCC) under a
transaction-scoped advisory lock, so one load at a time: another gets `CatalogLoadRunning`
(`storage.papers.postgres_loading`).
Search mirrors `SqlitePaperStore.search` step by step (see `storage.papers.postgres_search`).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from datetime import datetime
from typing import Any

import asyncpg

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
from domain.prefixes import RARE_ROWS, Expansion, by_word, choose, expandable, upper_bound
from domain.query import Filters, SearchQuery
from storage.notifications.announce_postgres import record_unannounced_pg
from storage.papers.fts import RANK_WINDOW
from storage.papers.identity import add_by_identity, added_tally
from storage.papers.postgres_bm25 import MAX_CACHED_COUNTS, Params, _CorpusStats
from storage.papers.postgres_loading import PgRows, load_prepared, take_load_slot
from storage.papers.postgres_search import match_query
from storage.papers.postgres_tiers import SearchPlan
from storage.papers.prepared import (
    PreparedPaper,
    prepared_batches,
)
from storage.papers.rows import (
    PAPER_COLUMN_COUNT,
    PAPER_COLUMNS,
    READ_BATCH,
    hit_from_row,
    paper_from_row,
)
from storage.postgres.database import PgDatabase
from storage.times import utc_timestamp

_PAPER_COLUMNS = PAPER_COLUMNS
_ATTEMPTS = 3
"""Searches ranked outside a transaction before one runs in a snapshot of its own."""
_ASCII_LOWER = "translate({}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"


def _ascii_lower(text: str) -> str:
    """SQLite's NOCASE and LIKE fold only A-Z; so does the SQL here."""
    return text.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                        "abcdefghijklmnopqrstuvwxyz"))


def filter_clauses(filters: Filters, start: int) -> tuple[list[str], list[Any]]:
    """SQL conditions on `papers p` for a query's filters, numbered from `$start`, with their
    parameters; the same meaning as SQLite's (`storage.papers.sqlite_ranking.filter_clauses`)."""
    where: list[str] = []
    params: list[Any] = []

    def param(value: Any) -> str:
        params.append(value)
        return f"${start + len(params) - 1}"

    if filters.track:
        where.append(f"p.track = {param(filters.track.value)}")
    if filters.venue:
        folded = param(_ascii_lower(filters.venue))
        where.append(f"({_ASCII_LOWER.format('p.conference')} = {folded} OR "
                     f"strpos({_ASCII_LOWER.format('p.workshop')}, {folded}) > 0)")
    if filters.year is not None:
        where.append(f"p.year = {param(filters.year)}")
    if filters.honour:
        where.append("EXISTS (SELECT 1 FROM paper_honours h WHERE h.paper_id = p.id "
                     f"AND h.honour = {param(filters.honour)})")
    return where, params


class PgPaperStore:
    """Papers, their honours and the `tsvector` index, kept in step in one table."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db
        self._stats: _CorpusStats | None = None

    async def load(self, papers: Iterable[tuple[int, Paper]], *, source: LoadSource,
                   prune: bool = False, announce: bool = False) -> LoadCounts:
        """`load_prepared`, the papers prepared in a worker thread."""
        return await self.load_prepared(prepared_batches(papers), source=source, prune=prune,
                                        announce=announce)

    async def load_prepared(self, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                            source: LoadSource, prune: bool = False,
                            announce: bool = False) -> LoadCounts:
        """Upsert every paper in one transaction; `prune` removes the source's others
        (`storage.papers.postgres_loading`); `announce` records the added ones unannounced."""
        return await load_prepared(self._db, batches, source=source, prune=prune,
                                   announce=announce)

    async def add_papers(self, papers: Sequence[Paper], *,
                         source: str = ADD_SOURCE, announce: bool = False
                         ) -> list[AddOutcome]:
        """Add a few papers in one transaction, each by the identity rules; refused with
        `CatalogLoadRunning` while a load holds the slot. A change is recorded as a load."""
        async with self._db.transaction() as conn:
            await take_load_slot(conn)
            now = utc_timestamp()
            rows = PgRows(conn, source, now)
            outcomes = [await add_by_identity(rows, paper) for paper in papers]
            tally = added_tally(outcomes)
            if tally is not None:
                await conn.execute(
                    "INSERT INTO catalog_loads (source, listing_query, loaded_at, added, "
                    "updated, unchanged, removed, rejected) VALUES ($1, NULL, $2, $3, $4, $5, "
                    "0, $6)", source, now, *tally)
            if announce:
                await record_unannounced_pg(conn, [o.paper.id for o in outcomes
                                                   if o.status is AddStatus.ADDED])
        return outcomes

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        row = await self._db.fetchrow(
            f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.public_id = $1", public_id)
        return paper_from_row(row) if row else None

    async def get_many(self, public_ids: Sequence[str]) -> list[Paper]:
        """The papers of these public ids still in the catalog, in the ids' order."""
        rows = await self._db.fetch(
            f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.public_id = ANY($1::text[])",
            list(public_ids))
        found = {paper.id: paper for paper in map(paper_from_row, rows)}
        return [found[i] for i in public_ids if i in found]

    async def by_link(self, *, arxiv_id: str = "", doi: str = "") -> Paper | None:
        """The paper with this arXiv id (without version) or this DOI (any case), if any."""
        if arxiv_id:
            row = await self._db.fetchrow(
                f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.arxiv_id = $1", arxiv_id)
        elif doi:
            row = await self._db.fetchrow(
                f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.doi != '' "
                "AND lower(p.doi) = lower($1) LIMIT 1", doi)
        else:
            return None
        return paper_from_row(row) if row else None

    async def search(self, query: SearchQuery, *, any_word: bool = False, limit: int = 10,
                     offset: int = 0, papers: int | None = None) -> list[SearchHit]:
        """Ranked as SQLite ranks, by FTS5's bm25 (`storage.papers.postgres_bm25`): the exact title,
        then title phrases, then headline hits (titles, authors), then the rest; filters narrow
        in SQL with bound parameters. One statement (`storage.papers.postgres_tiers`), ranked
        with the bm25 figures of the catalog version it reads in its own snapshot; figures not
        known yet for that version are read first, in one snapshot of their own. Every hit's
        paper is read (`papers` is a hint this store does not need)."""
        has_match, match = match_query(query, any_word=any_word)
        where, _ = filter_clauses(query.filters, 1)
        if (has_match and match.term is None) or (not has_match and not where):
            return []
        wanted = max(0, limit) + max(0, offset)
        if not wanted:
            return []
        for attempt in range(_ATTEMPTS):
            if attempt == _ATTEMPTS - 1:  # loads keep landing in between: all in one snapshot
                async with self._db.transaction("repeatable_read") as conn:
                    corpus, plan = await self._planned(conn, query, any_word, bool(where))
                    rows = await self._ranked(conn, corpus, plan, wanted)
                break
            known = self._known(query, any_word, bool(where))
            if known is None:
                async with self._db.transaction("repeatable_read") as conn:
                    known = await self._planned(conn, query, any_word, bool(where))
            rows = await self._ranked(None, *known, wanted)
            if rows[0][-1] == known[0].version:
                break
            self._stats = None  # ranked with another version's figures: read them again
        return [hit_from_row(row, float(row[PAPER_COLUMN_COUNT])) for row in rows
                if row[PAPER_COLUMN_COUNT + 1] is not None][max(0, offset):wanted]

    def _known(self, query: SearchQuery, any_word: bool,
               filtered: bool) -> tuple[_CorpusStats, SearchPlan] | None:
        """The query's plan from the figures kept for the last version seen, or None when some
        are missing (the first search after a load, a new prefix or phrase)."""
        corpus = self._stats
        prefixes = [p for p in map(expandable, query.words) if p is not None]
        if corpus is None or any(p not in corpus.expansions for p in prefixes):
            return None
        plan = _plan(query, any_word, filtered, by_word(query.words, corpus.expansions))
        if any(term not in corpus.hits for term in plan.counted()):
            return None
        return corpus, plan

    async def _planned(self, conn: asyncpg.Connection, query: SearchQuery, any_word: bool,
                       filtered: bool) -> tuple[_CorpusStats, SearchPlan]:
        """The figures of the version `conn` sees, with what this query needs."""
        corpus = await self._corpus(conn)
        expansions = await _expansions(conn, corpus, query)
        plan = _plan(query, any_word, filtered, expansions)
        await _count_terms(conn, corpus, plan.counted())
        return corpus, plan

    async def _ranked(self, conn: asyncpg.Connection | None, corpus: _CorpusStats,
                      plan: SearchPlan, wanted: int) -> list[asyncpg.Record]:
        params = Params()
        where = "".join(f" AND {c}" for c in _where(plan.query, params))
        sql = plan.statement(corpus, where, params, wanted, RANK_WINDOW)
        if conn is None:
            return await self._db.fetch_planned_once(sql, *params.values)
        return list(await conn.fetch(sql, *params.values))

    async def _corpus(self, conn: asyncpg.Connection) -> _CorpusStats:
        """The table's rows and tokens for bm25, kept until the catalog version moves (every
        load and add records one)."""
        version = int(await conn.fetchval("SELECT coalesce(max(id), 0) FROM catalog_loads"))
        stats = self._stats
        if stats is None or stats.version != version:
            rows, tokens, head = await conn.fetchrow(
                "SELECT count(*), coalesce(sum(search_tokens), 0), coalesce(sum(head_tokens), 0) "
                "FROM papers")
            stats = self._stats = _CorpusStats(version, int(rows), int(tokens), int(head))
        return stats

    async def workshop_names(self, prefix: str = "", limit: int = 10) -> list[str]:
        """Workshop names containing `prefix` (A-Z case-insensitive), most papers first."""
        rows = await self._db.fetch(
            f"SELECT workshop FROM papers WHERE strpos({_ASCII_LOWER.format('workshop')}, $1) > 0 "
            "GROUP BY workshop ORDER BY count(*) DESC, workshop COLLATE \"C\" LIMIT $2",
            _ascii_lower(prefix), limit)
        return [str(row[0]) for row in rows]

    async def venue_names(self, text: str = "", limit: int = 25) -> list[str]:
        """Conference and workshop names containing `text`, most papers first."""
        rows = await self._db.fetch(
            "SELECT name FROM (SELECT conference AS name, count(*) AS n FROM papers "
            f"WHERE strpos({_ASCII_LOWER.format('conference')}, $1) > 0 GROUP BY conference "
            "UNION ALL SELECT workshop, count(*) FROM papers "
            f"WHERE strpos({_ASCII_LOWER.format('workshop')}, $1) > 0 GROUP BY workshop) v "
            "ORDER BY n DESC, name COLLATE \"C\" LIMIT $2", _ascii_lower(text), limit)
        return [str(row[0]) for row in rows]

    async def paper_ids(self, track: str | None = None) -> list[str]:
        """Public ids of every paper, or of those on one track."""
        if track:
            rows = await self._db.fetch("SELECT public_id FROM papers WHERE track = $1", track)
        else:
            rows = await self._db.fetch("SELECT public_id FROM papers")
        return [str(row[0]) for row in rows]

    async def random(self) -> Paper | None:
        """A uniformly random paper (ids are dense)."""
        row = await self._db.fetchrow(
            f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.id >= "
            "(SELECT floor(random() * (max(id) + 1)) FROM papers) ORDER BY p.id LIMIT 1")
        if row is None:
            row = await self._db.fetchrow(
                f"SELECT {_PAPER_COLUMNS} FROM papers p ORDER BY p.id LIMIT 1")
        return paper_from_row(row) if row else None

    async def count(self) -> int:
        """Number of papers."""
        return int(await self._db.fetchval("SELECT count(*) FROM papers") or 0)

    async def stats(self) -> CatalogStats:
        """Totals per conference, year and track, and the last load."""
        venues = tuple(VenueCount(c, y, t, n) for c, y, t, n in await self._db.fetch(
            "SELECT conference, year, track, count(*) FROM papers GROUP BY conference, year, "
            "track ORDER BY count(*) DESC, conference COLLATE \"C\" NULLS FIRST, "
            "year NULLS FIRST, track COLLATE \"C\""))
        workshops = int(await self._db.fetchval(
            "SELECT count(DISTINCT workshop) FROM papers WHERE workshop IS NOT NULL") or 0)
        last = await self._db.fetchrow(
            "SELECT loaded_at, source, rejected FROM catalog_loads ORDER BY id DESC LIMIT 1")
        return CatalogStats(
            papers=sum(v.papers for v in venues), venues=venues, workshops=workshops,
            last_load_at=datetime.fromisoformat(last[0]) if last else None,
            last_load_source=last[1] if last else None,
            last_load_rejected=int(last[2]) if last else 0)

    async def vocabulary(self) -> list[tuple[str, int]]:
        """Indexed Latin words of 4+ letters with their document counts (as `fts5vocab`)."""
        return [(str(word), int(ndoc)) for word, ndoc in await self._db.fetch(
            "SELECT word, ndoc FROM ts_stat('SELECT search FROM papers') "
            "WHERE length(word) >= 4 AND word ~ '^[a-z]' AND word !~ '[0-9]'")]

    async def warm_up(self) -> None:
        """Nothing to do: the search's SQL takes a form per shape of its query (prefix
        completions are written into it), so no fixed set of statements could be prepared."""

    async def catalog_version(self) -> int:
        """The id of the last load; changes with every load."""
        return int(await self._db.fetchval("SELECT max(id) FROM catalog_loads") or 0)

    async def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper in insertion order, read in pages."""
        last = 0
        while True:
            rows = await self._db.fetch(
                f"SELECT {_PAPER_COLUMNS}, p.id FROM papers p WHERE p.id > $1 "
                "ORDER BY p.id LIMIT $2", last, READ_BATCH)
            if not rows:
                return
            for row in rows:
                yield paper_from_row(row)
            last = int(rows[-1][PAPER_COLUMN_COUNT])


async def _expansions(conn: asyncpg.Connection, corpus: _CorpusStats,
                      query: SearchQuery) -> dict[str, Expansion]:
    """The completions of the query's prefix words (`domain.prefixes`) from `paper_terms`,
    kept with the corpus figures until the catalog version moves."""
    found = corpus.expansions
    for prefix in dict.fromkeys(p for p in map(expandable, query.words) if p is not None):
        if prefix not in found:
            if len(found) >= MAX_CACHED_COUNTS:
                found.clear()
            rows = await conn.fetch("SELECT term, docs FROM paper_terms WHERE term >= $1 "
                                    "AND term < $2", prefix, upper_bound(prefix))
            found[prefix] = choose(prefix, [(r[0], r[1]) for r in rows], RANK_WINDOW, RARE_ROWS)
    return by_word(query.words, found)


def _plan(query: SearchQuery, any_word: bool, filtered: bool,
          expansions: dict[str, Expansion]) -> SearchPlan:
    _, match = match_query(query, any_word=any_word, expansions=expansions)
    return SearchPlan(query, match, expansions, any_word=any_word, filtered=filtered)


def _where(query: SearchQuery, params: Params) -> list[str]:
    where, values = filter_clauses(query.filters, len(params.values) + 1)
    params.values.extend(values)
    return where


async def _count_terms(conn: asyncpg.Connection, corpus: _CorpusStats,
                       terms: list[str]) -> None:
    """The papers matching each `tsquery` not counted yet, kept for the catalog version."""
    hits = corpus.hits
    missing = list(dict.fromkeys(term for term in terms if term not in hits))
    if missing:
        if len(hits) + len(missing) > MAX_CACHED_COUNTS:
            hits.clear()
            missing = list(dict.fromkeys(terms))
        counts = await conn.fetchrow("SELECT " + ", ".join(
            f"(SELECT count(*) FROM papers WHERE search @@ ${i}::tsquery)"
            for i in range(1, len(missing) + 1)), *missing)
        hits.update(zip(missing, (int(c) for c in counts), strict=True))
