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
    CatalogStats,
    LoadCounts,
    LoadSource,
    SearchHit,
    VenueCount,
)
from domain.paper import Paper
from domain.prefixes import RARE_ROWS, Expansion, by_word, choose, expandable, upper_bound
from domain.query import Filters, SearchQuery
from domain.text import title_key
from storage.papers.fts import RANK_WINDOW
from storage.papers.identity import add_by_identity, added_tally
from storage.papers.postgres_bm25 import MAX_CACHED_COUNTS, Params, _CorpusStats, idf, scored
from storage.papers.postgres_loading import PgRows, load_prepared, take_load_slot
from storage.papers.postgres_search import (
    HEADLINE,
    _Match,
    _Phrase,
    match_query,
    phrase_query,
    rare_query,
)
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
from storage.postgres.migrations import HEAD_WEIGHTS
from storage.times import utc_timestamp

_PAPER_COLUMNS = PAPER_COLUMNS
_CANDIDATE = "p.id, p.search, p.search_tokens, p.title_key"
_HEAD_CANDIDATE = "SELECT h.id, h.head AS search, h.search_tokens"
assert "{" + ",".join(HEADLINE.lower()) + "}" == HEAD_WEIGHTS, \
    "paper_heads must hold exactly the headline weight letters"
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


def _hits(rows: list[asyncpg.Record]) -> list[SearchHit]:
    return [hit_from_row(row, float(row[PAPER_COLUMN_COUNT])) for row in rows]


