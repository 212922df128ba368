"""`paperclub db copy --from sqlite:PATH --to postgresql://…` (or the reverse): a group's whole
state moved between backends, resumable (run it again after an interruption) and verified by
counts. Exit codes: 0 copied and counts equal, 1 a count differs, 2 bad input or a refusal."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from domain.storage_faults import StorageError
from storage.copy import copy_database
from storage.postgres.database import PgDatabase, where_of
from storage.sqlite.database import Database

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT = 0, 1, 2
_PG_SCHEMES = ("postgresql://", "postgres://")
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class _BadInput(Exception):
    """A refusal with a one-line message (exit 2)."""


def _parse(option: str, value: str) -> Path | str:
    """`sqlite:PATH` as a path, a PostgreSQL URL as itself."""
    if value.startswith("sqlite:"):
        path = value.removeprefix("sqlite:")
        if not path:
            raise _BadInput(f"{option}: sqlite: needs a file path (sqlite:PATH)")
        return Path(path)
    if value.startswith(_PG_SCHEMES):
        return value
    raise _BadInput(f"{option}: expected sqlite:PATH or postgresql://…, got {value!r}")


def _name(where: Path | str) -> str:
    return f"sqlite:{where}" if isinstance(where, Path) else where_of(where)


async def _open(where: Path | str, *, source: bool) -> Database | PgDatabase:
    """The source as it is; the target migrated only when empty (never a version change under
    existing rows). Newer schemas are refused by both opens."""
    if isinstance(where, Path) and source and not where.is_file():
        raise _BadInput(f"--from: no such SQLite file: {where}")
    db: Database | PgDatabase
    db = (await Database.open(where, migrate=False) if isinstance(where, Path)
          else await PgDatabase.open(where, migrate=False))
    try:
        if not source and await db.schema_version() == 0:
            await db.migrate()
    except BaseException:
        await db.close()
        raise
    return db


async def _copy(source: Path | str, target: Path | str, batch: int) -> int:
    src = await _open(source, source=True)
    try:
        dst = await _open(target, source=False)
        try:
            async def progress(table: str, new: int, present: int) -> None:
                already = f" ({present} already there)" if present else ""
                err.print(f"  {table}: +{new}{already}", style="dim")
            counts = await copy_database(src, dst, batch=batch, progress=progress)
        finally:
            await dst.close()
    finally:
        await src.close()
    out.print(f"{'table':<20} {'source':>9} {'target':>9}")
    for count in counts:
        mark = "ok" if count.ok else "MISMATCH"
        out.print(f"{count.table:<20} {count.source:>9} {count.target:>9}  {mark}")
    bad = [c.table for c in counts if not c.ok]
    if bad:
        err.print(f"paperclub: error: row counts differ in {', '.join(bad)}")
        return EXIT_MISMATCH
    new = sum(c.new for c in counts)
    present = sum(c.source for c in counts) - new
    already = f" ({present} already there)" if present else ""
    out.print(f"copied {new} new rows{already} in {len(counts)} tables from "
              f"{escape(_name(source))} to {escape(_name(target))}")
    return EXIT_OK


@click.group("db")
def db_group() -> None:
    """Database maintenance: moving a group between SQLite and PostgreSQL."""


@db_group.command("copy")
@click.option("--from", "source", required=True, metavar="sqlite:PATH|postgresql://…",
              help="The database to copy from (left unchanged).")
@click.option("--to", "target", required=True, metavar="postgresql://…|sqlite:PATH",
              help="The database to copy into (migrated if empty; same schema version).")
@click.option("--batch", type=click.IntRange(1, 100_000), default=1000,
              help="Rows per transaction.")
def copy_command(source: str, target: str, batch: int) -> None:
    """Copy every table (papers, ledger, subscriptions, queue, votes, sessions, settings…)
    in batches; run it again after an interruption; counts are compared at the end."""
    try:
        where = (_parse("--from", source), _parse("--to", target))
        if isinstance(where[0], Path) == isinstance(where[1], Path):
            raise _BadInput("--from and --to: copy between SQLite and PostgreSQL (one of each)")
        code = asyncio.run(_copy(*where, batch))
    except (_BadInput, StorageError) as exc:
        err.print(f"paperclub: error: {escape(' '.join(str(exc).split()))}")
        code = EXIT_BAD_INPUT
    click.get_current_context().exit(code)
