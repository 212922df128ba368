"""Bridge, until `storage.papers` is written once over `storage.db`: `record_unannounced`
inside its PostgreSQL transaction. Goes with that change."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from storage import db, dialect
from storage.notifications import store


async def record_unannounced_pg(conn: asyncpg.Connection, paper_ids: Sequence[str]) -> None:
    """`store.record_unannounced` on the caller's connection."""
    await store.record_unannounced(db.tx_on(conn), dialect.POSTGRES, paper_ids)
