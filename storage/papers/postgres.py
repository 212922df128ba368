"""The PostgreSQL catalog: `PaperStore` (`storage.papers.catalog`) over its `tsvector` index,
kept in the papers' own rows and searched here.

A load runs in one transaction (readers see the old catalog until it commits, MVCC) under a
transaction-scoped advisory lock, so one load at a time: another gets `CatalogLoadRunning`
(`storage.papers.postgres_loading`).
Search mirrors `SqliteIndex.search` step by step (see `storage.papers.postgres_search`).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Sequence

from domain.catalog import LoadCounts, LoadSource, SearchHit
from domain.paper import Paper
from domain.prefixes import Expansion
from domain.query import SearchQuery
from storage.db import Row, Tx
from storage.dialect import POSTGRES
from storage.papers.catalog import PaperStore, filter_clauses
from storage.papers.fts import RANK_WINDOW, index_row
from storage.papers.postgres_bm25 import MAX_CACHED_COUNTS, Params, _CorpusStats
from storage.papers.postgres_loading import load_prepared, take_load_slot
from storage.papers.postgres_search import match_query
from storage.papers.postgres_tiers import SearchPlan
from storage.papers.postgres_vectors import tsvector_literal
from storage.papers.prefixes import ExpansionCache, cached_expansions, looked_up
from storage.papers.prepared import PreparedPaper
from storage.papers.rows import PAPER_COLUMN_COUNT, hit_from_row
from storage.postgres.database import PgDatabase

_ATTEMPTS = 3
"""Searches ranked outside a transaction before one runs in a snapshot of its own."""


class PgIndex:
    """`SearchIndex` on `tsvector`s: each paper's in its own row (`search`), with its token
    counts for bm25 (`storage.papers.postgres_bm25`)."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db
        self._stats: _CorpusStats | None = None
        self._expansions = ExpansionCache()

    async def load_prepared(self, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                            source: LoadSource, prune: bool, announce: bool) -> LoadCounts:
        """Upsert every paper in one transaction (`storage.papers.postgres_loading`)."""
        return await load_prepared(self._db, batches, source=source, prune=prune,
                                   announce=announce)

    async def hold_load_slot(self, tx: Tx) -> None:
        """The load slot until the transaction ends (`take_load_slot`)."""
        await take_load_slot(tx)

    def row_columns(self, paper: Paper) -> dict[str, object]:
        """The paper's `tsvector` (as its literal) and its token counts."""
        return dict(zip(("search", "search_tokens", "head_tokens"),
                        tsvector_literal(index_row(paper)), strict=True))

    async def unindex(self, tx: Tx, rowid: int) -> None:
        """Nothing: the row's own columns are rewritten."""

    async def index(self, tx: Tx, rowid: int, paper: Paper) -> None:
        """Nothing: written with the row (`row_columns`), the rest by triggers."""

    async def search(self, query: SearchQuery, *, any_word: bool = False, limit: int = 10,
                     offset: int = 0, papers: int | None = None) -> list[SearchHit]:
        """Ranked as SQLite ranks, by FTS5's bm25 (`storage.papers.postgres_bm25`): the exact title,
        then title phrases, then headline hits (titles, authors), then the rest; filters narrow
        in SQL with bound parameters. One statement (`storage.papers.postgres_tiers`), ranked
        with the bm25 figures of the catalog version it reads in its own snapshot; figures not
        known yet for that version are read first, in one snapshot of their own. Every hit's
        paper is read (`papers` is a hint this store does not need)."""
        has_match, match = match_query(query, any_word=any_word)
        where, _ = filter_clauses(query.filters, POSTGRES)
        if (has_match and match.term is None) or (not has_match and not where):
            return []
        wanted = max(0, limit) + max(0, offset)
        if not wanted:
            return []
        for attempt in range(_ATTEMPTS):
            if attempt == _ATTEMPTS - 1:  # loads keep landing in between: all in one snapshot
                async with self._db.transaction("repeatable_read") as tx:
                    corpus, plan = await self._planned(tx, query, any_word, bool(where))
                    rows = await self._ranked(tx, corpus, plan, wanted)
                break
            known = self._known(query, any_word, bool(where))
            if known is None:
                async with self._db.transaction("repeatable_read") as tx:
                    known = await self._planned(tx, query, any_word, bool(where))
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
        corpus, known = self._stats, cached_expansions(self._expansions, query)
        if corpus is None or known is None or known[0] not in (None, corpus.version):
            return None
        plan = _plan(query, any_word, filtered, known[1])
        if any(term not in corpus.hits for term in plan.counted()):
            return None
        return corpus, plan

    async def _planned(self, tx: Tx, query: SearchQuery, any_word: bool,
                       filtered: bool) -> tuple[_CorpusStats, SearchPlan]:
        """The figures of the version `tx` sees, with what this query needs."""
        corpus = await self._corpus(tx)
        expansions = await looked_up(tx, "SELECT term, docs FROM paper_terms WHERE term >= $1 "
                                     "AND term < $2", self._expansions, corpus.version, query,
                                     RANK_WINDOW)
        plan = _plan(query, any_word, filtered, expansions)
        await _count_terms(tx, corpus, plan.counted())
        return corpus, plan

    async def _ranked(self, tx: Tx | None, corpus: _CorpusStats,
                      plan: SearchPlan, wanted: int) -> list[Row]:
        params = Params()
        where = "".join(f" AND {c}" for c in _where(plan.query, params))
        sql = plan.statement(corpus, where, params, wanted, RANK_WINDOW)
        if tx is None:
            return await self._db.fetch_planned_once(sql, *params.values)
        return await tx.fetch(sql, *params.values)

    async def _corpus(self, tx: Tx) -> _CorpusStats:
        """The table's rows and tokens for bm25, kept until the catalog version moves (every
        load and add records one)."""
        version = int(await tx.fetch_value("SELECT coalesce(max(id), 0) FROM catalog_loads"))
        stats = self._stats
        if stats is None or stats.version != version:
            rows, tokens, head = (await tx.fetch(
                "SELECT count(*), coalesce(sum(search_tokens), 0), coalesce(sum(head_tokens), 0) "
                "FROM papers"))[0]
            stats = self._stats = _CorpusStats(version, int(rows), int(tokens), int(head))
        return stats

    async def vocabulary(self) -> list[tuple[str, int]]:
        """Indexed Latin words of 4+ letters with their document counts (as `fts5vocab`)."""
        return [(str(word), int(ndoc)) for word, ndoc in await self._db.fetch(
            "SELECT word, ndoc FROM ts_stat('SELECT search FROM papers') "
            "WHERE length(word) >= 4 AND word ~ '^[a-z]' AND word !~ '[0-9]'")]

    async def warm_up(self) -> None:
        """Nothing to do: the search's SQL takes a form per shape of its query (prefix
        completions are written into it), so no fixed set of statements could be prepared."""


