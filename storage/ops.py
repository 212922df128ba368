"""What operations read from the database on either backend: the outbox's depth and the age
of its oldest unit (for `/metrics`), the integrity check and the row counts (for
`paperclub db check`)."""

from __future__ import annotations

from datetime import datetime

from storage.db import Db
from storage.sqlite.database import Database

_OUTBOX = "SELECT count(*), min(created_at) FROM outbox"


async def outbox_summary(db: Db) -> tuple[int, datetime | None]:
    """How many rows wait in the outbox, and when the oldest was queued (None: empty)."""
    row = await db.fetch_one(_OUTBOX)
    count, oldest = (row[0], row[1]) if row else (0, None)
    return int(count), datetime.fromisoformat(str(oldest)) if oldest else None


async def integrity_problems(db: Db) -> list[str]:
    """SQLite's `PRAGMA integrity_check` lines (none when sound); on PostgreSQL, whose server
    checks its own pages, the catalog's indexes that are not valid (an interrupted build)."""
    if isinstance(db, Database):
        rows = await db.fetch("PRAGMA integrity_check")
        return [str(r[0]) for r in rows if str(r[0]) != "ok"]
    rows = await db.fetch(
        "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND NOT i.indisvalid ORDER BY 1")
    return [f"index {r[0]} is not valid" for r in rows]
