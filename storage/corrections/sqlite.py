"""Corrections per server (SQLite): proposals, their history and where they are reviewed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import aiosqlite

from domain.corrections import (
    Action,
    Event,
    NewProposal,
    Proposal,
    ReviewSettings,
    Status,
)
from domain.leases import Lease
from storage.corrections.rows import (
    DECIDED,
    EVENT_COLUMNS,
    NOT_QUEUED,
    PROPOSAL_COLUMNS,
    REVIEW_DUE,
    event_from_row,
    outcome_units,
    proposal_from_row,
)
from storage.notifications.sqlite import enqueue_units
from storage.sqlite.database import Database
from storage.times import stored, utc_timestamp


class SqliteCorrectionStore:
    """The `corrections`, `correction_events` and `correction_review` tables."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def propose(self, proposal: NewProposal) -> Proposal:
        """Store a pending proposal (and its "proposed" event)."""
        target = proposal.target
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO corrections (guild_id, paper_id, field, position, old_value, "
                "new_value, reason, proposed_by, created_at, status, source_value) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)",
                (proposal.guild_id, target.paper_id, target.field.value, target.position,
                 proposal.old_value, proposal.new_value, proposal.reason, proposal.proposed_by,
                 stored(proposal.at), proposal.old_value))
            new_id = cursor.lastrowid
            assert new_id is not None
            await _event(conn, new_id, Action.PROPOSED, proposal.proposed_by, proposal.at,
                         proposal.reason)
            row = await _proposal_row(conn, "id = ?", (new_id,))
        assert row is not None
        return row

    async def proposal(self, guild_id: int, proposal_id: int) -> Proposal | None:
        """One of a server's proposals, or None (another server's is None too)."""
        row = await self._db.fetchone(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = ? AND id = ?",
            (guild_id, proposal_id))
        return None if row is None else proposal_from_row(row)

    async def proposals(self, guild_id: int, *, status: Status | None = None,
                        paper_id: str | None = None, limit: int = 50) -> list[Proposal]:
        """A server's proposals, newest first, optionally of one status or paper."""
        value = None if status is None else status.value
        rows = await self._db.fetchall(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = ? "
            "AND (? IS NULL OR status = ?) AND (? IS NULL OR paper_id = ?) "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, value, value, paper_id, paper_id, limit))
        return [proposal_from_row(row) for row in rows]

    async def approved(self, guild_id: int, paper_ids: Sequence[str]) -> list[Proposal]:
        """The approved corrections of these papers, in the order they were decided."""
        if not paper_ids:
            return []
        marks = ", ".join("?" for _ in paper_ids)
        rows = await self._db.fetchall(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = ? "
            f"AND status = 'approved' AND paper_id IN ({marks}) ORDER BY decided_at, id",
            (guild_id, *paper_ids))
        return [proposal_from_row(row) for row in rows]

    async def decide(self, guild_id: int, proposal_id: int, status: Status, by: int,
                     at: datetime, note: str, source_value: str,
                     lease: Lease | None = None) -> Proposal | None:
        """Approve or reject a pending proposal, once (a conditional UPDATE claims it), its
        proposer's DM queued and its review message due (leased to `lease`) in the same
        transaction."""
        action = DECIDED[status]
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE corrections SET status = ?, decided_by = ?, decided_at = ?, "
                "source_value = CASE WHEN ? = 'approved' THEN ? ELSE source_value END, "
                "review_shown = 0, review_owner = ?, review_lease_until = ? "
                "WHERE guild_id = ? AND id = ? AND status = 'pending'",
                (status.value, by, stored(at), status.value, source_value,
                 lease and lease.owner, lease and stored(lease.until), guild_id, proposal_id))
            if cursor.rowcount != 1:
                return None
            await _event(conn, proposal_id, action, by, at, note)
            decided = await _proposal_row(conn, "id = ?", (proposal_id,))
            assert decided is not None
            if status is Status.APPROVED:
                await _supersede(conn, decided, at)
            await enqueue_units(conn, outcome_units(decided))
        return decided

    async def claim_review(self, lease: Lease, now: datetime) -> Proposal | None:
        """Lease the oldest decided proposal whose review message does not show its decision
        (and whose lease is free at `now`) to `lease.owner`."""
        async with self._db.transaction() as conn, conn.execute(
            "UPDATE corrections SET review_owner = ?, review_lease_until = ? WHERE id = "
            f"(SELECT id FROM corrections WHERE {REVIEW_DUE} AND (review_lease_until IS NULL "
            f"OR review_lease_until <= ?) ORDER BY id LIMIT 1) RETURNING {PROPOSAL_COLUMNS}",
            (lease.owner, stored(lease.until), stored(now))) as cursor:
            row = await cursor.fetchone()
        return proposal_from_row(row) if row else None

    async def review_shown(self, proposal_id: int) -> None:
        """The proposal's review message shows its decision now."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE corrections SET review_shown = 1, review_owner = NULL, "
                               "review_lease_until = NULL WHERE id = ?", (proposal_id,))

    async def import_approved(self, proposal: NewProposal, source_value: str) -> Proposal:
        """Store an approved correction applied from a file, superseding the field's earlier
        one, with its "imported" event."""
        target = proposal.target
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO corrections (guild_id, paper_id, field, position, old_value, "
                "new_value, reason, proposed_by, created_at, status, decided_at, source_value, "
                "outcome_notified, imported) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, 'approved', ?, ?, 1, 1)",
                (proposal.guild_id, target.paper_id, target.field.value, target.position,
                 proposal.old_value, proposal.new_value, proposal.reason, stored(proposal.at),
                 stored(proposal.at), source_value))
            new_id = cursor.lastrowid
            assert new_id is not None
            await _event(conn, new_id, Action.IMPORTED, None, proposal.at, proposal.reason)
            imported = await _proposal_row(conn, "id = ?", (new_id,))
            assert imported is not None
            await _supersede(conn, imported, proposal.at)
        return imported

    async def revert(self, guild_id: int, proposal_id: int, by: int, at: datetime,
                     note: str) -> Proposal | None:
        """Withdraw an approved correction, once."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE corrections SET status = 'reverted' "
                "WHERE guild_id = ? AND id = ? AND status = 'approved'", (guild_id, proposal_id))
            if cursor.rowcount != 1:
                return None
            await _event(conn, proposal_id, Action.REVERTED, by, at, note)
            return await _proposal_row(conn, "id = ?", (proposal_id,))

    async def history(self, guild_id: int, paper_id: str) -> list[Event]:
        """Every event of a server's proposals for a paper, oldest first."""
        rows = await self._db.fetchall(
            f"SELECT {', '.join('e.' + c.strip() for c in EVENT_COLUMNS.split(','))} "
            "FROM correction_events e JOIN corrections c ON c.id = e.correction_id "
            "WHERE c.guild_id = ? AND c.paper_id = ? ORDER BY e.at, e.id", (guild_id, paper_id))
        return [event_from_row(row) for row in rows]

    async def set_review_message(self, proposal_id: int, channel_id: int,
                                 message_id: int) -> None:
        """Where the proposal's review message was posted."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE corrections SET channel_id = ?, message_id = ? "
                               "WHERE id = ?", (channel_id, message_id, proposal_id))

    async def claim_outcome_notice(self, proposal_id: int) -> bool:
        """True once per proposal."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE corrections SET outcome_notified = 1 WHERE id = ? "
                f"AND outcome_notified = 0 AND status <> 'pending' AND {NOT_QUEUED}",
                (proposal_id,))
            return cursor.rowcount == 1

    async def release_outcome_notice(self, proposal_id: int) -> None:
        """The proposer could not be told: the notice may be claimed again."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE corrections SET outcome_notified = 0 WHERE id = ?",
                               (proposal_id,))

    async def untold_outcomes(self, guild_id: int, user_id: int) -> list[Proposal]:
        """A member's decided proposals whose outcome they were not told, oldest first."""
        rows = await self._db.fetchall(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = ? AND proposed_by = ? "
            "AND status IN ('approved', 'rejected') AND outcome_notified = 0 "
            f"AND {NOT_QUEUED} ORDER BY id",
            (guild_id, user_id))
        return [proposal_from_row(row) for row in rows]

    async def review_settings(self, guild_id: int) -> ReviewSettings:
        """Where a server reviews proposals (defaults when never set)."""
        row = await self._db.fetchone(
            "SELECT channel_id, curator_role_id FROM correction_review WHERE guild_id = ?",
            (guild_id,))
        return ReviewSettings() if row is None else ReviewSettings(row[0], row[1])

    async def set_review_settings(self, guild_id: int, settings: ReviewSettings) -> None:
        """Replace a server's review channel and curator role (one upsert)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO correction_review (guild_id, channel_id, curator_role_id, "
                "updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, curator_role_id = excluded.curator_role_id, "
                "updated_at = excluded.updated_at",
                (guild_id, settings.channel_id, settings.curator_role_id, utc_timestamp()))

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from every proposal and event; the corrections stay. How
        many corrections named them."""
        async with self._db.transaction() as conn:
            async with conn.execute(_NAMING, (user_id, user_id, user_id)) as cursor:
                row = await cursor.fetchone()
            for sql in _FORGET:
                await conn.execute(sql, (user_id,))
        return int(row[0]) if row else 0


