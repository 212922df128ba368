"""Bridge, until `storage.corrections` is written once over `storage.db`: the outbox's
`enqueue_units` inside its SQLite transaction. Goes with that change."""

from __future__ import annotations

from collections.abc import Iterable

import aiosqlite

from domain.outbox import OutboxUnit
from storage import db, dialect
from storage.notifications import store


async def enqueue_units(conn: aiosqlite.Connection, units: Iterable[OutboxUnit]) -> int:
    """`store.enqueue_units` on the caller's connection."""
    return await store.enqueue_units(db.tx_on(conn), dialect.SQLITE, units)
