"""Papers whose subscribers are not yet queued their DMs (`unannounced_papers`), on SQLite.

The papers' transaction records them (`record_unannounced`); a process leases a batch (one
conditional UPDATE), works out who to tell, and in one transaction deletes the rows it still
holds and queues their DMs in the outbox: a kill at any moment leaves either the rows (worked
out again once the lease expires) or the queued DMs, never neither, never both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

import aiosqlite

from domain.leases import Lease
from domain.outbox import OutboxUnit
from storage.notifications.rows import announced_units
from storage.notifications.sqlite import enqueue_units
from storage.sqlite.database import Database
from storage.times import stored, utc_timestamp


async def record_unannounced(conn: aiosqlite.Connection, paper_ids: Iterable[str]) -> None:
    """Inside the papers' transaction: these new papers are still to be announced."""
    now = utc_timestamp()
    await conn.executemany(
        "INSERT OR IGNORE INTO unannounced_papers (paper_id, added_at) VALUES (?, ?)",
        [(paper_id, now) for paper_id in paper_ids])


class SqliteAnnouncementStore:
    """The `unannounced_papers` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, lease: Lease, now: datetime, limit: int) -> list[str]:
        """Lease up to `limit` unannounced papers (never leased, given back, or their lease
        expired at `now`) to `lease.owner`, oldest first."""
        async with self._db.transaction() as conn, conn.execute(
            "UPDATE unannounced_papers SET owner = ?, lease_until = ? WHERE id IN (SELECT id "
            "FROM unannounced_papers WHERE lease_until IS NULL OR lease_until <= ? "
            "ORDER BY id LIMIT ?) RETURNING id, paper_id",
            (lease.owner, stored(lease.until), stored(now), limit),
        ) as cursor:
            rows = sorted(await cursor.fetchall())
        return [str(row[1]) for row in rows]

    async def announced(self, owner: str, paper_ids: Sequence[str],
                        units: Iterable[OutboxUnit]) -> int | None:
        """In one transaction: delete the papers `owner` still holds and queue the units'
        entries about them; the rows queued, or None when `owner` held none of them."""
        marks = ", ".join("?" * len(paper_ids))
        async with self._db.transaction() as conn:
            async with conn.execute(
                f"DELETE FROM unannounced_papers WHERE owner = ? AND paper_id IN ({marks}) "
                "RETURNING paper_id", (owner, *paper_ids)) as cursor:
                held = {str(row[0]) for row in await cursor.fetchall()}
            if not held:
                return None
            return await enqueue_units(conn, announced_units(units, held))

    async def release(self, owner: str) -> int:
        """Give back every paper `owner` holds (a clean stop)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE unannounced_papers SET owner = NULL, lease_until = NULL "
                "WHERE owner = ?", (owner,))
            return cursor.rowcount

    async def pending(self) -> int:
        """How many papers wait to be announced."""
        row = await self._db.fetchone("SELECT count(*) FROM unannounced_papers")
        return int(row[0]) if row else 0
