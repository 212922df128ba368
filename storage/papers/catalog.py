"""The catalog store, written once over `storage.db` for both backends: papers by id, link
and page, names, counts, the catalog's version and the identity-ruled adds. Only the search
index is per dialect (`SearchIndex`: FTS5 in `storage.papers.sqlite`, the `tsvector` tiers
in `storage.papers.postgres`), tuned where its SQL is, with the load that builds it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from datetime import datetime
from typing import Protocol

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
from domain.query import Filters, SearchQuery
from storage.db import Db, Store, Tx
from storage.dialect import Dialect
from storage.notifications.store import record_unannounced
from storage.papers.identity import add_by_identity, added_tally
from storage.papers.prepared import (
    STORED_COLUMNS,
    PreparedPaper,
    content_hash,
    paper_values,
    prepared_batches,
)
from storage.papers.rows import PAPER_COLUMN_COUNT, PAPER_COLUMNS, READ_BATCH, paper_from_row
from storage.times import utc_timestamp

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_PAPER = f"SELECT {PAPER_COLUMNS} FROM papers p WHERE "
_ROW_COLUMNS = ("id, public_id, title_key, " + STORED_COLUMNS
                + ", source, source_line, content_hash, added_at, updated_at").split(", ")
_RECORD_LOAD = ("INSERT INTO catalog_loads (source, listing_query, loaded_at, added, updated, "
               "unchanged, removed, rejected) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
"""A load (or a changing add) recorded: the catalog version moves."""
_KEPT = frozenset({"id", "public_id", "title_key", "source", "source_line", "added_at"})
"""What a rewrite leaves of a stored row: its identity, where it came from, when added."""


async def record_load(tx: Tx, source: LoadSource, counts: LoadCounts) -> None:
    """A whole load recorded, on either backend, with every line it rejected: the source's
    unreadable ones, duplicates, id collisions and arXiv conflicts."""
    await tx.execute(_RECORD_LOAD, source.name, source.listing_query, utc_timestamp(),
                     counts.added, counts.updated, counts.unchanged, counts.removed,
                     source.rejected + len(counts.duplicates) + len(counts.id_collisions)
                     + len(counts.arxiv_conflicts))


def ascii_lower(text: str) -> str:
    """`text` with A-Z in lower case, as `Dialect.folded` folds a column."""
    return text.translate(_ASCII_LOWER)


def filter_clauses(filters: Filters, dialect: Dialect,
                   start: int = 1) -> tuple[list[str], list[object]]:
    """SQL conditions on `papers p` for a query's filters, their parameters numbered from
    `$start`, with the values to bind: a venue is a conference's name or part of a
    workshop's, A-Z in any case."""
    where: list[str] = []
    params: list[object] = []

    def param(value: object) -> str:
        params.append(value)
        return f"${start + len(params) - 1}"

    if filters.track:
        where.append(f"p.track = {param(filters.track.value)}")
    if filters.venue:
        venue = param(ascii_lower(filters.venue))
        where.append(f"({dialect.folded('p.conference')} = {venue} OR "
                     f"{dialect.contains_folded('p.workshop', venue)})")
    if filters.year is not None:
        where.append(f"p.year = {param(filters.year)}")
    if filters.honour:
        where.append("EXISTS (SELECT 1 FROM paper_honours h WHERE h.paper_id = p.id "
                     f"AND h.honour = {param(filters.honour)})")
    return where, params


class SearchIndex(Protocol):
    """The one per-dialect part of the catalog: its full-text index, searched, built by a
    load and kept in step with an add (inside the add's transaction)."""

    async def search(self, query: SearchQuery, *, any_word: bool, limit: int, offset: int,
                     papers: int | None) -> list[SearchHit]:
        """`PaperStore.search`."""

    async def vocabulary(self) -> list[tuple[str, int]]:
        """`PaperStore.vocabulary`."""

    async def warm_up(self) -> None:
        """`PaperStore.warm_up`."""

    async def load_prepared(self, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                            source: LoadSource, prune: bool, announce: bool) -> LoadCounts:
        """`PaperStore.load_prepared`: the whole catalog, index and all."""

    async def hold_load_slot(self, tx: Tx) -> None:
        """`CatalogLoadRunning` while a load is running (an add then would be lost or wait)."""

    def row_columns(self, paper: Paper) -> dict[str, object]:
        """The index's columns kept in the paper's own `papers` row, with their values."""

    async def unindex(self, tx: Tx, rowid: int) -> None:
        """Before a stored paper's row changes: its index entries out."""

    async def index(self, tx: Tx, rowid: int, paper: Paper) -> None:
        """After a paper's row is written: its index entries in."""


