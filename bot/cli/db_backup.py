"""`paperclub db backup FILE`, `db restore FILE` and `db check`, on the configured database
(`--config`, `--db`, `PAPERCLUB_DATABASE__…`), besides `db copy`. A backup is taken while the
bot runs; a restore wants it stopped. Exit codes: 0 done (check: sound), 1 check found
damage, 2 bad input or a refusal (one line)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from bot.cli.common import EXIT_OK, common_options, out, run_sync, settings_of
from bot.cli.db_copy import db_group
from bot.settings import DatabaseSettings
from domain.storage_faults import StorageError
from storage.backup import backup_postgres, backup_sqlite, restore_postgres, restore_sqlite
from storage.copy import side
from storage.ops import integrity_problems
from storage.postgres.database import PgDatabase, where_of
from storage.postgres.migrations import LATEST_VERSION as PG_LATEST
from storage.sqlite.database import Database
from storage.sqlite.migrations import LATEST_VERSION as SQLITE_LATEST

EXIT_DAMAGED = 1
__all__ = ["db_group"]


def _where(database: DatabaseSettings) -> str:
    url = database.postgres_url
    return where_of(url) if url else str(database.sqlite_path)


@db_group.command("backup")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@common_options
def backup_command(file: Path) -> int:
    """Back the configured database up into FILE (a new file), while the bot runs: SQLite's
    online backup, or PostgreSQL's pg_dump -Fc."""
    database = settings_of(click.get_current_context()).database
    if (url := database.postgres_url) is not None:
        backup_postgres(url, file)
    else:
        backup_sqlite(database.sqlite_path, file)
    out.print(f"backed up {escape(_where(database))} to {escape(str(file))} "
              f"({file.stat().st_size:,} bytes)")
    return EXIT_OK


@db_group.command("restore")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@common_options
def restore_command(file: Path) -> int:
    """Replace the configured database by the backup FILE (checked first). Stop the bot
    before, start it after: it goes on from the backup's moment."""
    database = settings_of(click.get_current_context()).database
    if (url := database.postgres_url) is not None:
        restore_postgres(file, url)
    else:
        restore_sqlite(file, database.sqlite_path)
    out.print(f"restored {escape(_where(database))} from {escape(str(file))}")
    return EXIT_OK


async def _check(database: DatabaseSettings) -> int:
    url = database.postgres_url
    if url is None and not database.sqlite_path.is_file():
        raise StorageError(f"no such SQLite database: {database.sqlite_path}")
    db: Database | PgDatabase = (await PgDatabase.open(url, migrate=False) if url else
                                 await Database.open(database.sqlite_path, migrate=False))
    try:
        problems = await integrity_problems(db)
        version, latest = await db.schema_version(), PG_LATEST if url else SQLITE_LATEST
        view = side(db)
        counts = {table: await view.count(table) for table in sorted(await view.tables())}
    finally:
        await db.close()
    out.print(f"database: {escape(_where(database))}")
    out.print("integrity: " + ("ok" if not problems else escape("; ".join(problems[:5]))))
    out.print(f"schema version: {version} " + (
        "(current)" if version == latest else
        f"(this paperclub's is {latest}: the bot migrates it when it starts)"))
    width = max(map(len, counts), default=5)
    for table, count in counts.items():
        out.print(f"  {table:<{width}} {count:>10,}")
    return EXIT_DAMAGED if problems else EXIT_OK


@db_group.command("check")
@common_options
def check_command() -> int:
    """Check the configured database: integrity, schema version, rows per table."""
    return run_sync(_check(settings_of(click.get_current_context()).database))


