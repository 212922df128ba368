"""`paperclub db copy`: a group's whole state from one backend to the other, table by table.

Every table the two schemas share is copied in primary-key order, a batch per transaction,
each row an upsert by its primary key: a copy interrupted anywhere and run again finishes with
no duplicates. Parents go before children (foreign keys). The full-text index is never copied:
it is rebuilt from the copied papers (FTS5 rows on SQLite, the `tsvector` on PostgreSQL), and
PostgreSQL's id sequences are moved past the copied ids. The end compares row counts per table.

Both databases must be at the same schema version (PostgreSQL's numbered as the SQLite version
it mirrors, `storage.postgres.migrations.SQLITE_VERSION`); an empty target is migrated first.
"""

from __future__ import annotations

import graphlib
import sqlite3
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import asyncpg

from domain.copy import TableCount
from domain.storage_faults import SchemaError, StorageError
from storage.papers.fts import index_row
from storage.papers.postgres_vectors import tsvector_literal
from storage.papers.rows import PAPER_COLUMNS, paper_from_row
from storage.papers.sqlite_index import unindex, write_index
from storage.postgres.database import PgDatabase
from storage.postgres.migrations import SQLITE_VERSION
from storage.sqlite.database import Database

BATCH_ROWS = 1000
_INTERNAL = frozenset({"paperclub_schema", "sqlite_sequence"})
_PAPER_FIELDS = [c.removeprefix("p.") for c in PAPER_COLUMNS.split(", ")]
_INDEX_COLUMNS = frozenset({"search", "search_tokens", "head_tokens"})
"""PostgreSQL's index columns on `papers`: computed on the way in, never copied."""
_PG_DERIVED = frozenset({"paper_heads", "paper_terms"})
"""PostgreSQL's index tables, kept by a trigger from `papers`: never copied."""

Row = tuple[Any, ...]


class _Side:
    """What the copy asks of either backend, written once where the SQL is the same."""

    def __init__(self, db: Database | PgDatabase) -> None:
        self.db = db

    async def read(self, table: str, columns: list[str], key: list[str], after: Row | None,
                   limit: int) -> list[Row]:
        keys = ", ".join(key)
        where = f"WHERE ({keys}) > ({_marks(len(key))}) " if after else ""
        rows = await self.db.fetch(
            f"SELECT {', '.join(columns)} FROM {table} {where}ORDER BY {keys} "
            f"LIMIT ${len(after or ()) + 1}", *(after or ()), limit)
        return [tuple(r) for r in rows]

    async def count(self, table: str) -> int:
        return int(await self.db.fetch_value(f"SELECT count(*) FROM {table}") or 0)

    _COLUMNS: str
    """Each column's name and place in the primary key (0: none), in declaration order."""

    async def columns(self, table: str) -> tuple[list[str], list[str]]:
        """(columns, primary-key columns) in declaration order."""
        rows = await self.db.fetch(self._COLUMNS, table)
        key = sorted((int(pos), str(name)) for name, pos in rows if pos)
        return [str(r[0]) for r in rows], [name for _, name in key]

    async def _types(self, table: str) -> dict[str, str]:
        """Each column's type as `Dialect.zipped` takes it (none on SQLite: JSON arrays)."""
        return defaultdict(str)

    async def existing(self, table: str, key: list[str], keys: list[Row]) -> int:
        """How many of these keys the table holds already."""
        types, dialect = await self._types(table), self.db.dialect
        arrays = [dialect.array(_converter(types[k])(row[i]) for row in keys)
                  for i, k in enumerate(key)]
        zipped = dialect.zipped(*((f"${i}", types[k]) for i, k in enumerate(key, 1)))
        picked = ", ".join(f"c{i}" for i in range(1, len(key) + 1))
        return int(await self.db.fetch_value(
            f"SELECT count(*) FROM {table} WHERE ({', '.join(key)}) IN "
            f"(SELECT {picked} FROM {zipped})", *arrays) or 0)


class _Sqlite(_Side):
    async def version(self) -> int:
        return await self.db.schema_version()

    async def tables(self) -> dict[str, list[str]]:
        """Each ordinary table (no FTS5 or load shadows) and the tables it references."""
        rows = await self.db.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE "
            "VIRTUAL%' AND name NOT LIKE 'paper_fts%' AND name NOT LIKE 'paper_vocab%' "
            "AND name NOT LIKE '%\\_next' ESCAPE '\\'")
        found: dict[str, list[str]] = {}
        for (name,) in rows:
            refs = await self.db.fetch(
                "SELECT DISTINCT \"table\" FROM pragma_foreign_key_list($1)", name)
            found[str(name)] = [str(r[0]) for r in refs]
        return {t: refs for t, refs in found.items() if t not in _INTERNAL}

    _COLUMNS = "SELECT name, pk FROM pragma_table_info($1) ORDER BY cid"

    async def write(self, table: str, columns: list[str], key: list[str],
                    rows: list[Row]) -> None:
        async with self.db.transaction() as tx:
            if table == "papers":  # the FTS5 index, rebuilt from the papers: out before
                await unindex(tx, [row[columns.index("id")] for row in rows])  # they change
            await tx.execute_many(_insert(table, columns, key), rows)
            if table == "papers":
                await write_index(tx, [(row[columns.index("id")],
                                          *index_row(_paper(columns, row))) for row in rows])

    async def finish(self) -> None:
        """Nothing to do: SQLite's ids follow the largest one."""


