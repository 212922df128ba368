"""Bridge, until `storage.papers` is written once over `storage.db`: `record_unannounced`
inside its SQLite transaction. Goes with that change."""

from __future__ import annotations

from collections.abc import Iterable

import aiosqlite

from storage import db, dialect
from storage.notifications import store


async def record_unannounced(conn: aiosqlite.Connection, paper_ids: Iterable[str]) -> None:
    """`store.record_unannounced` on the caller's connection."""
    await store.record_unannounced(db.tx_on(conn), dialect.SQLITE, paper_ids)
