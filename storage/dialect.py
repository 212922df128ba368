"""How the schema and the stores' SQL are written once for both backends: the migration record,
the dialects' type names and the few query forms they spell differently (text order, row locks,
array membership, arrays as rows: `Dialect`, asked through `storage.db.Db.dialect`), and
`Table`, which renders one table's DDL per dialect (`storage.schema` states them).

A table's columns hold `{big}` (a 64-bit integer: Discord ids and the keys that refer to them),
`{rowid}` (an id the database assigns), `{serial}` (one it never reuses) and `{real}`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: the statements that take the database from version-1 to version."""

    version: int
    name: str
    statements: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Dialect:
    """The type names one backend spells differently."""

    big: str
    rowid: str
    serial: str
    real: str
    without_rowid: bool
    """SQLite's clustered tables for composite keys (PostgreSQL has no such option)."""
    blob: str = "BLOB"
    text_order: str = ""
    """After a text column in `ORDER BY` or a comparison: the order of its bytes (SQLite's own;
    PostgreSQL's `COLLATE "C"`), the order stored instants and ids sort in."""
    row_locks: bool = False
    """Whether `SELECT … FOR UPDATE / FOR SHARE` exists (see `lock_rows`)."""
    json_arrays: bool = True
    """Arrays travel as JSON text and are read with `json_each` (SQLite has no array type)."""
    fold: str = "lower({})"
    """A text with A-Z in lower case, and only those (as SQLite's `lower`, `LIKE`, NOCASE)."""
    find: str = "instr"
    """Where a text first holds another (1 on), 0 if nowhere."""

    def lock_rows(self, mode: str = "UPDATE", *, of: str = "", skip_locked: bool = False
                  ) -> str:
        """After a `SELECT` in a transaction: lock its rows (of table `of`) until the end,
        `mode` UPDATE or SHARE, passing over rows another holds when `skip_locked`. Nothing on
        SQLite, whose transaction holds the one write lock already."""
        if not self.row_locks:
            return ""
        return f" FOR {mode}{f' OF {of}' if of else ''}{' SKIP LOCKED' if skip_locked else ''}"

    def in_array(self, param: str) -> str:
        """`IN` the array bound at `param` (e.g. `$2`, given by `array`)."""
        if self.json_arrays:
            return f"IN (SELECT value FROM json_each({param}))"
        return f"= ANY({param})"

    def array(self, values: Iterable[object]) -> object:
        """`values` as one bound array for `in_array` or `zipped`."""
        return json.dumps(list(values)) if self.json_arrays else list(values)

    def zipped(self, *arrays: tuple[str, str]) -> str:
        """A table (after `FROM`) of the arrays bound at the params read side by side, as
        columns `c1`, `c2`…, and `n`, each row's place (to `ORDER BY`, so that rows inserted
        from it take ids in the arrays' order); `arrays` are (param, PostgreSQL element type)
        pairs, e.g. `("$4", "bigint")`, each bound by `array`. A `SELECT` from it that an
        `ON CONFLICT` follows needs a `WHERE` (SQLite's parser).

        On SQLite each array is read by `json_each` into a materialized table that the join
        by position searches through an automatic index: joined directly, `json_each` tables
        (no index, no statistics) may be nested in any order, and a few arrays of a hundred
        values took a minute."""
        if not self.json_arrays:
            params = ", ".join(f"{param}::{kind}[]" for param, kind in arrays)
            names = ", ".join(f"c{i}" for i in range(1, len(arrays) + 1))
            return f"unnest({params}) WITH ORDINALITY AS zipped ({names}, n)"
        tables = ", ".join(f"a{i} AS MATERIALIZED (SELECT key, value FROM json_each({param}))"
                           for i, (param, _) in enumerate(arrays, 1))
        columns = ", ".join([*(f"a{i}.value AS c{i}" for i in range(1, len(arrays) + 1)),
                             "a1.key AS n"])
        joins = "".join(f" JOIN a{i} ON a{i}.key = a1.key" for i in range(2, len(arrays) + 1))
        return f"(WITH {tables} SELECT {columns} FROM a1{joins}) AS zipped"

    def folded(self, column: str) -> str:
        """`column` with A-Z in lower case (compared with a value folded likewise)."""
        return self.fold.format(column)

    def contains_folded(self, column: str, param: str) -> str:
        """Whether `column`, `folded`, holds the text bound at `param` (bound folded)."""
        return f"{self.find}({self.folded(column)}, {param}) > 0"

    def types(self) -> dict[str, str]:
        """The placeholders a table's columns may hold."""
        return {"big": self.big, "rowid": self.rowid, "serial": self.serial, "real": self.real,
                "blob": self.blob}


SQLITE = Dialect(big="INTEGER", rowid="INTEGER PRIMARY KEY",
                 serial="INTEGER PRIMARY KEY AUTOINCREMENT", real="REAL", without_rowid=True)
POSTGRES = Dialect(big="BIGINT", rowid="BIGSERIAL PRIMARY KEY", serial="BIGSERIAL PRIMARY KEY",
                   real="DOUBLE PRECISION", without_rowid=False, blob="BYTEA",
                   text_order=' COLLATE "C"', row_locks=True, json_arrays=False,
                   fold="translate({}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', "
                        "'abcdefghijklmnopqrstuvwxyz')", find="strpos")

_COLUMN_INDENT = " " * 16
_CLOSE_INDENT = " " * 12
_CONSTRAINTS = ("PRIMARY KEY (", "UNIQUE (")


@dataclass(frozen=True, slots=True)
class Table:
    """A table both backends create: its columns then its table constraints, one per line."""

    name: str
    lines: tuple[str, ...]
    without_rowid: bool = False
    indexes: tuple[str, ...] = ()
    """Its indexes, the same in both dialects."""

    def create(self, dialect: Dialect, *, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The table (see `sql`) and then its indexes."""
        return (self.sql(dialect, extra=extra), *self.indexes)

    def sql(self, dialect: Dialect, *, extra: tuple[str, ...] = ()) -> str:
        """`CREATE TABLE` in `dialect`; `extra` columns (one backend's own) go after the
        shared columns, before the constraints."""
        lines = [line.format(**dialect.types()) for line in self.lines]
        at = next((i for i, line in enumerate(lines) if line.startswith(_CONSTRAINTS)),
                  len(lines))
        lines[at:at] = extra
        body = ",\n".join(_COLUMN_INDENT + line for line in lines)
        suffix = " WITHOUT ROWID" if self.without_rowid and dialect.without_rowid else ""
        return f"CREATE TABLE {self.name} (\n{body}\n{_CLOSE_INDENT}){suffix}"


def create_all(dialect: Dialect, *tables: Table) -> tuple[str, ...]:
    """Each of `tables` (with its indexes) in `dialect`, in order."""
    return tuple(statement for table in tables for statement in table.create(dialect))


def add_columns(table: str, columns: Iterable[str], *, together: bool = False
                ) -> tuple[str, ...]:
    """`ALTER TABLE table ADD COLUMN` each of `columns`: a statement each, or one for all
    (`together`, as PostgreSQL allows)."""
    adds = [f"ADD COLUMN {column}" for column in columns]
    if together:
        return (f"ALTER TABLE {table} {', '.join(adds)}",)
    return tuple(f"ALTER TABLE {table} {add}" for add in adds)
