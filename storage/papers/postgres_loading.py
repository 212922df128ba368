"""The PostgreSQL catalog's write path: a whole load in one transaction under the load slot
(a transaction-scoped advisory lock, so one load at a time: another gets
`CatalogLoadRunning`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, Awaitable, Sequence
from typing import Any

import asyncpg

from domain.catalog import LoadCounts, LoadSource
from domain.storage_faults import CatalogLoadRunning
from storage.db import Tx
from storage.dialect import POSTGRES
from storage.notifications.store import record_unannounced
from storage.papers.catalog import record_load
from storage.papers.classify import LoadClassifier, live_rows, pipelined
from storage.papers.postgres_vectors import tsvector_for_copy
from storage.papers.prepared import STORED_COLUMNS, PreparedPaper
from storage.postgres.database import PgDatabase
from storage.postgres.migrations import RECOUNT_TERMS, WRITE_HEADS

_LOAD_LOCK = 0x6C6F6164  # pg_try_advisory_xact_lock key of the catalog load slot
_STORED = (
    "id, public_id, title_key, " + STORED_COLUMNS + ", source, source_line, content_hash, "
    "added_at, updated_at, search, search_tokens, head_tokens"
)
_GIN_INDEXES = ("papers_search", "paper_heads_head")
_LZ4 = ("SELECT 'lz4' = ANY(enumvals) FROM pg_settings "
        "WHERE name = 'default_toast_compression'")
_FAST_COMPRESSION = "SET LOCAL default_toast_compression = lz4"
"""Where the server was built with lz4 (PostgreSQL 14+ as most distributions ship it), a
load's long values (`tsvector`s, summaries; staged ones too) are compressed with lz4
rather than pglz: about 2.4 s less of a 100k load's 30 s (two runs each), and faster for
searches to read back. (A 64 MB GIN pending list saved another 1.4 s, but every search during
the load scanned it: median 3.7 → 7.9 ms, the slowest 0.7 → 2.5 s; the 4 MB default stays.)"""
_STAGED = (f"CREATE TEMP TABLE staged ON COMMIT DROP AS SELECT {_STORED}, "
           "NULL::text AS search_literal FROM papers WITH NO DATA")
"""A batch's rows for papers already stored (or met earlier in the load), copied in (COPY:
one round trip, no statement per row), then upserted into `papers` in one statement. The
`tsvector` travels in its binary form, or for a paper whose vector is capped as its literal
(`search_literal`), parsed there. A batch's new papers with a binary vector are copied
straight into `papers`: no staging, no parse (a 100k load into an empty catalog: 28.9 → 25.4 s
in paired runs)."""
_UPSERT = (f"INSERT INTO papers ({_STORED}) SELECT "
           f"{_STORED.replace('search,', 'coalesce(search, search_literal::tsvector),')} "
           "FROM staged ON CONFLICT (id) DO UPDATE SET "
           + ", ".join(f"{c} = excluded.{c}" for c in _STORED.split(", ")[1:]))


async def take_load_slot(tx: Tx) -> None:
    """Hold the catalog's load slot until `tx` ends; `CatalogLoadRunning` if another process
    holds it."""
    if not await tx.fetch_value("SELECT pg_try_advisory_xact_lock($1)", _LOAD_LOCK):
        raise CatalogLoadRunning("the catalog is being reloaded by another process; "
                                 "try again when that load has finished")


async def load_prepared(db: PgDatabase, batches: AsyncIterable[Sequence[PreparedPaper]], *,
                        source: LoadSource, prune: bool = False,
                        announce: bool = False) -> LoadCounts:
    """Upsert every paper in one transaction; `prune` removes the source's others;
    `announce` records the added ones as unannounced in it."""
    counts = LoadCounts()
    async with db.transaction(binary_tsvector=True) as tx:
        conn = tx.conn
        await take_load_slot(tx)
        await conn.execute("SET LOCAL paperclub.terms = 'off'")
        await conn.execute("SET LOCAL paperclub.heads = 'off'")
        if await conn.fetchval(_LZ4):
            await conn.execute(_FAST_COMPRESSION)
        next_id = int(await conn.fetchval("SELECT coalesce(max(id), 0) FROM papers")) + 1
        classifier = LoadClassifier(source.name, counts, next_id)
        await conn.execute("CREATE TEMP TABLE loaded (id bigint PRIMARY KEY) ON COMMIT DROP")
        await conn.execute(_STAGED)
        await pipelined(batches, _with_vectors,
                        lambda prepared: _write(tx, conn, classifier, *prepared))
        if prune:
            counts.removed = await tx.execute(
                "DELETE FROM papers p WHERE p.source = $1 AND NOT EXISTS "
                "(SELECT 1 FROM loaded l WHERE l.id = p.id)", source.name)
        await conn.execute(WRITE_HEADS)
        for statement in RECOUNT_TERMS:
            await conn.execute(statement)
        await record_load(tx, source, counts)
        if announce:
            await record_unannounced(tx, POSTGRES, counts.added_ids)
    await _refresh_planner_figures(db)
    return counts


async def _refresh_planner_figures(db: PgDatabase) -> None:
    """After a load, what the planner knows of the search tables and their GIN indexes'
    pending entries: without it, searches right after a big load were planned on the old
    catalog's figures (or none) until autovacuum came by."""
    async with db.transaction() as tx:
        for index in _GIN_INDEXES:
            await tx.execute("SELECT gin_clean_pending_list($1::regclass)", index)
        await tx.execute("ANALYZE papers, paper_heads")


