"""How the schema is written once for both backends: the migration record, the dialects' type
names, and `Table`, which renders one table's DDL per dialect (`storage.schema` states them).

A table's columns hold `{big}` (a 64-bit integer: Discord ids and the keys that refer to them),
`{rowid}` (an id the database assigns), `{serial}` (one it never reuses) and `{real}`.
"""

from __future__ import annotations

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

    def types(self) -> dict[str, str]:
        """The placeholders a table's columns may hold."""
        return {"big": self.big, "rowid": self.rowid, "serial": self.serial, "real": self.real,
                "blob": self.blob}


SQLITE = Dialect(big="INTEGER", rowid="INTEGER PRIMARY KEY",
                 serial="INTEGER PRIMARY KEY AUTOINCREMENT", real="REAL", without_rowid=True)
POSTGRES = Dialect(big="BIGINT", rowid="BIGSERIAL PRIMARY KEY", serial="BIGSERIAL PRIMARY KEY",
                   real="DOUBLE PRECISION", without_rowid=False, blob="BYTEA")

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
