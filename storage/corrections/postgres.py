"""Corrections per server (PostgreSQL): proposals, their history and where they are reviewed.
A decision is one conditional UPDATE: a second curator's (or process's) waits for the first
to commit, then finds the proposal no longer pending."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg

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
from storage.notifications.postgres import enqueue_units
from storage.postgres.database import PgDatabase, rows_affected
from storage.times import stored, utc_timestamp

_RETURNING = f"RETURNING {PROPOSAL_COLUMNS}"


class PgCorrectionStore:
    """The `corrections`, `correction_events` and `correction_review` tables."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def propose(self, proposal: NewProposal) -> Proposal:
        """Store a pending proposal (and its "proposed" event)."""
        target = proposal.target
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO corrections (guild_id, paper_id, field, position, old_value, "
                "new_value, reason, proposed_by, created_at, status, source_value) "
                f"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $5) {_RETURNING}",
                proposal.guild_id, target.paper_id, target.field.value, target.position,
                proposal.old_value, proposal.new_value, proposal.reason, proposal.proposed_by,
                stored(proposal.at))
            created = proposal_from_row(row)
            await _event(conn, created.id, Action.PROPOSED, proposal.proposed_by, proposal.at,
                         proposal.reason)
        return created

    async def proposal(self, guild_id: int, proposal_id: int) -> Proposal | None:
        """One of a server's proposals, or None (another server's is None too)."""
        row = await self._db.fetchrow(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = $1 AND id = $2",
            guild_id, proposal_id)
        return None if row is None else proposal_from_row(row)

    async def proposals(self, guild_id: int, *, status: Status | None = None,
                        paper_id: str | None = None, limit: int = 50) -> list[Proposal]:
        """A server's proposals, newest first, optionally of one status or paper."""
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = $1 "
            "AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR paper_id = $3) "
            "ORDER BY id DESC LIMIT $4",
            guild_id, None if status is None else status.value, paper_id, limit)
        return [proposal_from_row(row) for row in rows]

    async def approved(self, guild_id: int, paper_ids: Sequence[str]) -> list[Proposal]:
        """The approved corrections of these papers, in the order they were decided."""
        if not paper_ids:
            return []
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = $1 "
            "AND status = 'approved' AND paper_id = ANY($2::text[]) ORDER BY decided_at, id",
            guild_id, list(paper_ids))
        return [proposal_from_row(row) for row in rows]

    async def decide(self, guild_id: int, proposal_id: int, status: Status, by: int,
                     at: datetime, note: str, source_value: str,
                     lease: Lease | None = None) -> Proposal | None:
        """Approve or reject a pending proposal, once (a conditional UPDATE claims it), its
        proposer's DM queued and its review message due (leased to `lease`) in the same
        transaction."""
        action = DECIDED[status]
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE corrections SET status = $1, decided_by = $2, decided_at = $3, "
                "source_value = CASE WHEN $1 = 'approved' THEN $4 ELSE source_value END, "
                "review_shown = 0, review_owner = $7, review_lease_until = $8 "
                f"WHERE guild_id = $5 AND id = $6 AND status = 'pending' {_RETURNING}",
                status.value, by, stored(at), source_value, guild_id, proposal_id,
                lease and lease.owner, lease and stored(lease.until))
            if row is None:
                return None
            decided = proposal_from_row(row)
            await _event(conn, proposal_id, action, by, at, note)
            if status is Status.APPROVED:
                await _supersede(conn, decided, at)
            await enqueue_units(conn, outcome_units(decided))
        return decided

    async def claim_review(self, lease: Lease, now: datetime) -> Proposal | None:
        """Lease the oldest decided proposal whose review message does not show its decision
        (and whose lease is free at `now`) to `lease.owner`."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE corrections SET review_owner = $1, review_lease_until = $2 WHERE id = "
                f"(SELECT id FROM corrections WHERE {REVIEW_DUE} AND (review_lease_until IS NULL "
                "OR review_lease_until <= $3) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) "
                f"{_RETURNING}", lease.owner, stored(lease.until), stored(now))
        return proposal_from_row(row) if row else None

    async def review_shown(self, proposal_id: int) -> None:
        """The proposal's review message shows its decision now."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE corrections SET review_shown = 1, review_owner = NULL, "
                               "review_lease_until = NULL WHERE id = $1", proposal_id)

    async def import_approved(self, proposal: NewProposal, source_value: str) -> Proposal:
        """Store an approved correction applied from a file, superseding the field's earlier
        one, with its "imported" event."""
        target = proposal.target
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO corrections (guild_id, paper_id, field, position, old_value, "
                "new_value, reason, proposed_by, created_at, status, decided_at, source_value, "
                "outcome_notified, imported) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, 'approved', $8, $9, 1, 1) "
                f"{_RETURNING}",
                proposal.guild_id, target.paper_id, target.field.value, target.position,
                proposal.old_value, proposal.new_value, proposal.reason, stored(proposal.at),
                source_value)
            imported = proposal_from_row(row)
            await _event(conn, imported.id, Action.IMPORTED, None, proposal.at, proposal.reason)
            await _supersede(conn, imported, proposal.at)
        return imported

    async def revert(self, guild_id: int, proposal_id: int, by: int, at: datetime,
                     note: str) -> Proposal | None:
        """Withdraw an approved correction, once."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE corrections SET status = 'reverted' "
                f"WHERE guild_id = $1 AND id = $2 AND status = 'approved' {_RETURNING}",
                guild_id, proposal_id)
            if row is None:
                return None
            await _event(conn, proposal_id, Action.REVERTED, by, at, note)
        return proposal_from_row(row)

    async def history(self, guild_id: int, paper_id: str) -> list[Event]:
        """Every event of a server's proposals for a paper, oldest first."""
        rows = await self._db.fetch(
            f"SELECT {', '.join('e.' + c.strip() for c in EVENT_COLUMNS.split(','))} "
            "FROM correction_events e JOIN corrections c ON c.id = e.correction_id "
            "WHERE c.guild_id = $1 AND c.paper_id = $2 ORDER BY e.at, e.id", guild_id, paper_id)
        return [event_from_row(row) for row in rows]

    async def set_review_message(self, proposal_id: int, channel_id: int,
                                 message_id: int) -> None:
        """Where the proposal's review message was posted."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE corrections SET channel_id = $1, message_id = $2 "
                               "WHERE id = $3", channel_id, message_id, proposal_id)

    async def claim_outcome_notice(self, proposal_id: int) -> bool:
        """True once per proposal."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "UPDATE corrections SET outcome_notified = 1 WHERE id = $1 "
                f"AND outcome_notified = 0 AND status <> 'pending' AND {NOT_QUEUED}",
                proposal_id)) == 1

    async def release_outcome_notice(self, proposal_id: int) -> None:
        """The proposer could not be told: the notice may be claimed again."""
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE corrections SET outcome_notified = 0 WHERE id = $1",
                               proposal_id)

    async def untold_outcomes(self, guild_id: int, user_id: int) -> list[Proposal]:
        """A member's decided proposals whose outcome they were not told, oldest first."""
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = $1 "
            "AND proposed_by = $2 AND status IN ('approved', 'rejected') "
            f"AND outcome_notified = 0 AND {NOT_QUEUED} ORDER BY id", guild_id, user_id)
        return [proposal_from_row(row) for row in rows]

    async def review_settings(self, guild_id: int) -> ReviewSettings:
        """Where a server reviews proposals (defaults when never set)."""
        row = await self._db.fetchrow(
            "SELECT channel_id, curator_role_id FROM correction_review WHERE guild_id = $1",
            guild_id)
        return ReviewSettings() if row is None else ReviewSettings(row[0], row[1])

    async def set_review_settings(self, guild_id: int, settings: ReviewSettings) -> None:
        """Replace a server's review channel and curator role (one upsert)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO correction_review (guild_id, channel_id, curator_role_id, "
                "updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, curator_role_id = excluded.curator_role_id, "
                "updated_at = excluded.updated_at",
                guild_id, settings.channel_id, settings.curator_role_id, utc_timestamp())

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from every proposal and event; the corrections stay. How
        many corrections named them."""
        async with self._db.transaction() as conn:
            count = await conn.fetchval(
                "SELECT count(*) FROM corrections WHERE proposed_by = $1 OR decided_by = $1 "
                "OR id IN (SELECT correction_id FROM correction_events WHERE actor_id = $1)",
                user_id)
            for sql in _FORGET:
                await conn.execute(sql, user_id)
        return int(count or 0)


_FORGET = (
    "UPDATE corrections SET proposed_by = NULL WHERE proposed_by = $1",
    "UPDATE corrections SET decided_by = NULL WHERE decided_by = $1",
    "UPDATE correction_events SET actor_id = NULL WHERE actor_id = $1",
)


async def _event(conn: asyncpg.Connection, proposal_id: int, action: Action,
                 actor_id: int | None, at: datetime, note: str) -> None:
    await conn.execute(
        f"INSERT INTO correction_events ({EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5)",
        proposal_id, action.value, actor_id, stored(at), note)


async def _supersede(conn: asyncpg.Connection, approved: Proposal, at: datetime) -> None:
    """The field's earlier approved corrections in the server give way to `approved`."""
    target = approved.target
    rows = await conn.fetch(
        "UPDATE corrections SET status = 'reverted' WHERE guild_id = $1 AND paper_id = $2 "
        "AND field = $3 AND position = $4 AND status = 'approved' AND id <> $5 RETURNING id",
        approved.guild_id, target.paper_id, target.field.value, target.position, approved.id)
    for row in rows:
        await _event(conn, int(row[0]), Action.SUPERSEDED, approved.decided_by, at,
                     f"#{approved.id}")
