"""Numbered, forward-only schema migrations; the version lives in `PRAGMA user_version`.

Append new migrations to the end of `MIGRATIONS`; never edit one that has shipped.
Statements may call `paperclub_id(title_key)`, the public id function of `domain.paper`,
and `paperclub_index(column, <storage.papers.fts.STORED_FIELDS>)`, one full-text index column of a
stored paper as `storage.papers.fts.index_row` makes it now.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.papers.fts import STORED_FIELDS

_V1_COLUMNS = ("title_en", "title_zh", "authors", "affiliations", "summary", "venue")
"""The full-text columns from migration 1 to 11 (`storage.papers.fts.COLUMNS` then)."""
_V12_COLUMNS = (*_V1_COLUMNS, "summary_en")
"""The full-text columns from migration 12 on (frozen: later changes get their own step)."""
_V12_NEW_COLUMNS = (
    "summary_en TEXT NOT NULL DEFAULT ''",
    "arxiv_id TEXT NOT NULL DEFAULT ''",
    "arxiv_version INTEGER NOT NULL DEFAULT 0",
    "doi TEXT NOT NULL DEFAULT ''",
    "url TEXT NOT NULL DEFAULT ''",
    "pdf_url TEXT NOT NULL DEFAULT ''",
    "categories TEXT NOT NULL DEFAULT '[]'",
    "arxiv_published TEXT",
    "arxiv_updated TEXT",
)
_FTS_OPTIONS = "tokenize = 'unicode61 remove_diacritics 2'"

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

_PAPER_FEEDBACK = (
    """CREATE TABLE paper_feedback (
        guild_id {big} NOT NULL,
        user_id {big} NOT NULL,
        paper_id TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('up', 'down')),
        rated_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id, paper_id)
    )""",
    "CREATE INDEX paper_feedback_user ON paper_feedback (user_id)",
)


def paper_feedback_tables(*, big: str) -> tuple[str, ...]:
    """The 👍 / 👎 table in one backend's types (shared, so the two schemas cannot drift)."""
    return tuple(s.format(big=big) for s in _PAPER_FEEDBACK)

