"""The notification outbox and the papers still to be announced, written once over
`storage.db` for both backends.

The outbox holds rows to send, claimed by one process at a time with a lease: a row per
(server, member, paper) — the key of the `notifications` ledger too — so a member
queued or told once is never queued again. Rows sharing a `unit` make one Discord message.
A claim is one statement: it takes the first row (the head) of the oldest claimable unit of a
server on the process's shards, skipping heads another transaction has locked (PostgreSQL's
`FOR UPDATE SKIP LOCKED`; SQLite's one write lock lets one claim run at a time), then leases
every row of that unit. Two processes never hold the same unit, nor half of one; a lease that
expires (its process died) is taken over.
Completing deletes the unit's rows and records its members as told in the same transaction.

The papers' transaction records the papers it adds as unannounced (`record_unannounced`); a
process leases a batch (one conditional UPDATE, skipping rows another is leasing), works out
who to tell, and in one transaction deletes the rows it still holds and queues their DMs: a
kill at any moment leaves either the rows (worked out again once the lease expires) or the
queued DMs, never neither, never both.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence, Set
from datetime import date, datetime
from typing import Any

from domain.digest import LedgerStatus
from domain.leases import Lease
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit, correction_of
from domain.shards import ALL_SHARDS, Shards
from domain.subscriptions import Delivery
from storage.db import Store, Tx
from storage.dialect import Dialect
from storage.shard_filter import shard_condition
from storage.times import stored, utc_timestamp

_ENTRY_COLUMNS = "guild_id, user_id, paper_id, topics, channel_id, link"
_CLAIMABLE = "(lease_until IS NULL OR lease_until <= $3)"
_NOTIFIED = "INSERT INTO notifications (guild_id, user_id, paper_id, via, notified_at) "


async def enqueue_units(tx: Tx, dialect: Dialect, units: Iterable[OutboxUnit]) -> int:
    """Queue units in one statement inside the caller's transaction, leaving out members
    already told or queued about the paper in the server; returns how many rows were queued."""
    rows = [(unit.key, unit.kind.value, e.guild_id, e.user_id, e.paper_id,
             json.dumps(list(e.topics)), e.channel_id, e.link)
            for unit in units for e in unit.entries]
    if not rows:
        return 0
    table = dialect.zipped(("$1", "text"), ("$2", "text"), ("$3", "bigint"), ("$4", "bigint"),
                           ("$5", "text"), ("$6", "text"), ("$7", "bigint"), ("$8", "text"))
    return await tx.execute(
        f"INSERT INTO outbox (unit, kind, {_ENTRY_COLUMNS}, created_at) "
        f"SELECT c1, c2, c3, c4, c5, c6, c7, c8, $9 FROM {table} "
        "WHERE NOT EXISTS (SELECT 1 FROM notifications WHERE guild_id = c3 "
        "AND user_id = c4 AND paper_id = c5) ORDER BY n ON CONFLICT DO NOTHING",
        *(dialect.array(column) for column in zip(*rows, strict=True)), utc_timestamp())


async def record_unannounced(tx: Tx, dialect: Dialect, paper_ids: Iterable[str]) -> None:
    """Inside the papers' transaction: these new papers are still to be announced (in this
    order, the order they are claimed in)."""
    ids = list(paper_ids)
    if ids:
        await tx.execute(
            "INSERT INTO unannounced_papers (paper_id, added_at) SELECT c1, $2 "
            f"FROM {dialect.zipped(('$1', 'text'))} WHERE true ORDER BY n "
            "ON CONFLICT DO NOTHING", dialect.array(ids), utc_timestamp())


def _unit_from_rows(rows: Sequence[Sequence[Any]]) -> OutboxUnit | None:
    """The unit a claim returned (`id, unit, kind, attempts, _ENTRY_COLUMNS` rows sorted by id),
    or None for no rows."""
    if not rows:
        return None
    return OutboxUnit(str(rows[0][1]), OutboxKind(rows[0][2]),
                      tuple(OutboxEntry(int(r[4]), int(r[5]), str(r[6]), tuple(json.loads(r[7])),
                                        r[8], r[9]) for r in rows),
                      attempts=max(int(r[3]) for r in rows))


def _announced_units(units: Iterable[OutboxUnit], held: Set[str]) -> list[OutboxUnit]:
    """The units with only their entries about papers in `held` (those left empty dropped)."""
    kept = [dataclasses.replace(unit, entries=tuple(e for e in unit.entries
                                                    if e.paper_id in held)) for unit in units]
    return [unit for unit in kept if unit.entries]


class OutboxStore(Store):
    """The `outbox` table."""

    async def queue_followers(self, guild_id: int, local_date: date, paper_id: str,
                              told: Iterable[int], units: Iterable[OutboxUnit]) -> int | None:
        """In one transaction: mark the posted ledger row's followers queued, record `told` (the
        members its post pinged) and queue `units`; returns the rows queued, or None (nothing
        written) when the row's followers were queued before or it is not posted."""
        async with self._db.transaction() as tx:
            marked = await tx.execute(
                "UPDATE digest_ledger SET followers_queued = 1 WHERE guild_id = $1 "
                "AND local_date = $2 AND status = $3 AND followers_queued = 0",
                guild_id, local_date.isoformat(), LedgerStatus.POSTED.value)
            if not marked:
                return None
            await tx.execute(
                f"{_NOTIFIED}SELECT $1, c1, $2, $3, $4 "
                f"FROM {self._dialect.zipped(('$5', 'bigint'))} WHERE true ON CONFLICT DO NOTHING",
                guild_id, paper_id, Delivery.MENTION.value, utc_timestamp(),
                self._dialect.array(told))
            return await enqueue_units(tx, self._dialect, units)

    async def claim(self, owner: str, now: float, lease_until: float,
                    shards: Shards = ALL_SHARDS) -> OutboxUnit | None:
        """Lease the oldest claimable unit of a server on `shards` to `owner`, or None when
        nothing is claimable: one statement (see the module's docstring)."""
        where, params = shard_condition(shards, 4)
        lock = self._dialect.lock_rows(of="o", skip_locked=True)
        rows = await self._db.returning(
            "UPDATE outbox SET owner = $1, lease_until = $2, attempts = attempts + 1 "
            f"WHERE {_CLAIMABLE} AND unit = (SELECT o.unit FROM outbox o "
            f"WHERE {_CLAIMABLE} AND {where} AND NOT EXISTS (SELECT 1 FROM outbox e "
            f"WHERE e.unit = o.unit AND e.id < o.id) ORDER BY o.id LIMIT 1{lock}) "
            f"RETURNING id, unit, kind, attempts, {_ENTRY_COLUMNS}",
            owner, lease_until, now, *params)
        return _unit_from_rows(sorted(rows, key=lambda r: r[0]))

    async def complete(self, key: str, owner: str) -> int:
        """Discord accepted the unit: delete its rows and record its members as told (only
        while `owner` still holds it; a correction's proposer as told its outcome); returns
        how many members were recorded."""
        array = self._dialect.array
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "DELETE FROM outbox WHERE unit = $1 AND owner = $2 "
                "RETURNING kind, guild_id, user_id, paper_id", key, owner)
            if not rows:
                return 0
            members = self._dialect.zipped(("$1", "bigint"), ("$2", "bigint"), ("$3", "text"),
                                           ("$4", "text"))
            await tx.execute(
                f"{_NOTIFIED}SELECT c1, c2, c3, c4, $5 FROM {members} WHERE true "
                "ON CONFLICT DO NOTHING",
                array(r[1] for r in rows), array(r[2] for r in rows), array(r[3] for r in rows),
                array(OutboxKind(r[0]).via.value for r in rows), utc_timestamp())
            told = [n for r in rows if (n := correction_of(str(r[3]))) is not None]
            if told:
                await tx.execute("UPDATE corrections SET outcome_notified = 1 "
                                 f"WHERE id {self._dialect.in_array('$1')}", array(told))
        return len(rows)

    async def retry_later(self, key: str, owner: str, not_before: float) -> None:
        """Give the unit back, claimable again from `not_before`."""
        await self._db.execute(
            "UPDATE outbox SET owner = NULL, lease_until = $1 WHERE unit = $2 AND owner = $3",
            not_before, key, owner)

    async def drop(self, key: str, owner: str) -> int:
        """Discord refused the unit for good: delete it without recording anyone as told."""
        return await self._db.execute("DELETE FROM outbox WHERE unit = $1 AND owner = $2",
                                      key, owner)

    async def drop_dms(self, user_id: int) -> int:
        """Delete every DM queued for a member (their DMs were refused)."""
        return await self._db.execute("DELETE FROM outbox WHERE user_id = $1 AND kind != $2",
                                      user_id, OutboxKind.MENTION.value)

    async def release(self, owner: str) -> int:
        """Give back every unit `owner` holds, claimable at once (a clean shutdown)."""
        return await self._db.execute(
            "UPDATE outbox SET owner = NULL, lease_until = NULL WHERE owner = $1", owner)


