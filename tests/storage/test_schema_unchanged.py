"""The migrations are forward-only: restating the schema's shared part once (`storage/schema.py`)
must not change one byte of a shipped migration, nor the schema a fresh database ends with.

The golden files in `schema_golden/` were written by this module from the migrations as they
were before the shared part was factored out (`PAPERCLUB_WRITE_SCHEMA_GOLDEN=1` rewrites them:
only ever for a new migration, and review the diff)."""

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

GOLDEN = Path(__file__).resolve().parent / "schema_golden"
WRITE = os.environ.get("PAPERCLUB_WRITE_SCHEMA_GOLDEN") == "1"


def _check(name: str, found: Any) -> None:
    """`found` equals the golden file `name` (or becomes it, when rewriting)."""
    path = GOLDEN / name
    if WRITE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(_lines(found) + "\n", encoding="utf-8")
    assert found == json.loads(path.read_text(encoding="utf-8"))


def _lines(value: Any) -> str:
    """JSON with one row per line, so that a diff names the table that changed."""
    if isinstance(value, dict):
        parts = [f"{json.dumps(key)}: {_lines(item)}" for key, item in value.items()]
        return "{\n" + ",\n".join(parts) + "\n}"
    return "[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in value) + "\n]"


def _statements(migrations: tuple[Migration, ...]) -> list[list[Any]]:
    return [[m.version, m.name, list(m.statements)] for m in migrations]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_every_migration_states_the_same_ddl(backend: str) -> None:
    """Each shipped migration's statements, byte for byte."""
    module = sqlite_migrations if backend == "sqlite" else pg_migrations
    _check(f"{backend}_migrations.json", _statements(module.MIGRATIONS))


async def test_a_migrated_sqlite_file_has_the_same_schema(tmp_path: Path) -> None:
    """`sqlite_master` of a fresh database: every table, index and trigger with its SQL."""
    db = await Database.open(tmp_path / "schema.db")
    try:
        async with db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
            rows = [list(row) for row in await cursor.fetchall()]
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


async def test_a_migrated_postgres_database_has_the_same_schema(postgres_url: str) -> None:
    """`information_schema.columns`, the indexes and the constraints of a fresh database."""
    db = await PgDatabase.open(postgres_url)
    try:
        found = {name: [list(row) for row in await db.fetch(sql)] for name, sql in
                 (("columns", _PG_COLUMNS), ("indexes", _PG_INDEXES),
                  ("constraints", _PG_CONSTRAINTS))}
    finally:
        await db.close()
    _check("postgres_schema.json", found)
