"""Corrections per server: proposals, their history and where they are reviewed.

A decision is one conditional `UPDATE … WHERE status = 'pending'`: a second curator's (or
process's) waits for the first to commit (PostgreSQL's row lock; SQLite's one write lock), then
finds the proposal no longer pending. The proposer's DM is queued in the outbox and the review
message marked due in the same transaction.

The source-change notices (`SourceNoticeStore`): queued once per approval, leased, posted, and
decided once (keep or drop the correction). A claim skips a notice another process is claiming
(PostgreSQL's `SKIP LOCKED`; SQLite's one write lock) and re-checks its lease, so two processes
never hold the same notice. The decision deletes the notice and, when it was posted, records the
decision with its message due (leased to the process answering the click) in the same
transaction; the message is edited after, and the decision marked shown (deleted) then: one
whose message was not edited (a failed edit, a process that died) is claimed again by the next
tick of any process.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.corrections import (
    Action,
    Event,
    NewProposal,
    NoticeDecision,
    Proposal,
    ReviewSettings,
    SourceNotice,
    Status,
)
from domain.leases import Lease
from storage.corrections.rows import (
    DECIDED,
    DECISION_COLUMNS,
    EVENT_COLUMNS,
    NOT_QUEUED,
    NOTICE_COLUMNS,
    PROPOSAL_COLUMNS,
    REVIEW_DUE,
    decision_from_row,
    event_from_row,
    notice_from_row,
    outcome_units,
    proposal_from_row,
)
from storage.db import Store, Tx
from storage.notifications.store import enqueue_units
from storage.times import stored, utc_timestamp

_RETURNING = f"RETURNING {PROPOSAL_COLUMNS}"
_HISTORY_COLUMNS = ", ".join("e." + c.strip() for c in EVENT_COLUMNS.split(","))


class CorrectionStore(Store):
    """The `corrections`, `correction_events` and `correction_review` tables."""

    async def propose(self, proposal: NewProposal) -> Proposal:
        """Store a pending proposal (and its "proposed" event)."""
        target = proposal.target
        async with self._db.transaction() as tx:
            row = await tx.fetch_one(
                "INSERT INTO corrections (guild_id, paper_id, field, position, old_value, "
                "new_value, reason, proposed_by, created_at, status, source_value) "
                f"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $5) {_RETURNING}",
                proposal.guild_id, target.paper_id, target.field.value, target.position,
                proposal.old_value, proposal.new_value, proposal.reason, proposal.proposed_by,
                stored(proposal.at))
            assert row is not None
            created = proposal_from_row(row)
            await _event(tx, created.id, Action.PROPOSED, proposal.proposed_by, proposal.at,
                         proposal.reason)
        return created

    async def proposal(self, guild_id: int, proposal_id: int) -> Proposal | None:
        """One of a server's proposals, or None (another server's is None too)."""
        row = await self._db.fetch_one(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = $1 AND id = $2",
            guild_id, proposal_id)
        return None if row is None else proposal_from_row(row)

    async def proposals(self, guild_id: int, *, status: Status | None = None,
                        paper_id: str | None = None, limit: int = 50) -> list[Proposal]:
        """A server's proposals, newest first, optionally of one status or paper."""
        where = ["guild_id = $1"]
        args: list[object] = [guild_id]
        for column, value in (("status", None if status is None else status.value),
                              ("paper_id", paper_id)):
            if value is not None:
                args.append(value)
                where.append(f"{column} = ${len(args)}")
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE {' AND '.join(where)} "
            f"ORDER BY id DESC LIMIT ${len(args) + 1}", *args, limit)
        return [proposal_from_row(row) for row in rows]

    async def approved(self, guild_id: int, paper_ids: Sequence[str]) -> list[Proposal]:
        """The approved corrections of these papers, in the order they were decided."""
        if not paper_ids:
            return []
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = $1 "
            f"AND status = 'approved' AND paper_id {self._dialect.in_array('$2')} "
            "ORDER BY decided_at, id", guild_id, self._dialect.array(paper_ids))
        return [proposal_from_row(row) for row in rows]

    async def decide(self, guild_id: int, proposal_id: int, status: Status, by: int,
                     at: datetime, note: str, source_value: str,
                     lease: Lease | None = None) -> Proposal | None:
        """Approve or reject a pending proposal, once (a conditional UPDATE claims it), its
        proposer's DM queued and its review message due (leased to `lease`) in the same
        transaction."""
        async with self._db.transaction() as tx:
            row = await tx.fetch_one(
                "UPDATE corrections SET status = $1, decided_by = $2, decided_at = $3, "
                "source_value = CASE WHEN $1 = 'approved' THEN $4 ELSE source_value END, "
                "review_shown = 0, review_owner = $7, review_lease_until = $8 "
                f"WHERE guild_id = $5 AND id = $6 AND status = 'pending' {_RETURNING}",
                status.value, by, stored(at), source_value, guild_id, proposal_id,
                lease and lease.owner, lease and stored(lease.until))
            if row is None:
                return None
            decided = proposal_from_row(row)
            await _event(tx, proposal_id, DECIDED[status], by, at, note)
            if status is Status.APPROVED:
                await _supersede(tx, decided, at)
            await enqueue_units(tx, self._db.dialect, outcome_units(decided))
        return decided

    async def claim_review(self, lease: Lease, now: datetime) -> Proposal | None:
        """Lease the oldest decided proposal whose review message does not show its decision
        (and whose lease is free at `now`) to `lease.owner`."""
        row = await self._db.returning_one(
            "UPDATE corrections SET review_owner = $1, review_lease_until = $2 WHERE id = "
            f"(SELECT id FROM corrections WHERE {REVIEW_DUE} AND (review_lease_until IS NULL "
            "OR review_lease_until <= $3) ORDER BY id LIMIT 1"
            f"{self._dialect.lock_rows(skip_locked=True)}) {_RETURNING}",
            lease.owner, stored(lease.until), stored(now))
        return proposal_from_row(row) if row else None

    async def review_shown(self, proposal_id: int) -> None:
        """The proposal's review message shows its decision now."""
        await self._db.execute("UPDATE corrections SET review_shown = 1, review_owner = NULL, "
                               "review_lease_until = NULL WHERE id = $1", proposal_id)

    async def import_approved(self, proposal: NewProposal, source_value: str) -> Proposal:
        """Store an approved correction applied from a file, superseding the field's earlier
        one, with its "imported" event."""
        target = proposal.target
        async with self._db.transaction() as tx:
            row = await tx.fetch_one(
                "INSERT INTO corrections (guild_id, paper_id, field, position, old_value, "
                "new_value, reason, proposed_by, created_at, status, decided_at, source_value, "
                "outcome_notified, imported) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, 'approved', $8, $9, 1, 1) "
                f"{_RETURNING}",
                proposal.guild_id, target.paper_id, target.field.value, target.position,
                proposal.old_value, proposal.new_value, proposal.reason, stored(proposal.at),
                source_value)
            assert row is not None
            imported = proposal_from_row(row)
            await _event(tx, imported.id, Action.IMPORTED, None, proposal.at, proposal.reason)
            await _supersede(tx, imported, proposal.at)
        return imported

    async def revert(self, guild_id: int, proposal_id: int, by: int, at: datetime,
                     note: str) -> Proposal | None:
        """Withdraw an approved correction, once."""
        async with self._db.transaction() as tx:
            row = await tx.fetch_one(
                "UPDATE corrections SET status = 'reverted' "
                f"WHERE guild_id = $1 AND id = $2 AND status = 'approved' {_RETURNING}",
                guild_id, proposal_id)
            if row is None:
                return None
            await _event(tx, proposal_id, Action.REVERTED, by, at, note)
        return proposal_from_row(row)

    async def history(self, guild_id: int, paper_id: str) -> list[Event]:
        """Every event of a server's proposals for a paper, oldest first."""
        rows = await self._db.fetch(
            f"SELECT {_HISTORY_COLUMNS} FROM correction_events e "
            "JOIN corrections c ON c.id = e.correction_id "
            "WHERE c.guild_id = $1 AND c.paper_id = $2 ORDER BY e.at, e.id", guild_id, paper_id)
        return [event_from_row(row) for row in rows]

    async def set_review_message(self, proposal_id: int, channel_id: int,
                                 message_id: int) -> None:
        """Where the proposal's review message was posted."""
        await self._db.execute("UPDATE corrections SET channel_id = $1, message_id = $2 "
                               "WHERE id = $3", channel_id, message_id, proposal_id)

    async def claim_outcome_notice(self, proposal_id: int) -> bool:
        """True once per proposal."""
        return await self._db.execute(
            "UPDATE corrections SET outcome_notified = 1 WHERE id = $1 "
            f"AND outcome_notified = 0 AND status <> 'pending' AND {NOT_QUEUED}",
            proposal_id) == 1

    async def untold_outcomes(self, guild_id: int, user_id: int) -> list[Proposal]:
        """A member's decided proposals whose outcome they were not told, oldest first."""
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE guild_id = $1 "
            "AND proposed_by = $2 AND status IN ('approved', 'rejected') "
            f"AND outcome_notified = 0 AND {NOT_QUEUED} ORDER BY id", guild_id, user_id)
        return [proposal_from_row(row) for row in rows]

    async def review_settings(self, guild_id: int) -> ReviewSettings:
        """Where a server reviews proposals (defaults when never set)."""
        row = await self._db.fetch_one(
            "SELECT channel_id, curator_role_id FROM correction_review WHERE guild_id = $1",
            guild_id)
        return ReviewSettings() if row is None else ReviewSettings(row[0], row[1])

    async def set_review_settings(self, guild_id: int, settings: ReviewSettings) -> None:
        """Replace a server's review channel and curator role (one upsert)."""
        await self._db.execute(
            "INSERT INTO correction_review (guild_id, channel_id, curator_role_id, "
            "updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, curator_role_id = excluded.curator_role_id, "
            "updated_at = excluded.updated_at",
            guild_id, settings.channel_id, settings.curator_role_id, utc_timestamp())

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from every proposal, event and decision still to show; the
        corrections stay. How many corrections named them."""
        async with self._db.transaction() as tx:
            count = await tx.fetch_value(
                "SELECT count(*) FROM corrections WHERE proposed_by = $1 OR decided_by = $1 "
                "OR id IN (SELECT correction_id FROM correction_events WHERE actor_id = $1)",
                user_id)
            for sql in _FORGET:
                await tx.execute(sql, user_id)
        return int(count or 0)


class SourceNoticeStore(Store):
    """The `correction_notices` and `correction_notice_decisions` tables (and the corrections
    they are about)."""

    async def watched(self) -> list[Proposal]:
        """Approved corrections with no notice open, in every server."""
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE status = 'approved' "
            "AND source_changed_at IS NULL ORDER BY id")
        return [proposal_from_row(row) for row in rows]

    async def queue(self, proposal_id: int, new_source: str, token: str,
                    at: datetime) -> bool:
        """One conditional UPDATE claims the approval's notice; the notice row follows in the
        same transaction."""
        async with self._db.transaction() as tx:
            if await tx.execute(
                    "UPDATE corrections SET source_changed_at = $1 WHERE id = $2 "
                    "AND status = 'approved' AND source_changed_at IS NULL",
                    stored(at), proposal_id) != 1:
                return False
            await tx.execute(
                "INSERT INTO correction_notices (correction_id, guild_id, old_source, "
                "new_source, token, status, created_at) SELECT id, guild_id, source_value, $1, "
                "$2, 'pending', $3 FROM corrections WHERE id = $4",
                new_source, token, stored(at), proposal_id)
            return True

    async def claim(self, lease: Lease, now: datetime) -> SourceNotice | None:
        """Lease the oldest due notice whose server has a review channel (one UPDATE)."""
        row = await self._db.returning_one(
            "UPDATE correction_notices SET owner = $1, lease_until = $2, "
            "attempts = attempts + 1, channel_id = (SELECT r.channel_id FROM "
            "correction_review r WHERE r.guild_id = correction_notices.guild_id) "
            "WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= $3) "
            "AND correction_id = (SELECT n.correction_id FROM correction_notices n "
            "JOIN correction_review r ON r.guild_id = n.guild_id "
            "JOIN corrections c ON c.id = n.correction_id AND c.status = 'approved' "
            "WHERE n.status = 'pending' AND r.channel_id IS NOT NULL "
            "AND (n.lease_until IS NULL OR n.lease_until <= $3) "
            "ORDER BY n.created_at, n.correction_id LIMIT 1"
            f"{self._dialect.lock_rows(of='n', skip_locked=True)}) RETURNING {NOTICE_COLUMNS}",
            lease.owner, stored(lease.until), stored(now))
        return None if row is None else notice_from_row(row)

    async def posted(self, proposal_id: int, owner: str, channel_id: int,
                     message_id: int) -> bool:
        """Record where the notice was posted, while `owner` holds it."""
        return await self._db.execute(
            "UPDATE correction_notices SET status = 'posted', channel_id = $1, "
            "message_id = $2, owner = NULL, lease_until = NULL "
            "WHERE correction_id = $3 AND owner = $4",
            channel_id, message_id, proposal_id, owner) == 1

    async def retry_later(self, proposal_id: int, owner: str, not_before: datetime) -> None:
        """Give the notice back, claimable again from `not_before`."""
        await self._db.execute(
            "UPDATE correction_notices SET owner = NULL, lease_until = $1 "
            "WHERE correction_id = $2 AND owner = $3",
            stored(not_before), proposal_id, owner)

    async def notice(self, proposal_id: int) -> SourceNotice | None:
        """The correction's open notice, or None."""
        row = await self._db.fetch_one(
            f"SELECT {NOTICE_COLUMNS} FROM correction_notices WHERE correction_id = $1",
            proposal_id)
        return None if row is None else notice_from_row(row)

    async def decide(self, guild_id: int, proposal_id: int, *, keep: bool, by: int,
                     at: datetime, lease: Lease | None = None) -> Proposal | None:
        """The notice is deleted by the one decision (a conditional DELETE), then the
        correction kept with the new source value, or withdrawn; a posted notice's message is
        marked due (leased to `lease`) in the same transaction."""
        async with self._db.transaction() as tx:
            found = await tx.fetch_one(
                "DELETE FROM correction_notices WHERE correction_id = $1 AND guild_id = $2 "
                f"RETURNING {NOTICE_COLUMNS}", proposal_id, guild_id)
            if found is None:
                return None
            notice = notice_from_row(found)
            if keep:
                row = await tx.fetch_one(
                    "UPDATE corrections SET source_value = $1, source_changed_at = NULL "
                    f"WHERE id = $2 AND status = 'approved' RETURNING {PROPOSAL_COLUMNS}",
                    notice.new_source, proposal_id)
            else:
                row = await tx.fetch_one(
                    "UPDATE corrections SET status = 'reverted' WHERE id = $1 "
                    f"AND status = 'approved' RETURNING {PROPOSAL_COLUMNS}", proposal_id)
            if row is None:
                return None
            action = Action.KEPT if keep else Action.DROPPED
            await _event(tx, proposal_id, action, by, at, notice.new_source)
            if notice.message_id is not None:
                await tx.execute(
                    f"INSERT INTO correction_notice_decisions ({DECISION_COLUMNS}, owner, "
                    "lease_until) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
                    "$13, $14)",
                    notice.correction_id, notice.guild_id, notice.old_source,
                    notice.new_source, notice.token, stored(notice.created_at),
                    notice.channel_id, notice.message_id, notice.attempts, action.value, by,
                    stored(at), lease and lease.owner, lease and stored(lease.until))
        return proposal_from_row(row)

    async def claim_decision(self, lease: Lease, now: datetime) -> NoticeDecision | None:
        """Lease the oldest decision whose message does not show it yet (its lease free at
        `now`) to `lease.owner`."""
        row = await self._db.returning_one(
            "UPDATE correction_notice_decisions SET owner = $1, lease_until = $2 WHERE id = "
            "(SELECT id FROM correction_notice_decisions WHERE lease_until IS NULL "
            "OR lease_until <= $3 ORDER BY id LIMIT 1"
            f"{self._dialect.lock_rows(skip_locked=True)}) RETURNING {DECISION_COLUMNS}",
            lease.owner, stored(lease.until), stored(now))
        return None if row is None else decision_from_row(row)

    async def decision_shown(self, proposal_id: int, token: str) -> None:
        """The notice's message shows its decision: nothing left to do."""
        await self._db.execute(
            "DELETE FROM correction_notice_decisions WHERE correction_id = $1 AND token = $2",
            proposal_id, token)