class AnnouncementStore(Store):
    """The `unannounced_papers` table."""

    async def claim(self, lease: Lease, now: datetime, limit: int) -> list[str]:
        """Lease up to `limit` unannounced papers (never leased, given back, or their lease
        expired at `now`) to `lease.owner`, oldest first."""
        rows = await self._db.returning(
            "UPDATE unannounced_papers SET owner = $1, lease_until = $2 WHERE id IN "
            "(SELECT id FROM unannounced_papers WHERE lease_until IS NULL "
            "OR lease_until <= $3 ORDER BY id LIMIT $4"
            f"{self._dialect.lock_rows(skip_locked=True)}) RETURNING id, paper_id",
            lease.owner, stored(lease.until), stored(now), limit)
        return [str(row[1]) for row in sorted(rows, key=lambda r: r[0])]

    async def announced(self, owner: str, paper_ids: Sequence[str],
                        units: Iterable[OutboxUnit]) -> int | None:
        """In one transaction: delete the papers `owner` still holds and queue the units'
        entries about them; the rows queued, or None when `owner` held none of them."""
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "DELETE FROM unannounced_papers WHERE owner = $1 "
                f"AND paper_id {self._dialect.in_array('$2')} RETURNING paper_id",
                owner, self._dialect.array(paper_ids))
            held = {str(row[0]) for row in rows}
            if not held:
                return None
            return await enqueue_units(tx, self._dialect, _announced_units(units, held))

    async def release(self, owner: str) -> int:
        """Give back every paper `owner` holds (a clean stop)."""
        return await self._db.execute(
            "UPDATE unannounced_papers SET owner = NULL, lease_until = NULL WHERE owner = $1",
            owner)