class _Rows:
    """`storage.papers.identity.PaperRows` on one transaction."""

    def __init__(self, tx: Tx, index: SearchIndex, source: str, now: str) -> None:
        self._tx, self._index, self._source, self._now = tx, index, source, now

    async def stored(self, column: str, value: str) -> tuple[int, Paper] | None:
        """The row id and paper whose `column` is `value`."""
        row = await self._tx.fetch_one(
            f"SELECT {PAPER_COLUMNS}, p.id FROM papers p WHERE p.{column} = $1", value)
        return (int(row[PAPER_COLUMN_COUNT]), paper_from_row(row)) if row else None

    async def rewrite(self, rowid: int, paper: Paper) -> None:
        """Update a stored paper in place (its index entries out first, then in again)."""
        await self._index.unindex(self._tx, rowid)  # with the text it was indexed with
        changed = [(c, v) for c, v in self._values(rowid, paper) if c not in _KEPT]
        assignments = ", ".join(f"{c} = ${n}" for n, (c, _) in enumerate(changed, start=2))
        await self._tx.execute(f"UPDATE papers SET {assignments} WHERE id = $1",
                               rowid, *(v for _, v in changed))
        await self._written(rowid, paper)

    async def insert(self, paper: Paper) -> None:
        """Store a new paper under the next id, with its index entries."""
        rowid = int(await self._tx.fetch_value("SELECT coalesce(max(id), 0) + 1 FROM papers"))
        values = self._values(rowid, paper)
        await self._tx.execute(
            f"INSERT INTO papers ({', '.join(c for c, _ in values)}) VALUES ("
            + ", ".join(f"${n}" for n in range(1, len(values) + 1)) + ")",
            *(v for _, v in values))
        await self._written(rowid, paper)

    def _values(self, rowid: int, paper: Paper) -> list[tuple[str, object]]:
        values = paper_values(paper)
        row = (rowid, paper.id, paper.key, *values, self._source, None, content_hash(values),
               self._now, self._now)
        return [*zip(_ROW_COLUMNS, row, strict=True),
                *self._index.row_columns(paper).items()]

    async def _written(self, rowid: int, paper: Paper) -> None:
        await self._index.index(self._tx, rowid, paper)
        await self._tx.execute("DELETE FROM paper_honours WHERE paper_id = $1", rowid)
        await self._tx.execute_many(
            "INSERT INTO paper_honours (honour, paper_id) VALUES ($1, $2) "
            "ON CONFLICT DO NOTHING", [(h, rowid) for h in paper.venue.honours])