@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: the statements that take the database from version-1 to version."""

    version: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "catalog and full-text index",
        (
            """CREATE TABLE papers (
                id INTEGER PRIMARY KEY,
                public_id TEXT NOT NULL UNIQUE,
                title_key TEXT NOT NULL UNIQUE,
                title_en TEXT NOT NULL,
                title_zh TEXT NOT NULL,
                authors TEXT NOT NULL,
                affiliations TEXT NOT NULL,
                summary_zh TEXT NOT NULL,
                comments TEXT NOT NULL,
                journal_ref TEXT NOT NULL,
                conference TEXT,
                year INTEGER,
                track TEXT NOT NULL,
                workshop TEXT,
                honours TEXT NOT NULL,
                pages INTEGER,
                figures INTEGER,
                tables INTEGER,
                source TEXT NOT NULL,
                source_line INTEGER,
                content_hash TEXT NOT NULL,
                added_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            "CREATE INDEX papers_track_year ON papers (track, year)",
            "CREATE INDEX papers_source ON papers (source)",
            """CREATE TABLE paper_honours (
                honour TEXT NOT NULL,
                paper_id INTEGER NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
                PRIMARY KEY (honour, paper_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX paper_honours_paper ON paper_honours (paper_id)",
            """CREATE VIRTUAL TABLE paper_fts USING fts5 (
                title_en, title_zh, authors, affiliations, summary, venue,
                tokenize = 'unicode61 remove_diacritics 2'
            )""",
            "CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row')",
            """CREATE TABLE catalog_loads (
                id INTEGER PRIMARY KEY,
                source TEXT NOT NULL,
                listing_query TEXT,
                loaded_at TEXT NOT NULL,
                added INTEGER NOT NULL,
                updated INTEGER NOT NULL,
                unchanged INTEGER NOT NULL,
                removed INTEGER NOT NULL,
                rejected INTEGER NOT NULL
            )""",
        ),
    ),
    Migration(
        2,
        "bot state",
        (
            """CREATE TABLE bot_state (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
        ),
    ),
    Migration(
        3,
        "paper of the day",
        (
            """CREATE TABLE digest_settings (
                guild_id INTEGER PRIMARY KEY,
                channel_id INTEGER NOT NULL,
                local_time TEXT NOT NULL,
                timezone TEXT NOT NULL,
                thread INTEGER NOT NULL DEFAULT 1,
                mention_subscribers INTEGER NOT NULL DEFAULT 1,
                track TEXT,
                enabled INTEGER NOT NULL DEFAULT 1,
                enabled_since TEXT NOT NULL,
                paused_reason TEXT,
                consecutive_failures INTEGER NOT NULL DEFAULT 0,
                failure_notice_pending INTEGER NOT NULL DEFAULT 0,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE digest_ledger (
                guild_id INTEGER NOT NULL,
                local_date TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped', 'failed')),
                paper_id TEXT,
                cycle INTEGER,
                position INTEGER,
                cycle_size INTEGER,
                nonce TEXT NOT NULL,
                channel_id INTEGER,
                message_id INTEGER,
                thread_id INTEGER,
                late INTEGER NOT NULL DEFAULT 0,
                reason TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                claimed_at TEXT NOT NULL,
                finished_at TEXT,
                PRIMARY KEY (guild_id, local_date)
            )""",
            "CREATE INDEX digest_ledger_cycle ON digest_ledger (guild_id, cycle, status)",
        ),
    ),
    Migration(
        4,
        "topic subscriptions",
        (
            """CREATE TABLE subscriptions (
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                topic TEXT NOT NULL,
                topic_key TEXT NOT NULL,
                delivery TEXT NOT NULL CHECK (delivery IN ('dm', 'mention')),
                created_at TEXT NOT NULL,
                PRIMARY KEY (guild_id, user_id, topic_key)
            )""",
            "CREATE INDEX subscriptions_topic ON subscriptions (guild_id, topic_key)",
            "CREATE INDEX subscriptions_user ON subscriptions (user_id)",
            """CREATE TABLE notifications (
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                via TEXT NOT NULL,
                notified_at TEXT NOT NULL,
                PRIMARY KEY (guild_id, user_id, paper_id)
            )""",
            "CREATE INDEX notifications_user ON notifications (user_id)",
            """CREATE TABLE dm_pauses (
                user_id INTEGER PRIMARY KEY,
                reason TEXT NOT NULL,
                paused_at TEXT NOT NULL
            )""",
        ),
    ),
    Migration(
        5,
        "64-bit paper ids",
        (
            "CREATE TEMP TABLE id_map AS "
            "SELECT public_id AS old, paperclub_id(title_key) AS new FROM papers",
            "UPDATE papers SET public_id = paperclub_id(title_key)",
            "UPDATE digest_ledger SET paper_id = (SELECT new FROM id_map "
            "WHERE old = digest_ledger.paper_id) WHERE paper_id IN (SELECT old FROM id_map)",
            "UPDATE notifications SET paper_id = (SELECT new FROM id_map "
            "WHERE old = notifications.paper_id) WHERE paper_id IN (SELECT old FROM id_map)",
            "DROP TABLE id_map",
        ),
    ),
    Migration(
        6,
        "full-text index: Traditional Chinese folded to Simplified, no venue boilerplate",
        (
            "DELETE FROM paper_fts",
            f"INSERT INTO paper_fts (rowid, {', '.join(_V1_COLUMNS)}) SELECT id, "
            + ", ".join(f"paperclub_index({i}, {STORED_FIELDS})" for i in range(len(_V1_COLUMNS)))
            + " FROM papers",
        ),
    ),
    Migration(
        7,
        "digest claim owner and lease",
        (
            "ALTER TABLE digest_ledger ADD COLUMN owner TEXT",
            "ALTER TABLE digest_ledger ADD COLUMN lease_until TEXT",
        ),
    ),
    Migration(
        8,
        "reading group: queue, votes, bookmarks, discussed papers",
        (
            """CREATE TABLE queue_support (
                id INTEGER PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                user_id INTEGER,
                note TEXT NOT NULL DEFAULT '',
                created_at TEXT NOT NULL,
                UNIQUE (guild_id, paper_id, user_id)
            )""",
            "CREATE INDEX queue_support_user ON queue_support (user_id)",
            """CREATE TABLE votes (
                id INTEGER PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                message_id INTEGER,
                created_by INTEGER,
                opened_at TEXT NOT NULL,
                ends_at TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('open', 'claimed', 'announced', 'failed')),
                winner TEXT,
                nonce TEXT,
                closed_early INTEGER NOT NULL DEFAULT 0,
                announcement_id INTEGER,
                reason TEXT,
                claimed_at TEXT,
                finished_at TEXT
            )""",
            "CREATE UNIQUE INDEX votes_one_open ON votes (guild_id) "
            "WHERE status IN ('open', 'claimed')",
            "CREATE INDEX votes_status ON votes (status, ends_at)",
            """CREATE TABLE vote_options (
                vote_id INTEGER NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                support INTEGER NOT NULL,
                suggested_at TEXT NOT NULL,
                PRIMARY KEY (vote_id, position)
            ) WITHOUT ROWID""",
            """CREATE TABLE vote_ballots (
                vote_id INTEGER NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                cast_at TEXT NOT NULL,
                PRIMARY KEY (vote_id, user_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX vote_ballots_user ON vote_ballots (user_id)",
            """CREATE TABLE bookmarks (
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (guild_id, user_id, paper_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX bookmarks_user ON bookmarks (user_id)",
            """CREATE TABLE discussed (
                id INTEGER PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                discussed_at TEXT NOT NULL,
                presenter_id INTEGER,
                notes TEXT NOT NULL DEFAULT '',
                thread_id INTEGER
            )""",
            "CREATE INDEX discussed_guild ON discussed (guild_id, discussed_at)",
            "CREATE INDEX discussed_presenter ON discussed (presenter_id)",
        ),
    ),
    Migration(
        9,
        "notification outbox",
        (
            """CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                unit TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('digest_dm', 'new_papers_dm', 'mention')),
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                topics TEXT NOT NULL,
                channel_id INTEGER,
                link TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                owner TEXT,
                lease_until REAL,
                created_at TEXT NOT NULL,
                UNIQUE (guild_id, user_id, paper_id)
            )""",
            "CREATE INDEX outbox_unit ON outbox (unit)",
            "CREATE INDEX outbox_user ON outbox (user_id)",
        ),
    ),
    Migration(
        10,
        "reading-group sessions, reminders, presenter rotation",
        (
            """CREATE TABLE group_settings (
                guild_id INTEGER PRIMARY KEY,
                organiser_role_id INTEGER,
                timezone TEXT,
                reminders TEXT,
                rotation_turn INTEGER NOT NULL DEFAULT 0,
                last_presenter INTEGER,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE sessions (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                starts_at TEXT NOT NULL,
                presenter_id INTEGER,
                voice_channel_id INTEGER,
                link TEXT,
                channel_id INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled', 'done')),
                revision INTEGER NOT NULL DEFAULT 1,
                event_id INTEGER,
                message_id INTEGER,
                thread_id INTEGER,
                notes TEXT,
                problem TEXT,
                notice_pending INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            "CREATE INDEX sessions_guild ON sessions (guild_id, status, starts_at)",
            "CREATE INDEX sessions_status ON sessions (status, starts_at)",
            """CREATE TABLE session_reminders (
                session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                revision INTEGER NOT NULL,
                offset_minutes INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped', 'failed')),
                nonce TEXT NOT NULL,
                message_id INTEGER,
                reason TEXT,
                claimed_at TEXT NOT NULL,
                finished_at TEXT,
                PRIMARY KEY (session_id, revision, offset_minutes)
            ) WITHOUT ROWID""",
            """CREATE TABLE presenters (
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                joined INTEGER NOT NULL,
                last_turn INTEGER,
                presented INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (guild_id, user_id)
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        11,
        "paper of the day may skip papers the server already discussed",
        ("ALTER TABLE digest_settings ADD COLUMN skip_discussed INTEGER NOT NULL DEFAULT 0",),
    ),
    Migration(
        12,
        "English abstracts, arXiv ids and links",
        (
            *(f"ALTER TABLE papers ADD COLUMN {column}" for column in _V12_NEW_COLUMNS),
            "CREATE UNIQUE INDEX papers_arxiv_id ON papers (arxiv_id) WHERE arxiv_id != ''",
            # The index gains a last column; existing papers have no English abstract yet.
            f"CREATE TEMP TABLE fts_copy AS SELECT rowid AS id, {', '.join(_V1_COLUMNS)} "
            "FROM paper_fts",
            "DROP TABLE paper_vocab",
            "DROP TABLE paper_fts",
            f"CREATE VIRTUAL TABLE paper_fts USING fts5 ({', '.join(_V12_COLUMNS)}, "
            f"{_FTS_OPTIONS})",
            f"INSERT INTO paper_fts (rowid, {', '.join(_V12_COLUMNS)}) SELECT id, "
            f"{', '.join(_V1_COLUMNS)}, '' FROM fts_copy",
            "DROP TABLE fts_copy",
            "CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row')",
        ),
    ),
    Migration(
        13,
        "who may add papers from arXiv, per server",
        ("""CREATE TABLE add_policy (
                guild_id INTEGER PRIMARY KEY,
                who TEXT NOT NULL CHECK (who IN ('anyone', 'curators', 'managers')),
                curator_role_id INTEGER,
                updated_at TEXT NOT NULL
            )""",),
    ),
    Migration(
        14,
        "arXiv feeds: followed queries, their polls, seen ids and the announcement ledger",
        feed_tables(serial="INTEGER PRIMARY KEY AUTOINCREMENT", big="INTEGER"),
    ),
    Migration(
        15,
        "claimed reminders and vote announcements are leased to the process finishing them",
        (
            "ALTER TABLE session_reminders ADD COLUMN owner TEXT",
            "ALTER TABLE session_reminders ADD COLUMN lease_until TEXT",
            "ALTER TABLE votes ADD COLUMN owner TEXT",
            "ALTER TABLE votes ADD COLUMN lease_until TEXT",
        ),
    ),
    Migration(16, "a posted paper of the day records whether its DMs and follow-up mentions "
              "are queued", FOLLOWERS_QUEUED),
    Migration(17, "recommendations: each member's 👍 / 👎 on papers, per server",
              paper_feedback_tables(big="INTEGER")),
)

LATEST_VERSION = MIGRATIONS[-1].version
