"""The schema's shared part, stated once for both backends: the migration record, and the
tables whose DDL is the same in both dialects but for type names, rendered per dialect."""

from __future__ import annotations

from dataclasses import dataclass

_FEED_TABLES = (
    """CREATE TABLE feeds (
        id {serial},
        guild_id {big} NOT NULL,
        query TEXT NOT NULL,
        channel_id {big},
        created_by {big} NOT NULL,
        created_at TEXT NOT NULL,
        paused_reason TEXT,
        notice_pending INTEGER NOT NULL DEFAULT 0,
        UNIQUE (guild_id, query)
    )""",
    "CREATE INDEX feeds_query ON feeds (query)",
    """CREATE TABLE feed_queries (
        query TEXT PRIMARY KEY,
        next_poll_at TEXT NOT NULL,
        polls INTEGER NOT NULL DEFAULT 0,
        last_polled_at TEXT,
        last_error TEXT
    )""",
    """CREATE TABLE feed_seen (
        query TEXT NOT NULL,
        arxiv_id TEXT NOT NULL,
        poll INTEGER NOT NULL,
        PRIMARY KEY (query, arxiv_id)
    )""",
    """CREATE TABLE feed_announcements (
        feed_id {big} NOT NULL,
        poll INTEGER NOT NULL,
        guild_id {big} NOT NULL,
        channel_id {big} NOT NULL,
        query TEXT NOT NULL,
        paper_ids TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'posted', 'failed')),
        claims INTEGER NOT NULL DEFAULT 0,
        message_id {big},
        reason TEXT,
        owner TEXT,
        lease_until TEXT,
        claimed_at TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        PRIMARY KEY (feed_id, poll)
    )""",
    "CREATE INDEX feed_announcements_open ON feed_announcements (status, lease_until)",
)


def feed_tables(*, serial: str, big: str) -> tuple[str, ...]:
    """The feed tables in one backend's types (shared, so the two schemas cannot drift)."""
    return tuple(s.format(serial=serial, big=big) for s in _FEED_TABLES)


FOLLOWERS_QUEUED = (
    "ALTER TABLE digest_ledger ADD COLUMN followers_queued INTEGER NOT NULL DEFAULT 0",
    # Rows finished before this version had their followers queued the old way.
    "UPDATE digest_ledger SET followers_queued = 1 WHERE status <> 'claimed'",
)
"""Both backends' statements for the ledger's "followers queued" flag."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: the statements that take the database from version-1 to version."""

    version: int
    name: str
    statements: tuple[str, ...]
