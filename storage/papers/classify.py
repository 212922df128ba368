"""One catalog load's bookkeeping, shared by both backends: which prepared papers are new,
updated, unchanged, duplicates or conflicts, and the rows to write for them; what the live
catalog holds of a batch, and the batches written one after another."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, Awaitable, Callable, Sequence
from typing import Any, TypeVar

from domain.catalog import LoadCounts
from storage.db import Tx
from storage.dialect import Dialect
from storage.papers.prepared import PreparedPaper, kept_links
from storage.papers.rows import LINK_COLUMNS
from storage.times import utc_timestamp

BatchT = TypeVar("BatchT")
PreparedT = TypeVar("PreparedT")


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

    def merge_and_classify(
            self, batch: Sequence[PreparedPaper],
            found: dict[str, tuple[Any, ...]], taken: set[str], holders: dict[str, str],
            earlier: dict[str, int] | None = None,
    ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[str, int]]]:
        """Count each paper as new, updated, unchanged, duplicate, arXiv conflict or id
        collision, a record found live keeping the links an add stored; return the paper rows,
        index rows and honour rows to write (`live_rows`: `found`, title key -> id, content
        hash, added, updated, link values; `taken`, public ids held by live papers with other
        titles; `holders`, arXiv id -> title key of the live paper holding it).

        `earlier` (title key -> line) are the batch's titles already written by this load, as
        the store found them, with `taken` then holding the public ids it has written too: the
        classifier need not remember every title of a million-paper load (~270 MB)."""
        if earlier is not None:
            self._lines, self._ids = dict(earlier), set()
        counts, source, now = self._counts, self._source, utc_timestamp()
        taken = taken | self._ids
        rows: list[tuple[Any, ...]] = []
        fts_rows: list[tuple[Any, ...]] = []
        honours: list[tuple[str, int]] = []
        for given in batch:
            live = found.get(given.key)
            item = given if live is None else kept_links(given, live[4])
            first = self._lines.get(item.key)
            if first is not None:
                counts.duplicates.append((item.line, first))
                continue
            arxiv_id = item.arxiv_id
            if arxiv_id and self._arxiv.get(arxiv_id, holders.get(arxiv_id, item.key)) != item.key:
                counts.arxiv_conflicts.append(item.line)
                continue
            if live is None:
                if item.public_id in taken:
                    counts.id_collisions.append(item.line)
                    continue
                rowid, added, updated = self._next_id, now, now
                self._next_id += 1
                counts.added += 1
                counts.added_ids.append(item.public_id)
            else:
                rowid, digest, added, updated = int(live[0]), *map(str, live[1:4])
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


async def live_rows(tx: Tx, dialect: Dialect, batch: Sequence[PreparedPaper]
                    ) -> tuple[dict[str, tuple[Any, ...]], set[str], dict[str, str]]:
    """What `merge_and_classify` reads of the live catalog for a batch: its papers by title key
    (id, content hash, times and link values), the batch's public ids held by papers with
    other titles, and the title keys of the papers holding its arXiv ids."""
    keys = dialect.array(item.key for item in batch)
    found = {row[0]: (*row[1:5], tuple(row[5:])) for row in await tx.fetch(
        f"SELECT title_key, id, content_hash, added_at, updated_at, {LINK_COLUMNS} "
        f"FROM papers WHERE title_key {dialect.in_array('$1')}", keys)}
    taken = {str(row[0]) for row in await tx.fetch(
        f"SELECT public_id FROM papers WHERE public_id {dialect.in_array('$1')} "
        f"AND NOT title_key {dialect.in_array('$2')}",
        dialect.array(item.public_id for item in batch), keys)}
    arxiv_ids = [item.arxiv_id for item in batch if item.arxiv_id]
    holders = {str(row[0]): str(row[1]) for row in await tx.fetch(
        f"SELECT arxiv_id, title_key FROM papers WHERE arxiv_id {dialect.in_array('$1')}",
        dialect.array(arxiv_ids))} if arxiv_ids else {}
    return found, taken, holders


async def pipelined(batches: AsyncIterable[BatchT], prepare: Callable[[BatchT], PreparedT],
                    write: Callable[[PreparedT], Awaitable[None]]) -> None:
    """`write` each batch while the next is received and `prepare`d (which may start work in
    a thread); after a failure the write under way is waited for, never left mid-statement."""
    written: asyncio.Future[None] | None = None
    try:
        async for batch in batches:
            prepared = prepare(batch)
            if written is not None:
                await written
            written = asyncio.ensure_future(write(prepared))
        if written is not None:
            await written
    finally:
        if written is not None and not written.done():
            await asyncio.wait([written])
            if not written.cancelled():
                written.exception()  # retrieved: the error that stopped the load is raised
