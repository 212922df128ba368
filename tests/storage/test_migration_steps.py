"""Migrations stated once (`storage.migrations`): one step, each backend's numbered migration."""

from __future__ import annotations

from storage.dialect import Table
from storage.migrations import (
    POSTGRES_SHIPPED,
    SHIPPED,
    SQLITE_SHIPPED,
    Step,
    migrations,
    mirrored,
)
from storage.postgres.migrations import SQLITE_VERSION

NOTE = Step("a note", ("ALTER TABLE t ADD COLUMN who {big} NOT NULL DEFAULT 0",
                       "UPDATE t SET tags = '{a,b}'", Table("u", ("id {rowid}",))))
STEPS = (NOTE, Step("a PostgreSQL index", ("CREATE INDEX t_who ON t (who)",), only="postgres"),
         Step("a SQLite one", ("ANALYZE",), only="sqlite"), NOTE)


def test_a_step_is_rendered_and_numbered_for_each_backend_that_takes_it() -> None:
    lite, pg = migrations("sqlite", STEPS), migrations("postgres", STEPS)
    assert [(m.version, m.name) for m in lite] == [
        (SQLITE_SHIPPED + 1, "a note"), (SQLITE_SHIPPED + 2, "a SQLite one"),
        (SQLITE_SHIPPED + 3, "a note")]
    assert [(m.version, m.name) for m in pg] == [
        (POSTGRES_SHIPPED + 1, f"SQLite {SQLITE_SHIPPED + 1}: a note"),
        (POSTGRES_SHIPPED + 2, "a PostgreSQL index"),
        (POSTGRES_SHIPPED + 3, f"SQLite {SQLITE_SHIPPED + 3}: a note")]
    assert lite[0].statements[:2] == ("ALTER TABLE t ADD COLUMN who INTEGER NOT NULL DEFAULT 0",
                                      "UPDATE t SET tags = '{a,b}'")
    assert pg[0].statements[0].endswith("who BIGINT NOT NULL DEFAULT 0")
    assert "id BIGSERIAL PRIMARY KEY" in pg[0].statements[2]
    assert mirrored(STEPS) == {POSTGRES_SHIPPED + 1: SQLITE_SHIPPED + 1,
                               POSTGRES_SHIPPED + 2: SQLITE_SHIPPED + 1,
                               POSTGRES_SHIPPED + 3: SQLITE_SHIPPED + 3}



def test_each_shipped_pair_is_the_one_db_copy_knows() -> None:
    """A shipped migration stated once names its two versions; `paperclub db copy` pairs them
    the same way."""
    assert SHIPPED
    for sqlite_version, postgres_version, _ in SHIPPED:
        assert SQLITE_VERSION[postgres_version] == sqlite_version