class PgPaperStore:
    """Papers, their honours and the `tsvector` index, kept in step in one table."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db
        self._stats: _CorpusStats | None = None

    async def load(self, papers: Iterable[tuple[int, Paper]], *, source: LoadSource,
                   prune: bool = False) -> LoadCounts:
        """`load_prepared`, the papers prepared in a worker thread."""
        return await self.load_prepared(prepared_batches(papers), source=source, prune=prune)

    async def load_prepared(self, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                            source: LoadSource, prune: bool = False) -> LoadCounts:
        """Upsert every paper in one transaction; `prune` removes the source's others
        (`storage.papers.postgres_loading`)."""
        return await load_prepared(self._db, batches, source=source, prune=prune)

    async def add_papers(self, papers: Sequence[Paper], *,
                         source: str = ADD_SOURCE) -> list[AddOutcome]:
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
        return outcomes

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        row = await self._db.fetchrow(
            f"SELECT {_PAPER_COLUMNS} FROM papers p WHERE p.public_id = $1", public_id)
        return paper_from_row(row) if row else None

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
                     offset: int = 0) -> list[SearchHit]:
        """Ranked as SQLite ranks, by FTS5's bm25 (`storage.papers.postgres_bm25`): the exact title,
        then title phrases, then headline hits (titles, authors), then the rest; filters narrow
        in SQL with bound parameters. One snapshot, so the corpus figures fit the rows."""
        has_match, match = match_query(query, any_word=any_word)
        where, _ = filter_clauses(query.filters, 1)
        if (has_match and match.term is None) or (not has_match and not where):
            return []
        wanted = max(0, limit) + max(0, offset)
        phrase = phrase_query(query)
        async with self._db.transaction("repeatable_read") as conn:
            corpus = await self._corpus(conn)
            expansions = await _expansions(conn, corpus, query)
            if expansions:
                _, match = match_query(query, any_word=any_word, expansions=expansions)
            search = _Search(conn, corpus, query, expansions)
            hits: list[SearchHit] = []
            if phrase.term and match.term:
                hits = await search.phrase_hits(_all_of(phrase, match), wanted)
            if len(hits) < wanted:
                rest = await search.matches(any_word, match, wanted + len(hits))
                seen = {hit.id for hit in hits}
                hits += [hit for hit in rest if hit.id not in seen]
        return hits[max(0, offset):wanted]

    async def _corpus(self, conn: asyncpg.Connection) -> _CorpusStats:
        """The table's rows and tokens for bm25, kept until the catalog version moves (every
        load and add records one)."""
        version = int(await conn.fetchval("SELECT coalesce(max(id), 0) FROM catalog_loads"))
        if self._stats is None or self._stats.version != version:
            rows, tokens = await conn.fetchrow(
                "SELECT count(*), coalesce(sum(search_tokens), 0) FROM papers")
            self._stats = _CorpusStats(version, int(rows), int(tokens))
        return self._stats

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


def _all_of(*matches: _Match) -> _Match:
    return _Match("(" + " & ".join(str(m.term) for m in matches) + ")",
                 tuple(p for m in matches for p in m.phrases))


class _Search:
    """One search's statements, on one connection in one snapshot."""

    def __init__(self, conn: asyncpg.Connection, corpus: _CorpusStats,
                 query: SearchQuery, expansions: dict[str, Expansion]) -> None:
        self._conn, self._corpus, self._query = conn, corpus, query
        self._expansions = expansions

    async def _idfs(self, phrases: tuple[_Phrase, ...]) -> list[float]:
        """Each phrase's IDF; the rows holding it are counted once per catalog version."""
        hits = self._corpus.hits
        missing = list(dict.fromkeys(p.term() for p in phrases if p.term() not in hits))
        if missing:
            if len(hits) + len(missing) > MAX_CACHED_COUNTS:
                hits.clear()
            counts = await self._conn.fetchrow("SELECT " + ", ".join(
                f"(SELECT count(*) FROM papers WHERE search @@ ${i}::tsquery)"
                for i in range(1, len(missing) + 1)), *missing)
            hits.update(zip(missing, (int(c) for c in counts), strict=True))
        return [idf(self._corpus.rows, hits[p.term()]) for p in phrases]

    async def _ranked(self, match: _Match, candidates: str, params: Params, order: str,
                      limit: int) -> list[SearchHit]:
        """The first `limit` of `candidates` (SQL on `papers p` giving `id, search,
        search_tokens, title_key`) by `order` over the bm25 `score`."""
        idfs = await self._idfs(match.phrases)
        ranked = scored(candidates, match.phrases, idfs, self._corpus.avgdl, params)
        top = params.add(max(0, limit))
        rows = await self._conn.fetch(
            f"WITH s AS (SELECT * FROM ({ranked}) c ORDER BY {order} LIMIT {top}) "
            f"SELECT {_PAPER_COLUMNS}, s.score FROM s JOIN papers p ON p.id = s.id "
            f"ORDER BY {order.replace('c.', 's.')}", *params.values)
        return _hits(rows)

    def _where(self, params: Params) -> str:
        where, values = filter_clauses(self._query.filters, len(params.values) + 1)
        params.values.extend(values)
        return "".join(f" AND {c}" for c in where)

    async def phrase_hits(self, match: _Match, limit: int) -> list[SearchHit]:
        """Papers with the words as a phrase in a title, the exact English title first."""
        params = Params()
        term = params.add(match.term, "tsquery")
        candidates = (f"SELECT {_CANDIDATE} FROM papers p WHERE p.search @@ {term}"
                      + self._where(params))
        exact = params.add(title_key(" ".join(self._query.phrase)))
        return await self._ranked(match, candidates, params,
                                  f"c.title_key = {exact} DESC, c.score, c.id", limit)

    async def matches(self, any_word: bool, match: _Match, limit: int) -> list[SearchHit]:
        """The first `limit` matches by bm25 (or, with filters only, newest first)."""
        params = Params()
        where = self._where(params)
        if match.term is not None and not where:
            return await self._headline_first(any_word, limit)
        if match.term is not None:
            term = params.add(match.term, "tsquery")
            candidates = f"SELECT {_CANDIDATE} FROM papers p WHERE p.search @@ {term}" + where
            return await self._ranked(match, candidates, params, "c.score, c.id", limit)
        sql = (f"SELECT {_PAPER_COLUMNS}, 0.0 AS score FROM papers p WHERE TRUE" + where
               + " ORDER BY p.year DESC NULLS LAST, p.title_key COLLATE \"C\" LIMIT "
               + params.add(max(0, limit)))
        return _hits(await self._conn.fetch(sql, *params.values))

    async def _top(self, match: _Match, limit: int, *, headline: bool = False,
                   rare: _Match | None = None) -> list[SearchHit]:
        """Rank among the `RANK_WINDOW` newest matches, as SQLite does. A headline match
        (titles, authors) reads the narrow `paper_heads` index instead of whole papers: its
        phrases count only headline instances, which are all in `head`, so the scores are the
        same, for a quarter of the lexemes and no wide rows to walk past."""
        params = Params()
        source = (_HEAD_CANDIDATE + " FROM paper_heads h WHERE h.head" if headline
                  else f"SELECT {_CANDIDATE} FROM papers p WHERE p.search")
        candidates = (f"{source} @@ {params.add(match.term, 'tsquery')} "
                      f"ORDER BY 1 DESC LIMIT {params.add(RANK_WINDOW)}")
        if rare is not None and rare.term is not None:  # as SQLite's `_window`
            candidates = (f"WITH newest AS MATERIALIZED ({candidates}) SELECT * FROM newest "
                          f"UNION ALL {source} @@ {params.add(rare.term, 'tsquery')} "
                          f"AND {'h' if headline else 'p'}.id NOT IN (SELECT id FROM newest)")
        return await self._ranked(match, candidates, params, "c.score, c.id", limit)

    async def _headline_first(self, any_word: bool, limit: int) -> list[SearchHit]:
        """Headline hits (titles, authors) first, then the rest."""
        query, expansions = self._query, self._expansions
        _, headline = match_query(query, any_word=any_word, weights=HEADLINE,
                                  expansions=expansions)
        rare_head = rare_query(query, expansions, any_word=any_word, weights=HEADLINE)
        rare = rare_query(query, expansions, any_word=any_word)
        if rare_head is None or rare is None:
            rare_head = rare = None
        hits = (await self._top(headline, limit, headline=True, rare=rare_head)
                if headline.term else [])
        if len(hits) < limit:
            _, everywhere = match_query(query, any_word=any_word, expansions=expansions)
            seen = {hit.id for hit in hits}
            more = await self._top(everywhere, limit + len(hits), rare=rare)
            hits += [hit for hit in more if hit.id not in seen][: limit - len(hits)]
        return hits[:limit]
