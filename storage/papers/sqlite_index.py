"""Writing the contentless full-text indexes (`paper_fts`, `content=''`, SQLite migration 25,
and the headline index `paper_fts_head`, migration 26: every write goes to both).

FTS5 keeps no copy of the indexed text (a third of the database it was), so it cannot read
back what to remove: a row leaves the index through FTS5's 'delete' command given the text it
was indexed with, which is rebuilt here from the paper's stored row (`index_row` over the
row, as the load and the add built it). So a paper is removed from the index before its row
changes, and a load's carried-over papers are indexed from their rows."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from storage.db import Tx
from storage.papers.fts import COLUMNS, HEAD_TABLE, HEADLINE_COLUMNS, index_row
from storage.papers.rows import PAPER_COLUMN_COUNT, PAPER_COLUMNS, paper_from_row

INDEXES = ("paper_fts", HEAD_TABLE)
"""The full-text tables, written together."""
FTS_INSERT = ("INSERT INTO {table} (rowid, " + ", ".join(COLUMNS) + ") VALUES ("
              + ", ".join("?" * (len(COLUMNS) + 1)) + ")")
"""A paper's full-text row, into `{table}` (`paper_fts`, or `paper_fts_next` in a load)."""
FTS_DELETE = ("INSERT INTO {table} ({table}, rowid, " + ", ".join(COLUMNS) + ") VALUES "
              "('delete', " + ", ".join("?" * (len(COLUMNS) + 1)) + ")")
"""FTS5's 'delete' command: a row out of the contentless `{table}`, given its indexed text."""
_HEAD = len(HEADLINE_COLUMNS) + 1
"""How much of a (rowid, *index text) row the headline index takes."""
HEAD_INSERT = (f"INSERT INTO {{table}} (rowid, {', '.join(HEADLINE_COLUMNS)}) VALUES ("
               + ", ".join("?" * _HEAD) + ")")
"""A paper's headline row, into `{table}` (`HEAD_TABLE`, or its shadow in a load)."""
HEAD_DELETE = (f"INSERT INTO {{table}} ({{table}}, rowid, {', '.join(HEADLINE_COLUMNS)}) "
               "VALUES ('delete', " + ", ".join("?" * _HEAD) + ")")
"""FTS5's 'delete' command for the headline index."""


def _index_rows(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """(rowid, *index text) of stored paper rows (`PAPER_COLUMNS`, then the id)."""
    return [(row[PAPER_COLUMN_COUNT], *index_row(paper_from_row(row))) for row in rows]


async def write_index(tx: Tx, rows: Sequence[Sequence[Any]], *, suffix: str = "",
                      delete: bool = False) -> None:
    """Write (rowid, *index text) rows into both full-text indexes, `paper_fts` and
    `HEAD_TABLE` (their load shadows with `suffix`), or with `delete` take them out."""
    everywhere, headline = (FTS_DELETE, HEAD_DELETE) if delete else (FTS_INSERT, HEAD_INSERT)
    await tx.execute_many(everywhere.format(table="paper_fts" + suffix), rows)
    await tx.execute_many(headline.format(table=HEAD_TABLE + suffix),
                          [row[:_HEAD] for row in rows])


async def indexed_rows(tx: Tx, table: str, ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """(rowid, *index text) of the papers `ids` of `table` (`papers` or `papers_next`), the
    text built in a worker thread."""
    if not ids:
        return []
    rows = await tx.fetch(f"SELECT {PAPER_COLUMNS}, p.id FROM {table} p WHERE p.id IN "
                          f"({','.join('?' * len(ids))})", *ids)
    return await asyncio.to_thread(_index_rows, rows)


async def unindex(tx: Tx, ids: Sequence[int]) -> None:
    """Take the papers `ids` out of the full-text indexes, before their rows in `papers`
    change (ids with no stored row are not in the index either)."""
    await write_index(tx, await indexed_rows(tx, "papers", ids), delete=True)
