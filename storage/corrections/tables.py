"""The corrections' tables, stated once for both backends (`storage.dialect` renders them per
dialect; `storage.schema` holds the rest of the shared schema, under the same forward-only rule):
proposals and their history, where each server's curators review them, and the notices that a
source changed a corrected field."""

from __future__ import annotations

from storage.dialect import Table

CORRECTIONS = Table("corrections", (
    "id {serial}",
    "guild_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "field TEXT NOT NULL",
    "position INTEGER NOT NULL DEFAULT 0",
    "old_value TEXT NOT NULL",
    "new_value TEXT NOT NULL",
    "reason TEXT NOT NULL",
    "proposed_by {big}",
    "created_at TEXT NOT NULL",
    "status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'reverted'))",
    "decided_by {big}",
    "decided_at TEXT",
    "source_value TEXT NOT NULL",
    "source_changed_at TEXT",
    "outcome_notified INTEGER NOT NULL DEFAULT 0",
    "channel_id {big}",
    "message_id {big}",
), indexes=(
    "CREATE INDEX corrections_paper ON corrections (guild_id, paper_id, status)",
    "CREATE INDEX corrections_status ON corrections (guild_id, status, id)",
))
"""Proposed corrections of one field of a paper, per server, and their decisions."""

CORRECTION_EVENTS = Table("correction_events", (
    "id {serial}",
    "correction_id {big} NOT NULL REFERENCES corrections (id) ON DELETE CASCADE",
    "action TEXT NOT NULL",
    "actor_id {big}",
    "at TEXT NOT NULL",
    "note TEXT NOT NULL",
), indexes=(
    "CREATE INDEX correction_events_correction ON correction_events (correction_id)",
))
"""Every change of a correction: who, when and why."""

CORRECTION_REVIEW = Table("correction_review", (
    "guild_id {big} PRIMARY KEY",
    "channel_id {big}",
    "curator_role_id {big}",
    "updated_at TEXT NOT NULL",
))
"""Where each server's proposals are reviewed, and by which role besides Manage Server."""

CORRECTION_NOTICES = Table("correction_notices", (
    "correction_id {big} PRIMARY KEY REFERENCES corrections (id) ON DELETE CASCADE",
    "guild_id {big} NOT NULL",
    "old_source TEXT NOT NULL",
    "new_source TEXT NOT NULL",
    "token TEXT NOT NULL",
    "status TEXT NOT NULL CHECK (status IN ('pending', 'posted'))",
    "attempts INTEGER NOT NULL DEFAULT 0",
    "owner TEXT",
    "lease_until TEXT",
    "channel_id {big}",
    "message_id {big}",
    "created_at TEXT NOT NULL",
), indexes=(
    "CREATE INDEX correction_notices_open ON correction_notices (status, lease_until)",
))
"""Notices that a source changed a corrected field: queued once, leased, posted, decided."""

CORRECTION_NOTICE_DECISIONS = Table("correction_notice_decisions", (
    "id {serial}",
    "correction_id {big} NOT NULL REFERENCES corrections (id) ON DELETE CASCADE",
    "guild_id {big} NOT NULL",
    "old_source TEXT NOT NULL",
    "new_source TEXT NOT NULL",
    "token TEXT NOT NULL",
    "created_at TEXT NOT NULL",
    "channel_id {big} NOT NULL",
    "message_id {big} NOT NULL",
    "attempts INTEGER NOT NULL",
    "action TEXT NOT NULL CHECK (action IN ('kept', 'dropped'))",
    "decided_by {big}",
    "decided_at TEXT NOT NULL",
    "owner TEXT",
    "lease_until TEXT",
    "UNIQUE (correction_id, token)",
))
"""Decisions on posted source-change notices whose message does not show them yet: stored with
the decision (leased to the process answering the click), deleted once the message is edited."""
