"""The prep sheets' table, added after the shared schema (`storage.schema`), stated once for
both backends under the same forward-only rule (created by its step of `storage.migrations`)."""

from __future__ import annotations

from storage.dialect import Table

SESSION_PREP_SHEETS = Table("session_prep_sheets", (
    "session_id {big} PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE",
    "status TEXT NOT NULL CHECK (status IN "
    "('claimed', 'waiting', 'ready', 'posting', 'posted', 'failed'))",
    "lang TEXT NOT NULL DEFAULT ''",
    "questions TEXT NOT NULL DEFAULT ''",
    "model TEXT NOT NULL DEFAULT ''",
    "attempts INTEGER NOT NULL DEFAULT 0",
    "reason TEXT NOT NULL DEFAULT ''",
    "owner TEXT",
    "lease_until TEXT",
    "next_try TEXT",
    "nonce TEXT NOT NULL DEFAULT ''",
    "post_claimed_at TEXT",
    "message_id {big}",
    "updated_at TEXT NOT NULL",
), indexes=("CREATE INDEX session_prep_sheets_status ON session_prep_sheets (status)",))
"""Each session's prep sheet (discussion questions), one row whatever its revision: generated
(claimed, waiting for `next_try`, ready, failed), then posted (posting, leased to `owner` until
`lease_until`, with its `nonce`; posted with its `message_id`)."""