class PaperStore(Store):
    """Papers, their honours and a search index kept in step with them (`SearchIndex`)."""

    def __init__(self, db: Db, index: SearchIndex) -> None:
        super().__init__(db)
        self._index = index

    async def load(self, papers: Iterable[tuple[int, Paper]], *, source: LoadSource,
                   prune: bool = False, announce: bool = False) -> LoadCounts:
        """`load_prepared`, the papers prepared in a worker thread."""
        return await self.load_prepared(prepared_batches(papers), source=source, prune=prune,
                                        announce=announce)

    async def load_prepared(self, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                            source: LoadSource, prune: bool = False,
                            announce: bool = False) -> LoadCounts:
        """Load a catalog: readers see the old one until the new one is whole; `prune`
        removes the source's papers it left out; `announce` records the added ones as
        unannounced. `CatalogLoadRunning` while another load runs."""
        return await self._index.load_prepared(batches, source=source, prune=prune,
                                               announce=announce)

    async def add_papers(self, papers: Sequence[Paper], *, source: str = ADD_SOURCE,
                         announce: bool = False) -> list[AddOutcome]:
        """Add a few papers in one transaction, each by the identity rules (`add_by_identity`);
        with `announce`, the added ones are recorded unannounced in it. Refused with
        `CatalogLoadRunning` while a load runs. A change is recorded as a load of `source`,
        so `catalog_version` moves."""
        async with self._db.transaction() as tx:
            await self._index.hold_load_slot(tx)
            now = utc_timestamp()
            rows = _Rows(tx, self._index, source, now)
            outcomes = [await add_by_identity(rows, paper) for paper in papers]
            tally = added_tally(outcomes)
            if tally is not None:
                added, updated, unchanged, rejected = tally
                await tx.execute(_RECORD_LOAD, source, None, now, added, updated, unchanged, 0,
                                 rejected)
            if announce:
                await record_unannounced(tx, self._dialect, [o.paper.id for o in outcomes
                                             if o.status is AddStatus.ADDED])
        return outcomes

    async def _paper(self, where: str, *args: object) -> Paper | None:
        row = await self._db.fetch_one(_PAPER + where, *args)
        return paper_from_row(row) if row else None

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        return await self._paper("p.public_id = $1", public_id)

    async def get_many(self, public_ids: Sequence[str]) -> list[Paper]:
        """The papers of these public ids still in the catalog, in the ids' order."""
        rows = await self._db.fetch(_PAPER + "p.public_id " + self._dialect.in_array("$1"),
                                    self._dialect.array(public_ids))
        found = {paper.id: paper for paper in map(paper_from_row, rows)}
        return [found[i] for i in public_ids if i in found]

    async def by_link(self, *, arxiv_id: str = "", doi: str = "") -> Paper | None:
        """The paper with this arXiv id (without version) or this DOI (any case), if any."""
        if arxiv_id:
            return await self._paper("p.arxiv_id = $1", arxiv_id)
        if doi:
            return await self._paper("p.doi != '' AND lower(p.doi) = lower($1) LIMIT 1", doi)
        return None

    async def search(self, query: SearchQuery, *, any_word: bool = False, limit: int = 10,
                     offset: int = 0, papers: int | None = None) -> list[SearchHit]:
        """Ranked hits (the index's bm25, exact title and title phrases first); filters narrow
        in SQL with bound parameters. Only the first `papers` hits' papers need be read
        (None: all)."""
        return await self._index.search(query, any_word=any_word, limit=limit, offset=offset,
                                        papers=papers)

    async def _names(self, sql: str, text: str, limit: int) -> list[str]:
        dialect = self._dialect
        rows = await self._db.fetch(sql.format(
            workshop=dialect.contains_folded("workshop", "$1"),
            conference=dialect.contains_folded("conference", "$1"), order=dialect.text_order),
            ascii_lower(text), limit)
        return [str(row[0]) for row in rows]

    async def workshop_names(self, prefix: str = "", limit: int = 10) -> list[str]:
        """Workshop names containing `prefix` (A-Z case-insensitive), most papers first."""
        return await self._names("SELECT workshop FROM papers WHERE {workshop} GROUP BY "
                                 "workshop ORDER BY count(*) DESC, workshop{order} LIMIT $2",
                                 prefix, limit)

    async def venue_names(self, text: str = "", limit: int = 25) -> list[str]:
        """Conference and workshop names containing `text` (A-Z case-insensitive), most papers
        first: what a `venue:` filter can name."""
        return await self._names(
            "SELECT name FROM (SELECT conference AS name, count(*) AS n FROM papers "
            "WHERE {conference} GROUP BY conference UNION ALL SELECT workshop, count(*) "
            "FROM papers WHERE {workshop} GROUP BY workshop) v "
            "ORDER BY n DESC, name{order} LIMIT $2", text, limit)

    async def paper_ids(self, track: str | None = None) -> list[str]:
        """Public ids of every paper, or of those on one track."""
        if track:
            rows = await self._db.fetch("SELECT public_id FROM papers WHERE track = $1", track)
        else:
            rows = await self._db.fetch("SELECT public_id FROM papers")
        return [str(row[0]) for row in rows]

    async def random(self) -> Paper | None:
        """A uniformly random paper (ids are dense)."""
        top = await self._db.fetch_value("SELECT max(id) FROM papers")
        if top is None:
            return None
        drawn = random.randint(0, int(top))
        return (await self._paper("p.id >= $1 ORDER BY p.id LIMIT 1", drawn)
                or await self._paper("TRUE ORDER BY p.id LIMIT 1"))

    async def count(self) -> int:
        """Number of papers."""
        return int(await self._db.fetch_value("SELECT count(*) FROM papers") or 0)

    async def stats(self) -> CatalogStats:
        """Totals per conference, year and track, and the last load."""
        order = self._order
        venues = tuple(VenueCount(c, y, t, n) for c, y, t, n in await self._db.fetch(
            "SELECT conference, year, track, count(*) FROM papers GROUP BY conference, year, "
            f"track ORDER BY count(*) DESC, conference{order} NULLS FIRST, "
            f"year NULLS FIRST, track{order}"))
        workshops = int(await self._db.fetch_value(
            "SELECT count(DISTINCT workshop) FROM papers WHERE workshop IS NOT NULL") or 0)
        last = await self._db.fetch_one(
            "SELECT loaded_at, source, rejected FROM catalog_loads ORDER BY id DESC LIMIT 1")
        return CatalogStats(
            papers=sum(v.papers for v in venues), venues=venues, workshops=workshops,
            last_load_at=datetime.fromisoformat(last[0]) if last else None,
            last_load_source=last[1] if last else None,
            last_load_rejected=int(last[2]) if last else 0)

    async def vocabulary(self) -> list[tuple[str, int]]:
        """Indexed Latin words of 4+ letters with their document counts (the typo vocabulary)."""
        return await self._index.vocabulary()

    async def warm_up(self) -> None:
        """Prepare what the first searches would otherwise compile."""
        await self._index.warm_up()

    async def catalog_version(self) -> int:
        """The id of the last load; changes with every load."""
        return int(await self._db.fetch_value("SELECT max(id) FROM catalog_loads") or 0)

    async def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper in insertion order, read in pages."""
        last = 0
        while True:
            rows = await self._db.fetch(f"SELECT {PAPER_COLUMNS}, p.id FROM papers p WHERE "
                                        "p.id > $1 ORDER BY p.id LIMIT $2", last, READ_BATCH)
            if not rows:
                return
            for row in rows:
                yield paper_from_row(row)
            last = int(rows[-1][PAPER_COLUMN_COUNT])
