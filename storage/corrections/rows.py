"""Rows of the corrections tables as domain values (shared by both backends)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.corrections import (
    Action,
    Event,
    Field,
    NoticeDecision,
    Proposal,
    SourceNotice,
    Status,
    Target,
)
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit, correction_subject
from storage.times import loaded

PROPOSAL_COLUMNS = ("id, guild_id, paper_id, field, position, old_value, new_value, reason, "
                    "proposed_by, created_at, status, decided_by, decided_at, channel_id, "
                    "message_id, source_value, imported")
EVENT_COLUMNS = "correction_id, action, actor_id, at, note"
NOTICE_COLUMNS = ("correction_id, guild_id, old_source, new_source, token, created_at, "
                  "channel_id, message_id, attempts")
DECISION_COLUMNS = f"{NOTICE_COLUMNS}, action, decided_by, decided_at"
DECIDED = {Status.APPROVED: Action.APPROVED, Status.REJECTED: Action.REJECTED}
"""The history action a decision records."""
NOT_QUEUED = ("NOT EXISTS (SELECT 1 FROM outbox o WHERE o.kind = 'correction_dm' "
              "AND o.paper_id = 'correction:' || corrections.id)")
"""A decided proposal whose outcome DM is not waiting in the outbox."""
REVIEW_DUE = "review_shown = 0 AND message_id IS NOT NULL"
"""A decided proposal whose review message does not show the decision yet."""


def outcome_units(decided: Proposal) -> list[OutboxUnit]:
    """The proposer's DM of the decision, for the outbox (none for an unknown proposer)."""
    if decided.proposed_by is None:
        return []
    return [OutboxUnit(correction_subject(decided.id), OutboxKind.CORRECTION_DM, (OutboxEntry(
        decided.guild_id, decided.proposed_by, correction_subject(decided.id),
        (decided.status.value,)),))]


def proposal_from_row(row: Sequence[Any]) -> Proposal:
    """A `corrections` row, columns as `PROPOSAL_COLUMNS`."""
    return Proposal(
        id=int(row[0]), guild_id=int(row[1]),
        target=Target(str(row[2]), Field(row[3]), int(row[4])),
        old_value=str(row[5]), new_value=str(row[6]), reason=str(row[7]),
        proposed_by=row[8], created_at=loaded(row[9]), status=Status(row[10]),
        decided_by=row[11], decided_at=loaded(row[12]) if row[12] else None,
        channel_id=row[13], message_id=row[14], source_value=str(row[15]),
        imported=bool(row[16]))


def event_from_row(row: Sequence[Any]) -> Event:
    """A `correction_events` row, columns as `EVENT_COLUMNS`."""
    return Event(int(row[0]), Action(row[1]), row[2], loaded(row[3]), str(row[4]))


def notice_from_row(row: Sequence[Any]) -> SourceNotice:
    """A `correction_notices` row, columns as `NOTICE_COLUMNS`."""
    return SourceNotice(int(row[0]), int(row[1]), str(row[2]), str(row[3]), str(row[4]),
                        loaded(row[5]), row[6], row[7], int(row[8]))


def decision_from_row(row: Sequence[Any]) -> NoticeDecision:
    """A `correction_notice_decisions` row, columns as `DECISION_COLUMNS`."""
    return NoticeDecision(notice_from_row(row), row[9] == Action.KEPT, row[10], loaded(row[11]))