_FORGET = (
    "UPDATE corrections SET proposed_by = NULL WHERE proposed_by = $1",
    "UPDATE corrections SET decided_by = NULL WHERE decided_by = $1",
    "UPDATE correction_events SET actor_id = NULL WHERE actor_id = $1",
    "UPDATE correction_notice_decisions SET decided_by = NULL WHERE decided_by = $1",
)
"""The statements that take a member's name off corrections."""


async def _event(tx: Tx, proposal_id: int, action: Action, actor_id: int | None,
                 at: datetime, note: str) -> None:
    await tx.execute(
        f"INSERT INTO correction_events ({EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5)",
        proposal_id, action.value, actor_id, stored(at), note)


async def _supersede(tx: Tx, approved: Proposal, at: datetime) -> None:
    """The field's earlier approved corrections in the server give way to `approved`."""
    target = approved.target
    rows = await tx.fetch(
        "UPDATE corrections SET status = 'reverted' WHERE guild_id = $1 AND paper_id = $2 "
        "AND field = $3 AND position = $4 AND status = 'approved' AND id <> $5 RETURNING id",
        approved.guild_id, target.paper_id, target.field.value, target.position, approved.id)
    for row in rows:
        await _event(tx, int(row[0]), Action.SUPERSEDED, approved.decided_by, at,
                     f"#{approved.id}")

