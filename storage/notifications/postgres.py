"""The notification outbox on PostgreSQL: units leased to one process at a time.

A claim is one statement: it locks the first row (the head) of the oldest claimable unit of a
server on the process's shards with `FOR UPDATE SKIP LOCKED`, then leases every row of that unit.
Only heads are ever locked by a claim, so two processes claiming at once take different units,
never half of one, and never wait on each other.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date

import asyncpg

from domain.digest import LedgerStatus
from domain.outbox import OutboxKind, OutboxUnit, correction_of
from domain.shards import ALL_SHARDS, Shards
from domain.subscriptions import Delivery
from storage.notifications.rows import ENTRY_COLUMNS, unit_from_rows
from storage.postgres.database import PgDatabase, rows_affected
from storage.shard_filter import pg_shard_condition
from storage.times import utc_timestamp

_CLAIMABLE = "(lease_until IS NULL OR lease_until <= $3)"


async def enqueue_units(conn: asyncpg.Connection, units: Iterable[OutboxUnit]) -> int:
    """Queue units in one statement inside a transaction, leaving out members already told or
    queued about the paper in the server; returns how many rows were queued."""
    rows = [(unit.key, unit.kind.value, e.guild_id, e.user_id, e.paper_id,
             json.dumps(list(e.topics)), e.channel_id, e.link)
            for unit in units for e in unit.entries]
    if not rows:
        return 0
    columns = list(zip(*rows, strict=True))
    return rows_affected(await conn.execute(
        f"INSERT INTO outbox (unit, kind, {ENTRY_COLUMNS}, created_at) "
        "SELECT t.unit, t.kind, g, u, p, topics, channel_id, link, $9 "
        "FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], "
        "$6::text[], $7::bigint[], $8::text[]) WITH ORDINALITY "
        "AS t (unit, kind, g, u, p, topics, channel_id, link, n) "
        "WHERE NOT EXISTS (SELECT 1 FROM notifications WHERE guild_id = t.g "
        "AND user_id = t.u AND paper_id = t.p) ORDER BY n ON CONFLICT DO NOTHING",
        *(list(c) for c in columns), utc_timestamp()))


class PgOutboxStore:
    """The `outbox` table."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def enqueue(self, units: Iterable[OutboxUnit]) -> int:
        """Queue units in one statement, leaving out members already told or queued about the
        paper in the server; returns how many rows were queued."""
        async with self._db.transaction() as conn:
            return await enqueue_units(conn, units)

    async def queue_followers(self, guild_id: int, local_date: date, paper_id: str,
                              told: Iterable[int], units: Iterable[OutboxUnit]) -> int | None:
        """In one transaction: mark the posted ledger row's followers queued, record `told` (the
        members its post pinged) and queue `units`; returns the rows queued, or None (nothing
        written) when the row's followers were queued before or it is not posted."""
        async with self._db.transaction() as conn:
            marked = rows_affected(await conn.execute(
                "UPDATE digest_ledger SET followers_queued = 1 WHERE guild_id = $1 "
                "AND local_date = $2 AND status = $3 AND followers_queued = 0",
                guild_id, local_date.isoformat(), LedgerStatus.POSTED.value))
            if not marked:
                return None
            await conn.execute(
                "INSERT INTO notifications (guild_id, user_id, paper_id, via, notified_at) "
                "SELECT $1, u, $2, $3, $4 FROM unnest($5::bigint[]) AS t (u) "
                "ON CONFLICT DO NOTHING",
                guild_id, paper_id, Delivery.MENTION.value, utc_timestamp(), list(told))
            return await enqueue_units(conn, units)

    async def claim(self, owner: str, now: float, lease_until: float,
                    shards: Shards = ALL_SHARDS) -> OutboxUnit | None:
        """Lease the oldest claimable unit of a server on `shards` to `owner`, or None when
        nothing is claimable: one statement (see the module's docstring)."""
        where, params = pg_shard_condition(shards, 4)
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                "WITH head AS (SELECT o.unit FROM outbox o "
                f"WHERE {_CLAIMABLE} AND {where} AND NOT EXISTS (SELECT 1 FROM outbox e "
                "WHERE e.unit = o.unit AND e.id < o.id) "
                "ORDER BY o.id LIMIT 1 FOR UPDATE OF o SKIP LOCKED) "
                "UPDATE outbox SET owner = $1, lease_until = $2, attempts = attempts + 1 "
                f"WHERE unit = (SELECT unit FROM head) AND {_CLAIMABLE} "
                f"RETURNING id, unit, kind, attempts, {ENTRY_COLUMNS}",
                owner, lease_until, now, *params)
        return unit_from_rows(sorted(rows, key=lambda r: r[0]))

    async def complete(self, key: str, owner: str) -> int:
        """Discord accepted the unit: delete its rows and record its members as told (only
        while `owner` still holds it; a correction's proposer as told its outcome); returns
        how many members were recorded."""
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                "DELETE FROM outbox WHERE unit = $1 AND owner = $2 "
                "RETURNING kind, guild_id, user_id, paper_id", key, owner)
            if rows:
                await conn.execute(
                    "INSERT INTO notifications (guild_id, user_id, paper_id, via, notified_at) "
                    "SELECT g, u, p, via, $5 FROM unnest($1::bigint[], $2::bigint[], $3::text[], "
                    "$4::text[]) AS t (g, u, p, via) ON CONFLICT DO NOTHING",
                    [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows],
                    [OutboxKind(r[0]).via.value for r in rows], utc_timestamp())
                told = [n for r in rows if (n := correction_of(str(r[3]))) is not None]
                if told:
                    await conn.execute("UPDATE corrections SET outcome_notified = 1 "
                                       "WHERE id = ANY($1::bigint[])", told)
        return len(rows)

    async def retry_later(self, key: str, owner: str, not_before: float) -> None:
        """Give the unit back, claimable again from `not_before`."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET owner = NULL, lease_until = $1 WHERE unit = $2 AND owner = $3",
                not_before, key, owner)

    async def drop(self, key: str, owner: str) -> int:
        """Discord refused the unit for good: delete it without recording anyone as told."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM outbox WHERE unit = $1 AND owner = $2", key, owner))

    async def drop_dms(self, user_id: int) -> int:
        """Delete every DM queued for a member (their DMs were refused)."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "DELETE FROM outbox WHERE user_id = $1 AND kind != $2", user_id,
                OutboxKind.MENTION.value))

    async def release(self, owner: str) -> int:
        """Give back every unit `owner` holds, claimable at once (a clean shutdown)."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "UPDATE outbox SET owner = NULL, lease_until = NULL WHERE owner = $1", owner))

    async def pending(self) -> int:
        """How many rows wait to be sent."""
        return int(await self._db.fetchval("SELECT count(*) FROM outbox"))