_Vector = tuple[bytes | None, str | None, int, int]
"""A paper's `tsvector` in binary form, or else its literal; its token counts (whole, head)
(`tsvector_for_copy`)."""


def _vectors(batch: Sequence[PreparedPaper]) -> dict[tuple[str, ...], _Vector]:
    """Each record's `tsvector` and token counts, by its index text."""
    return {item.index_text: tsvector_for_copy(item.index_text) for item in batch}


def _with_vectors(batch: Sequence[PreparedPaper]) -> tuple[
        Sequence[PreparedPaper], Awaitable[dict[tuple[str, ...], _Vector]]]:
    """The batch, and its vectors being built in a thread while the last batch is written."""
    return batch, asyncio.ensure_future(asyncio.to_thread(_vectors, batch))


async def _write(tx: Tx, conn: asyncpg.Connection, classifier: LoadClassifier,
                 batch: Sequence[PreparedPaper],
                 vectors: Awaitable[dict[tuple[str, ...], _Vector]]) -> None:
    found, taken, holders = await live_rows(tx, POSTGRES, batch)
    rows, index_rows, honours = classifier.merge_and_classify(batch, found, taken, holders)
    built = await vectors
    searches = [built.get(text) or tsvector_for_copy(text)  # a record keeping an add's links
                for text in (tuple(index[1:]) for index in index_rows)]
    new: list[tuple[Any, ...]] = []
    stored: list[tuple[Any, ...]] = []
    for row, (binary, literal, total, head) in zip(rows, searches, strict=True):
        if binary is not None and row[2] not in found:
            new.append((*row, binary, total, head))
        else:
            stored.append((*row, binary, total, head, literal))
    columns = _STORED.split(", ")
    if new:
        await conn.copy_records_to_table("papers", columns=columns, records=new)
        await conn.execute("INSERT INTO loaded (id) SELECT unnest($1::bigint[])",
                           [row[0] for row in new])
    if stored:
        await conn.copy_records_to_table("staged", columns=[*columns, "search_literal"],
                                         records=stored)
        await conn.execute(_UPSERT)
        await conn.execute("INSERT INTO loaded (id) SELECT id FROM staged ON CONFLICT DO NOTHING")
        await conn.execute("TRUNCATE staged")
        await conn.execute("DELETE FROM paper_honours WHERE paper_id = ANY($1)",
                           [row[0] for row in stored])
    await conn.execute("INSERT INTO paper_honours (honour, paper_id) SELECT * FROM "
                       "unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING",
                       [h for h, _ in honours], [i for _, i in honours])