class PgPaperStore(PaperStore):
    """The catalog on a PostgreSQL server, searched with `tsvector`s."""

    _db: PgDatabase

    def __init__(self, db: PgDatabase) -> None:
        super().__init__(db, PgIndex(db))


def _plan(query: SearchQuery, any_word: bool, filtered: bool,
          expansions: dict[str, Expansion]) -> SearchPlan:
    _, match = match_query(query, any_word=any_word, expansions=expansions)
    return SearchPlan(query, match, expansions, any_word=any_word, filtered=filtered)


def _where(query: SearchQuery, params: Params) -> list[str]:
    where, values = filter_clauses(query.filters, POSTGRES, len(params.values) + 1)
    params.values.extend(values)
    return where


async def _count_terms(tx: Tx, corpus: _CorpusStats,
                       terms: list[str]) -> None:
    """The papers matching each `tsquery` not counted yet, kept for the catalog version."""
    hits = corpus.hits
    missing = list(dict.fromkeys(term for term in terms if term not in hits))
    if missing:
        if len(hits) + len(missing) > MAX_CACHED_COUNTS:
            hits.clear()
            missing = list(dict.fromkeys(terms))
        counts = (await tx.fetch("SELECT " + ", ".join(
            f"(SELECT count(*) FROM papers WHERE search @@ ${i}::tsquery)"
            for i in range(1, len(missing) + 1)), *missing))[0]
        hits.update(zip(missing, (int(c) for c in counts), strict=True))