class _Postgres(_Side):
    async def version(self) -> int:
        version = await self.db.schema_version()
        if version and version not in SQLITE_VERSION:
            raise SchemaError(f"PostgreSQL schema version {version} has no SQLite equivalent")
        return SQLITE_VERSION.get(version, 0)

    async def tables(self) -> dict[str, list[str]]:
        rows = await self.db.fetch(
            "SELECT c.relname, coalesce(array_agg(DISTINCT r.relname) FILTER "
            "(WHERE r.relname IS NOT NULL), '{}') FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "LEFT JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'f' "
            "LEFT JOIN pg_class r ON r.oid = k.confrelid "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r' GROUP BY c.relname")
        return {str(name): list(refs) for name, refs in rows
                if name not in _INTERNAL | _PG_DERIVED}

    _COLUMNS = (
        "SELECT a.attname, coalesce((SELECT k.n FROM pg_index i, unnest(i.indkey) WITH "
        "ORDINALITY k(att, n) WHERE i.indrelid = a.attrelid AND i.indisprimary "
        "AND k.att = a.attnum), 0) FROM pg_attribute a "
        "WHERE a.attrelid = $1::regclass AND a.attnum > 0 "
        "AND NOT a.attisdropped ORDER BY a.attnum")

    async def _types(self, table: str) -> dict[str, str]:
        rows = await self.db.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1", table)
        return {str(name): str(kind) for name, kind in rows}

    async def write(self, table: str, columns: list[str], key: list[str],
                    rows: list[Row]) -> None:
        types = await self._types(table)
        converters = [_converter(types[c]) for c in columns]
        values = [tuple(f(v) for f, v in zip(converters, row, strict=True)) for row in rows]
        names = list(columns)
        if table == "papers":  # the tsvector, computed from the papers' own tokens
            names += ["search", "search_tokens", "head_tokens"]
            values = [(*row, *tsvector_literal(index_row(_paper(columns, row))))
                      for row in values]
        await self.db.execute_many(_insert(table, names, key, tsvector=table == "papers"),
                                   values)

    async def finish(self) -> None:
        """Move every id sequence past the largest copied id."""
        rows = await self.db.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE "
            "table_schema = current_schema() AND column_default LIKE 'nextval(%'")
        async with self.db.transaction() as tx:
            for table, column in rows:
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f"coalesce((SELECT max({column}) FROM {table}), 0) + 1, false)")


def _converter(kind: str) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if value is None:
            return None
        if kind in ("bigint", "integer", "smallint"):
            return int(value)
        if kind in ("double precision", "real"):
            return float(value)
        return value if kind != "text" else str(value)
    return convert


def _paper(columns: Sequence[str], row: Row) -> Any:
    by_name = dict(zip(columns, row, strict=True))
    return paper_from_row([by_name[name] for name in _PAPER_FIELDS])


def _marks(count: int) -> str:
    """`$1` to `$count`."""
    return ", ".join(f"${i}" for i in range(1, count + 1))


def _insert(table: str, columns: Sequence[str], key: Sequence[str], *,
            tsvector: bool = False) -> str:
    """An upsert of one row by its primary key (`tsvector`: the third column from the end,
    sent as text, cast)."""
    marks = _marks(len(columns)).split(", ")
    if tsvector:
        marks[-3] += "::tsvector"
    rest = [c for c in columns if c not in key]
    upsert = (f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET "
              + ", ".join(f"{c} = excluded.{c}" for c in rest)
              if rest else f"ON CONFLICT ({', '.join(key)}) DO NOTHING")
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(marks)}) {upsert}"


Side = _Sqlite | _Postgres


def side(db: Database | PgDatabase) -> Side:
    """The copy's view of an open database."""
    return _Postgres(db) if isinstance(db, PgDatabase) else _Sqlite(db)


async def copy_database(source: Database | PgDatabase, target: Database | PgDatabase, *,
                        batch: int = BATCH_ROWS,
                        progress: Callable[[str, int, int], Awaitable[None]] | None = None,
                        ) -> list[TableCount]:
    """Copy every shared table from `source` to `target` (both open and migrated to the same
    version), then count. `progress(table, new, present)` is awaited after each batch is
    committed: the batch's rows the target did not have, and those it had (updated to the
    source's values)."""
    src, dst = side(source), side(target)
    versions = (await src.version(), await dst.version())
    if versions[0] != versions[1]:
        raise SchemaError(f"the source is at schema version {versions[0]} and the target at "
                          f"{versions[1]} (SQLite numbering): migrate both to the same version "
                          "first (open each with this paperclub)")
    source_tables, target_tables = await src.tables(), await dst.tables()
    shared = {t: [r for r in refs if r in target_tables and r != t]
              for t, refs in source_tables.items() if t in target_tables}
    order = list(graphlib.TopologicalSorter(shared).static_order())
    new: dict[str, int] = dict.fromkeys(order, 0)
    for table in order:
        source_columns, key = await src.columns(table)
        target_columns, target_key = await dst.columns(table)
        columns = [c for c in source_columns if c in target_columns and c not in _INDEX_COLUMNS]
        after: Row | None = None
        positions = [columns.index(k) for k in key]
        if not key or not target_key:
            raise SchemaError(f"table {table} has no primary key: it cannot be copied")
        while rows := await src.read(table, columns, key, after, batch):
            added = len(rows) - await dst.existing(
                table, target_key, [tuple(row[columns.index(k)] for k in target_key)
                                    for row in rows])
            try:
                await dst.write(table, columns, target_key, rows)
            except (asyncpg.PostgresError, sqlite3.Error) as exc:
                raise StorageError(f"copying {table}: the target refused a row ({exc}); "
                                   "copy into an empty database") from exc
            after = tuple(rows[-1][i] for i in positions)
            new[table] += added
            if progress is not None:
                await progress(table, added, len(rows) - added)
    await dst.finish()
    return [TableCount(t, await src.count(t), await dst.count(t), new[t]) for t in order]