_FORGET = (
    "UPDATE corrections SET proposed_by = NULL WHERE proposed_by = ?",
    "UPDATE corrections SET decided_by = NULL WHERE decided_by = ?",
    "UPDATE correction_events SET actor_id = NULL WHERE actor_id = ?",
)
"""The statements that take a member's name off corrections."""
_NAMING = ("SELECT count(*) FROM corrections WHERE proposed_by = ? OR decided_by = ? OR id IN "
           "(SELECT correction_id FROM correction_events WHERE actor_id = ?)")
"""How many corrections name a member (proposer, decider, or in their history)."""


async def _event(conn: aiosqlite.Connection, proposal_id: int, action: Action,
                 actor_id: int | None, at: datetime, note: str) -> None:
    await conn.execute(
        f"INSERT INTO correction_events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
        (proposal_id, action.value, actor_id, stored(at), note))


async def _proposal_row(conn: aiosqlite.Connection, where: str,
                        params: Sequence[object]) -> Proposal | None:
    async with conn.execute(f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE {where}",
                            params) as cursor:
        row = await cursor.fetchone()
    return None if row is None else proposal_from_row(row)


async def _supersede(conn: aiosqlite.Connection, approved: Proposal, at: datetime) -> None:
    """The field's earlier approved corrections in the server give way to `approved`."""
    target = approved.target
    async with conn.execute(
            "SELECT id FROM corrections WHERE guild_id = ? AND paper_id = ? AND field = ? "
            "AND position = ? AND status = 'approved' AND id <> ?",
            (approved.guild_id, target.paper_id, target.field.value, target.position,
             approved.id)) as cursor:
        earlier = [int(row[0]) for row in await cursor.fetchall()]
    for old_id in earlier:
        await conn.execute("UPDATE corrections SET status = 'reverted' WHERE id = ?", (old_id,))
        await _event(conn, old_id, Action.SUPERSEDED, approved.decided_by, at,
                     f"#{approved.id}")
