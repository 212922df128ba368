"""The SQLite catalog: `PaperStore` (`storage.papers.catalog`) over its FTS5 index, searched
here with the ranking SQL of `storage.papers.sqlite_ranking`, built by the staged load of
`storage.papers.sqlite_loading`."""

from __future__ import annotations

from collections.abc import AsyncIterable, Sequence
from typing import cast

from domain.catalog import LoadCounts, LoadSource, SearchHit
from domain.paper import Paper
from domain.prefixes import Expansion
from domain.query import SearchQuery
from domain.text import title_key
from storage.db import Tx
from storage.dialect import SQLITE
from storage.papers import sqlite_ranking as paper_ranking
from storage.papers import sqlite_swap as catalog_swap
from storage.papers.catalog import PaperStore, filter_clauses
from storage.papers.fts import BM25, index_row, match_expression, phrase_expression
from storage.papers.prefixes import ExpansionCache, cached_expansions
from storage.papers.prepared import PreparedPaper
from storage.papers.rows import PAPER_COLUMN_COUNT, PAPER_COLUMNS, hit_from_row, unread_hit
from storage.papers.sqlite_index import unindex, write_index
from storage.papers.sqlite_loading import staged_load
from storage.sqlite.database import Database

_SCORE = PAPER_COLUMN_COUNT
"""Where a query's score column follows the paper's columns."""


class SqliteIndex:
    """`SearchIndex` on FTS5: `paper_fts` and its headline index, kept apart from `papers`
    (contentless, `storage.papers.sqlite_index`); a load builds the next catalog in shadow
    tables and switches to it in one transaction (`storage.papers.sqlite_swap`)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._expansions = ExpansionCache()

    async def load_prepared(self, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                            source: LoadSource, prune: bool, announce: bool) -> LoadCounts:
        """Build the next catalog in short transactions (other writers get the lock between
        them), then switch to it in one; an exception (or a kill) leaves the old one."""
        return await staged_load(self._db, batches, source=source, prune=prune,
                                 announce=announce)

    async def hold_load_slot(self, tx: Tx) -> None:
        """`CatalogLoadRunning` while a load is being built (its switch would lose an add)."""
        await catalog_swap.ensure_free(tx)

    def row_columns(self, paper: Paper) -> dict[str, object]:
        """None: the index is tables of its own."""
        return {}

    async def unindex(self, tx: Tx, rowid: int) -> None:
        """Out of the contentless index, with the text the stored row was indexed with."""
        await unindex(tx, [rowid])

    async def index(self, tx: Tx, rowid: int, paper: Paper) -> None:
        """Into both full-text indexes."""
        await write_index(tx, [(rowid, *index_row(paper))])

    async def search(
        self, query: SearchQuery, *, any_word: bool = False, limit: int = 10, offset: int = 0,
        papers: int | None = None,
    ) -> list[SearchHit]:
        """Ranked by bm25 with column weights; filters narrow in SQL with bound parameters.

        Titles holding the words as one phrase come first, the exact title before them all:
        `attention is all you need` finds that paper above a title that merely contains it.
        Without filters only the first `papers` hits' rows are read in full (None: all).
        """
        where, params = filter_clauses(query.filters, SQLITE, start=2)
        if not query.words and not query.filters.author and not where:
            return []
        wanted = max(0, limit) + max(0, offset)
        read = None if papers is None else max(0, offset) + max(0, papers)
        known = None if where else cached_expansions(self._expansions, query)
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
                rest = await self._filtered(match, where, params, wanted + len(hits))
                seen = {hit.id for hit in hits}
                hits += [hit for hit in rest if hit.id not in seen]
        return hits[max(0, offset) : wanted]

    async def _phrase_hits(self, query: SearchQuery, phrase: str, where: list[str],
                           params: list[object], limit: int) -> list[SearchHit]:
        """Papers with the words as a phrase in a title, the exact English title first."""
        exact = title_key(" ".join(query.phrase))
        return await self._filtered(phrase, where, params, limit,
                                    f"p.title_key = ${len(params) + 2} DESC, ", exact)

    async def _filtered(self, match: str | None, where: list[str], params: list[object],
                        limit: int, first: str = "", *first_args: object) -> list[SearchHit]:
        """The first `limit` papers matching `match` (None: any) and the filters (`where`,
        numbered from `$2`), by bm25 (with no `match`, newest first), `first` before."""
        n = len(params) + 2 + len(first_args)
        if match is None:
            sql = (f"SELECT {PAPER_COLUMNS}, 0.0 AS score FROM papers p WHERE "  # $1 unused
                   f"{' AND '.join(where)} ORDER BY p.year DESC, p.title_key LIMIT ${n}")
        else:
            sql = (f"SELECT {PAPER_COLUMNS}, {BM25} AS score FROM paper_fts JOIN papers p ON "
                   "p.id = paper_fts.rowid WHERE paper_fts MATCH $1"
                   + "".join(f" AND {clause}" for clause in where)
                   + f" ORDER BY {first}score, p.id LIMIT ${n}")
        rows = await self._db.fetch(sql, match, *params, *first_args, max(0, limit))
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

    async def vocabulary(self) -> list[tuple[str, int]]:
        """Indexed Latin words of 4+ letters with their document counts. The term range lets
        fts5vocab skip the CJK bigrams and digits (a quarter of the scan at 100k)."""
        # already (TEXT, INTEGER) tuples: returned with no copy of 100,000s of rows on the loop
        rows = await self._db.fetch(
            "SELECT term, doc FROM paper_vocab WHERE term >= 'a' AND term < '{' "
            "AND length(term) >= 4 "
            "AND term GLOB '[a-z]*' AND term NOT GLOB '*[0-9]*'"
        )
        return cast(list[tuple[str, int]], rows)

    async def warm_up(self) -> None:
        """Compile the ranking statements on every reader (~15 ms each, once a connection)."""
        await self._db.prime(paper_ranking.PRIMING)


class SqlitePaperStore(PaperStore):
    """The catalog in a SQLite file, searched with FTS5."""

    _db: Database

    def __init__(self, db: Database) -> None:
        super().__init__(db, SqliteIndex(db))
