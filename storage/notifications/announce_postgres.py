"""Papers whose subscribers are not yet queued their DMs (`unannounced_papers`), on
PostgreSQL: as on SQLite (`storage.notifications.announce_sqlite`), the claim skipping rows
another process is leasing at that moment (`FOR UPDATE SKIP LOCKED`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

import asyncpg

from domain.leases import Lease
from domain.outbox import OutboxUnit
from storage.notifications.postgres import enqueue_units
from storage.notifications.rows import announced_units
from storage.postgres.database import PgDatabase, rows_affected
from storage.times import stored, utc_timestamp


async def record_unannounced_pg(conn: asyncpg.Connection, paper_ids: Sequence[str]) -> None:
    """Inside the papers' transaction: these new papers are still to be announced."""
    if paper_ids:
        await conn.execute(
            "INSERT INTO unannounced_papers (paper_id, added_at) "
            "SELECT p, $2 FROM unnest($1::text[]) WITH ORDINALITY AS t (p, n) ORDER BY n "
            "ON CONFLICT DO NOTHING", list(paper_ids), utc_timestamp())


class PgAnnouncementStore:
    """The `unannounced_papers` table."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def claim(self, lease: Lease, now: datetime, limit: int) -> list[str]:
        """Lease up to `limit` unannounced papers (never leased, given back, or their lease
        expired at `now`) to `lease.owner`, oldest first."""
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                "UPDATE unannounced_papers SET owner = $1, lease_until = $2 WHERE id IN "
                "(SELECT id FROM unannounced_papers WHERE lease_until IS NULL "
                "OR lease_until <= $3 ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED) "
                "RETURNING id, paper_id",
                lease.owner, stored(lease.until), stored(now), limit)
        return [str(row[1]) for row in sorted(rows, key=lambda r: r[0])]

    async def announced(self, owner: str, paper_ids: Sequence[str],
                        units: Iterable[OutboxUnit]) -> int | None:
        """In one transaction: delete the papers `owner` still holds and queue the units'
        entries about them; the rows queued, or None when `owner` held none of them."""
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                "DELETE FROM unannounced_papers WHERE owner = $1 AND paper_id = ANY($2::text[]) "
                "RETURNING paper_id", owner, list(paper_ids))
            held = {str(row[0]) for row in rows}
            if not held:
                return None
            return await enqueue_units(conn, announced_units(units, held))

    async def release(self, owner: str) -> int:
        """Give back every paper `owner` holds (a clean stop)."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "UPDATE unannounced_papers SET owner = NULL, lease_until = NULL "
                "WHERE owner = $1", owner))

    async def pending(self) -> int:
        """How many papers wait to be announced."""
        return int(await self._db.fetchval("SELECT count(*) FROM unannounced_papers"))
