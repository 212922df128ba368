"""The notifications' tables added after the shared schema (`storage.schema`), stated once for
both backends under the same forward-only rule: the papers still to be announced, the outbox's
correction DMs, and the review messages still to show their decision (SQLite 27 /
PostgreSQL 20)."""

from __future__ import annotations

from storage.dialect import POSTGRES, Dialect, Table
from storage.schema import OUTBOX

UNANNOUNCED_PAPERS = Table("unannounced_papers", (
    "id {rowid}",
    "paper_id TEXT NOT NULL UNIQUE",
    "added_at TEXT NOT NULL",
    "owner TEXT",
    "lease_until TEXT",
))
"""Papers added to the catalog whose subscribers are not yet queued their DMs: written in the
transaction that adds the papers, leased while the DMs are worked out, deleted in the
transaction that queues them."""

OUTBOX_KINDS = "'digest_dm', 'new_papers_dm', 'mention', 'correction_dm'"
"""The outbox's kinds from SQLite 27 / PostgreSQL 20: a correction's outcome is a DM too."""

_OUTBOX_NEXT = Table("outbox_next", tuple(
    f"kind TEXT NOT NULL CHECK (kind IN ({OUTBOX_KINDS}))" if line.startswith("kind ") else line
    for line in OUTBOX.lines))

CORRECTION_REVIEW_SHOWN = (
    "ALTER TABLE corrections ADD COLUMN review_shown INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE corrections ADD COLUMN review_owner TEXT",
    "ALTER TABLE corrections ADD COLUMN review_lease_until TEXT",
)
"""Both backends' statements: whether a decided proposal's review message shows the decision
yet (0 from the decision until the message is edited), leased to the process editing it."""


def commit_then_send(dialect: Dialect) -> tuple[str, ...]:
    """SQLite 27 / PostgreSQL 20: the unannounced papers, the outbox's correction DMs (SQLite
    rebuilds the table to change its CHECK) and the review messages still to edit."""
    outbox: tuple[str, ...]
    if dialect == POSTGRES:
        outbox = ("ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check",
                  f"ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check "
                  f"CHECK (kind IN ({OUTBOX_KINDS}))")
    else:
        outbox = (_OUTBOX_NEXT.sql(dialect),
                  "INSERT INTO outbox_next SELECT * FROM outbox",
                  "DROP TABLE outbox",
                  "ALTER TABLE outbox_next RENAME TO outbox",
                  *OUTBOX.indexes)
    return (*UNANNOUNCED_PAPERS.create(dialect), *outbox, *CORRECTION_REVIEW_SHOWN)
