"""The migrations are forward-only: a shipped migration never changes by one byte, nor the
schema a database migrated to the last shipped version ends with.

The golden files in `schema_golden/` pin every shipped migration of both backends and the schema
they build. A migration past them is new (a branch's, numbered at its merge): these tests pass
it by, and `PAPERCLUB_WRITE_SCHEMA_GOLDEN=1` pins it (the migrations' files gain it, the schemas
are rewritten at the new last version) but never rewrites a migration pinned already."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from storage.dialect import Migration
from storage.postgres import migrations as pg_migrations
from storage.postgres.database import PgDatabase
from storage.sqlite import migrations as sqlite_migrations
from storage.sqlite.database import Database
from tests.backends import NOT_RUN
from tools.throwaway_postgres import PostgresServer

GOLDEN = Path(__file__).resolve().parent / "schema_golden"
WRITE = os.environ.get("PAPERCLUB_WRITE_SCHEMA_GOLDEN") == "1"


def _golden(name: str) -> Any:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def _write(name: str, found: Any) -> None:
    (GOLDEN / name).write_text(_lines(found) + "\n", encoding="utf-8")


def _check(name: str, found: Any) -> None:
    """`found` equals the golden file `name` (or becomes it, when pinning new migrations)."""
    if WRITE:
        _write(name, found)
    assert found == _golden(name)


def _lines(value: Any) -> str:
    """JSON with one row per line, so that a diff names the table that changed."""
    if isinstance(value, dict):
        parts = [f"{json.dumps(key)}: {_lines(item)}" for key, item in value.items()]
        return "{\n" + ",\n".join(parts) + "\n}"
    return "[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in value) + "\n]"


def _statements(migrations: tuple[Migration, ...]) -> list[list[Any]]:
    return [[m.version, m.name, list(m.statements)] for m in migrations]


MODULES = {"sqlite": sqlite_migrations, "postgres": pg_migrations}


def _shipped_version(backend: str) -> int:
    """The last pinned version (every version, when pinning the new ones)."""
    if WRITE:
        return int(MODULES[backend].LATEST_VERSION)
    return int(_golden(f"{backend}_migrations.json")[-1][0])


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_every_shipped_migration_states_the_same_ddl(backend: str) -> None:
    """Each pinned migration's name and statements, byte for byte; new ones follow them."""
    name = f"{backend}_migrations.json"
    found = _statements(MODULES[backend].MIGRATIONS)
    pinned = _golden(name)
    assert found[:len(pinned)] == pinned
    if WRITE and len(found) > len(pinned):
        _write(name, found)


async def test_a_migrated_sqlite_file_has_the_same_schema(tmp_path: Path) -> None:
    """`sqlite_master` of a fresh database: every table, index and trigger with its SQL."""
    db = await Database.open(tmp_path / "schema.db", migrate=False)
    try:
        await db.migrate(_shipped_version("sqlite"))
        rows = [list(row) for row in await db.fetch(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")]
    finally:
        await db.close()
    _check("sqlite_master.json", rows)


_PG_COLUMNS = (
    "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default "
    "FROM information_schema.columns WHERE table_schema = 'public' "
    "ORDER BY table_name, ordinal_position")
_PG_INDEXES = ("SELECT tablename, indexname, indexdef FROM pg_indexes "
               "WHERE schemaname = 'public' ORDER BY tablename, indexname")
_PG_CONSTRAINTS = (
    "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid) "
    "FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
    "WHERE n.nspname = 'public' ORDER BY 1, 2")


async def test_a_migrated_postgres_database_has_the_same_schema(
        postgres_server: PostgresServer | None) -> None:
    """`information_schema.columns`, the indexes and the constraints of a fresh database."""
    if postgres_server is None:
        pytest.skip(NOT_RUN)
    url = await postgres_server.fresh_database(migrated=False)
    db = await PgDatabase.open(url, migrate=False)
    try:
        await db.migrate(_shipped_version("postgres"))
        found = {name: [list(row) for row in await db.fetch(sql)] for name, sql in
                 (("columns", _PG_COLUMNS), ("indexes", _PG_INDEXES),
                  ("constraints", _PG_CONSTRAINTS))}
    finally:
        await db.close()
        await postgres_server.drop_database(url)
    _check("postgres_schema.json", found)
