"""The notification outbox: rows to send, claimed by one process at a time with a lease.

A row per (server, member, paper) — the key of the `notifications` ledger too — so a member
queued or told once is never queued again. Rows sharing a `unit` make one Discord message.
Claiming sets `owner` and `lease_until` on a whole unit in one conditional UPDATE, so two
processes never hold the same unit (on any engine, not only under SQLite's write lock); a
lease that expires (its process died) is taken over.
Completing deletes the unit's rows and records its members as told in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date

import aiosqlite

from domain.digest import LedgerStatus
from domain.outbox import OutboxKind, OutboxUnit, correction_of
from domain.shards import ALL_SHARDS, Shards
from domain.subscriptions import Delivery
from storage.notifications.rows import ENTRY_COLUMNS, unit_from_rows
from storage.shard_filter import shard_condition
from storage.sqlite.database import Database
from storage.times import utc_timestamp

_CLAIMABLE = "(lease_until IS NULL OR lease_until <= ?)"


async def enqueue_units(conn: aiosqlite.Connection, units: Iterable[OutboxUnit]) -> int:
    """Queue units inside a transaction, leaving out members already told or queued about the
    paper in the server; returns how many rows were queued."""
    queued = 0
    now = utc_timestamp()
    for unit in units:
        for entry in unit.entries:
            cursor = await conn.execute(
                f"INSERT OR IGNORE INTO outbox (unit, kind, {ENTRY_COLUMNS}, created_at) "
                "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM "
                "notifications WHERE guild_id = ? AND user_id = ? AND paper_id = ?)",
                (unit.key, unit.kind, entry.guild_id, entry.user_id, entry.paper_id,
                 json.dumps(list(entry.topics)), entry.channel_id, entry.link, now,
                 entry.guild_id, entry.user_id, entry.paper_id))
            queued += cursor.rowcount
    return queued


class SqliteOutboxStore:
    """The `outbox` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def enqueue(self, units: Iterable[OutboxUnit]) -> int:
        """Queue units in one transaction, leaving out members already told or queued about
        the paper in the server; returns how many rows were queued."""
        async with self._db.transaction() as conn:
            return await enqueue_units(conn, units)

    async def queue_followers(self, guild_id: int, local_date: date, paper_id: str,
                              told: Iterable[int], units: Iterable[OutboxUnit]) -> int | None:
        """In one transaction: mark the posted ledger row's followers queued, record `told` (the
        members its post pinged) and queue `units`; returns the rows queued, or None (nothing
        written) when the row's followers were queued before or it is not posted."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE digest_ledger SET followers_queued = 1 WHERE guild_id = ? "
                "AND local_date = ? AND status = ? AND followers_queued = 0",
                (guild_id, local_date.isoformat(), LedgerStatus.POSTED))
            if cursor.rowcount == 0:
                return None
            now = utc_timestamp()
            await conn.executemany(
                "INSERT OR IGNORE INTO notifications (guild_id, user_id, paper_id, via, "
                "notified_at) VALUES (?, ?, ?, ?, ?)",
                [(guild_id, user_id, paper_id, Delivery.MENTION, now) for user_id in told])
            return await enqueue_units(conn, units)

    async def claim(self, owner: str, now: float, lease_until: float,
                    shards: Shards = ALL_SHARDS) -> OutboxUnit | None:
        """Lease the oldest claimable unit of a server on `shards` to `owner`, or None when
        nothing is claimable. One conditional UPDATE: two processes never both get a unit."""
        where, params = shard_condition(shards)
        async with self._db.transaction() as conn, conn.execute(
            "UPDATE outbox SET owner = ?, lease_until = ?, attempts = attempts + 1 "
            f"WHERE {_CLAIMABLE} AND unit = (SELECT unit FROM outbox WHERE {_CLAIMABLE} "
            f"AND {where} ORDER BY id LIMIT 1) RETURNING id, unit, kind, attempts, {ENTRY_COLUMNS}",
            (owner, lease_until, now, now, *params),
        ) as cursor:
            rows = sorted(await cursor.fetchall())
        return unit_from_rows(rows)

    async def complete(self, key: str, owner: str) -> int:
        """Discord accepted the unit: delete its rows and record its members as told (only
        while `owner` still holds it; a correction's proposer as told its outcome); returns
        how many members were recorded."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                f"DELETE FROM outbox WHERE unit = ? AND owner = ? RETURNING kind, {ENTRY_COLUMNS}",
                (key, owner),
            ) as cursor:
                rows = list(await cursor.fetchall())
            now = utc_timestamp()
            for row in rows:
                await conn.execute(
                    "INSERT OR IGNORE INTO notifications (guild_id, user_id, paper_id, via, "
                    "notified_at) VALUES (?, ?, ?, ?, ?)",
                    (row[1], row[2], row[3], OutboxKind(row[0]).via, now))
            told = [(n,) for row in rows if (n := correction_of(str(row[3]))) is not None]
            await conn.executemany(
                "UPDATE corrections SET outcome_notified = 1 WHERE id = ?", told)
        return len(rows)

    async def retry_later(self, key: str, owner: str, not_before: float) -> None:
        """Give the unit back, claimable again from `not_before`."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET owner = NULL, lease_until = ? WHERE unit = ? AND owner = ?",
                (not_before, key, owner))

    async def drop(self, key: str, owner: str) -> int:
        """Discord refused the unit for good: delete it without recording anyone as told."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM outbox WHERE unit = ? AND owner = ?",
                                        (key, owner))
            return cursor.rowcount

    async def drop_dms(self, user_id: int) -> int:
        """Delete every DM queued for a member (their DMs were refused)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM outbox WHERE user_id = ? AND kind != 'mention'", (user_id,))
            return cursor.rowcount

    async def release(self, owner: str) -> int:
        """Give back every unit `owner` holds, claimable at once (a clean shutdown)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE outbox SET owner = NULL, lease_until = NULL WHERE owner = ?", (owner,))
            return cursor.rowcount

    async def pending(self) -> int:
        """How many rows wait to be sent."""
        row = await self._db.fetchone("SELECT count(*) FROM outbox")
        return int(row[0]) if row else 0
