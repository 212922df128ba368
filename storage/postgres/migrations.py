"""Numbered, forward-only PostgreSQL schema migrations; the version lives in `paperclub_schema`.

Migration 1 is SQLite's schema at version 10 flattened: the same tables and columns (64-bit
integers for Discord ids, text for timestamps, 0/1 integers for flags, so that rows copy across
unchanged), with the full-text index as a `tsvector` column on `papers` (GIN-indexed) instead of
the FTS5 table. Migration 7 adds `paper_heads`, the headline part of that `tsvector` (only
PostgreSQL has it: it is derived, never copied). Append new migrations; never edit one that has
shipped.
"""

from __future__ import annotations

from storage.sqlite.migrations import (
    FOLLOWERS_QUEUED,
    Migration,
    feed_tables,
    paper_feedback_tables,
)

HEAD_WEIGHTS = "{a,b}"
"""The weight letters of the headline columns (titles A, authors B) kept in `paper_heads`."""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "the schema of SQLite version 10, full-text search as a tsvector",
        (
            """CREATE TABLE papers (
                id BIGINT PRIMARY KEY,
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
                updated_at TEXT NOT NULL,
                search TSVECTOR NOT NULL,
                search_tokens INTEGER NOT NULL
            )""",
            "CREATE INDEX papers_track_year ON papers (track, year)",
            "CREATE INDEX papers_source ON papers (source)",
            "CREATE INDEX papers_search ON papers USING gin (search)",
            """CREATE TABLE paper_honours (
                honour TEXT NOT NULL,
                paper_id BIGINT NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
                PRIMARY KEY (honour, paper_id)
            )""",
            "CREATE INDEX paper_honours_paper ON paper_honours (paper_id)",
            """CREATE TABLE catalog_loads (
                id BIGSERIAL PRIMARY KEY,
                source TEXT NOT NULL,
                listing_query TEXT,
                loaded_at TEXT NOT NULL,
                added INTEGER NOT NULL,
                updated INTEGER NOT NULL,
                unchanged INTEGER NOT NULL,
                removed INTEGER NOT NULL,
                rejected INTEGER NOT NULL
            )""",
            """CREATE TABLE bot_state (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE digest_settings (
                guild_id BIGINT PRIMARY KEY,
                channel_id BIGINT NOT NULL,
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
                guild_id BIGINT NOT NULL,
                local_date TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped', 'failed')),
                paper_id TEXT,
                cycle INTEGER,
                position INTEGER,
                cycle_size INTEGER,
                nonce TEXT NOT NULL,
                channel_id BIGINT,
                message_id BIGINT,
                thread_id BIGINT,
                late INTEGER NOT NULL DEFAULT 0,
                reason TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                claimed_at TEXT NOT NULL,
                finished_at TEXT,
                owner TEXT,
                lease_until TEXT,
                PRIMARY KEY (guild_id, local_date)
            )""",
            "CREATE INDEX digest_ledger_cycle ON digest_ledger (guild_id, cycle, status)",
            """CREATE TABLE subscriptions (
                guild_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                topic TEXT NOT NULL,
                topic_key TEXT NOT NULL,
                delivery TEXT NOT NULL CHECK (delivery IN ('dm', 'mention')),
                created_at TEXT NOT NULL,
                PRIMARY KEY (guild_id, user_id, topic_key)
            )""",
            "CREATE INDEX subscriptions_topic ON subscriptions (guild_id, topic_key)",
            "CREATE INDEX subscriptions_user ON subscriptions (user_id)",
            """CREATE TABLE notifications (
                guild_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                paper_id TEXT NOT NULL,
                via TEXT NOT NULL,
                notified_at TEXT NOT NULL,
                PRIMARY KEY (guild_id, user_id, paper_id)
            )""",
            "CREATE INDEX notifications_user ON notifications (user_id)",
            """CREATE TABLE dm_pauses (
                user_id BIGINT PRIMARY KEY,
                reason TEXT NOT NULL,
                paused_at TEXT NOT NULL
            )""",
            """CREATE TABLE queue_support (
                id BIGSERIAL PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                paper_id TEXT NOT NULL,
                user_id BIGINT,
                note TEXT NOT NULL DEFAULT '',
                created_at TEXT NOT NULL,
                UNIQUE (guild_id, paper_id, user_id)
            )""",
            "CREATE INDEX queue_support_user ON queue_support (user_id)",
            """CREATE TABLE votes (
                id BIGSERIAL PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                channel_id BIGINT NOT NULL,
                message_id BIGINT,
                created_by BIGINT,
                opened_at TEXT NOT NULL,
                ends_at TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('open', 'claimed', 'announced', 'failed')),
                winner TEXT,
                nonce TEXT,
                closed_early INTEGER NOT NULL DEFAULT 0,
                announcement_id BIGINT,
                reason TEXT,
                claimed_at TEXT,
                finished_at TEXT
            )""",
            "CREATE UNIQUE INDEX votes_one_open ON votes (guild_id) "
            "WHERE status IN ('open', 'claimed')",
            "CREATE INDEX votes_status ON votes (status, ends_at)",
            """CREATE TABLE vote_options (
                vote_id BIGINT NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                paper_id TEXT NOT NULL,
                support INTEGER NOT NULL,
                suggested_at TEXT NOT NULL,
                PRIMARY KEY (vote_id, position)
            )""",
            """CREATE TABLE vote_ballots (
                vote_id BIGINT NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL,
                paper_id TEXT NOT NULL,
                cast_at TEXT NOT NULL,
                PRIMARY KEY (vote_id, user_id)
            )""",
            "CREATE INDEX vote_ballots_user ON vote_ballots (user_id)",
            """CREATE TABLE bookmarks (
                guild_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                paper_id TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (guild_id, user_id, paper_id)
            )""",
            "CREATE INDEX bookmarks_user ON bookmarks (user_id)",
            """CREATE TABLE discussed (
                id BIGSERIAL PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                paper_id TEXT NOT NULL,
                discussed_at TEXT NOT NULL,
                presenter_id BIGINT,
                notes TEXT NOT NULL DEFAULT '',
                thread_id BIGINT
            )""",
            "CREATE INDEX discussed_guild ON discussed (guild_id, discussed_at)",
            "CREATE INDEX discussed_presenter ON discussed (presenter_id)",
            """CREATE TABLE outbox (
                id BIGSERIAL PRIMARY KEY,
                unit TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('digest_dm', 'new_papers_dm', 'mention')),
                guild_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                paper_id TEXT NOT NULL,
                topics TEXT NOT NULL,
                channel_id BIGINT,
                link TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                owner TEXT,
                lease_until DOUBLE PRECISION,
                created_at TEXT NOT NULL,
                UNIQUE (guild_id, user_id, paper_id)
            )""",
            "CREATE INDEX outbox_unit ON outbox (unit)",
            "CREATE INDEX outbox_user ON outbox (user_id)",
            """CREATE TABLE group_settings (
                guild_id BIGINT PRIMARY KEY,
                organiser_role_id BIGINT,
                timezone TEXT,
                reminders TEXT,
                rotation_turn INTEGER NOT NULL DEFAULT 0,
                last_presenter BIGINT,
                updated_at TEXT NOT NULL
            )""",
            """CREATE TABLE sessions (
                id BIGSERIAL PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                paper_id TEXT NOT NULL,
                starts_at TEXT NOT NULL,
                presenter_id BIGINT,
                voice_channel_id BIGINT,
                link TEXT,
                channel_id BIGINT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled', 'done')),
                revision INTEGER NOT NULL DEFAULT 1,
                event_id BIGINT,
                message_id BIGINT,
                thread_id BIGINT,
                notes TEXT,
                problem TEXT,
                notice_pending INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            "CREATE INDEX sessions_guild ON sessions (guild_id, status, starts_at)",
            "CREATE INDEX sessions_status ON sessions (status, starts_at)",
            """CREATE TABLE session_reminders (
                session_id BIGINT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                revision INTEGER NOT NULL,
                offset_minutes INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped', 'failed')),
                nonce TEXT NOT NULL,
                message_id BIGINT,
                reason TEXT,
                claimed_at TEXT NOT NULL,
                finished_at TEXT,
                PRIMARY KEY (session_id, revision, offset_minutes)
            )""",
            """CREATE TABLE presenters (
                guild_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                joined INTEGER NOT NULL,
                last_turn INTEGER,
                presented INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (guild_id, user_id)
            )""",
        ),
    ),
    Migration(
        2,
        "SQLite 11: paper of the day may skip papers the server already discussed",
        ("ALTER TABLE digest_settings ADD COLUMN skip_discussed INTEGER NOT NULL DEFAULT 0",),
    ),
    Migration(
        3,
        "SQLite 12: English abstracts, arXiv ids and links (the tsvector gains the abstract's "
        "tokens as papers are added or reloaded)",
        (
            "ALTER TABLE papers ADD COLUMN summary_en TEXT NOT NULL DEFAULT '', "
            "ADD COLUMN arxiv_id TEXT NOT NULL DEFAULT '', "
            "ADD COLUMN arxiv_version INTEGER NOT NULL DEFAULT 0, "
            "ADD COLUMN doi TEXT NOT NULL DEFAULT '', ADD COLUMN url TEXT NOT NULL DEFAULT '', "
            "ADD COLUMN pdf_url TEXT NOT NULL DEFAULT '', "
            "ADD COLUMN categories TEXT NOT NULL DEFAULT '[]', "
            "ADD COLUMN arxiv_published TEXT, ADD COLUMN arxiv_updated TEXT",
            "CREATE UNIQUE INDEX papers_arxiv_id ON papers (arxiv_id) WHERE arxiv_id != ''",
        ),
    ),
    Migration(
        4,
        "SQLite 13: who may add papers from arXiv, per server",
        ("""CREATE TABLE add_policy (
                guild_id BIGINT PRIMARY KEY,
                who TEXT NOT NULL CHECK (who IN ('anyone', 'curators', 'managers')),
                curator_role_id BIGINT,
                updated_at TEXT NOT NULL
            )""",),
    ),
    Migration(
        5,
        "SQLite 14: arXiv feeds, their polls, seen ids and the announcement ledger",
        feed_tables(serial="BIGSERIAL PRIMARY KEY", big="BIGINT"),
    ),
    Migration(
        6,
        "SQLite 15: claimed reminders and vote announcements are leased to the process "
        "finishing them",
        (
            "ALTER TABLE session_reminders ADD COLUMN owner TEXT, ADD COLUMN lease_until TEXT",
            "ALTER TABLE votes ADD COLUMN owner TEXT, ADD COLUMN lease_until TEXT",
        ),
    ),
    Migration(
        7,
        "search speed: the headline index (titles and authors) in a narrow side table kept by "
        "a trigger, so a frequent word's window is ranked without reading whole rows",
        (
            """CREATE TABLE paper_heads (
                id BIGINT PRIMARY KEY REFERENCES papers (id) ON DELETE CASCADE,
                head TSVECTOR NOT NULL,
                search_tokens INTEGER NOT NULL
            )""",
            f"""CREATE FUNCTION paper_heads_sync() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO paper_heads (id, head, search_tokens)
                VALUES (NEW.id, ts_filter(NEW.search, '{HEAD_WEIGHTS}'), NEW.search_tokens)
                ON CONFLICT (id) DO UPDATE
                SET head = excluded.head, search_tokens = excluded.search_tokens;
                RETURN NULL;
            END $$""",
            "CREATE TRIGGER papers_heads AFTER INSERT OR UPDATE OF search, search_tokens "
            "ON papers FOR EACH ROW EXECUTE FUNCTION paper_heads_sync()",
            "INSERT INTO paper_heads (id, head, search_tokens) "
            f"SELECT id, ts_filter(search, '{HEAD_WEIGHTS}'), search_tokens FROM papers",
            "CREATE INDEX paper_heads_head ON paper_heads USING gin (head)",
        ),
    ),
    Migration(8, "SQLite 16: a posted paper of the day records whether its DMs and follow-up "
              "mentions are queued", FOLLOWERS_QUEUED),
    Migration(9, "SQLite 17: recommendations: each member's 👍 / 👎 on papers, per server",
              paper_feedback_tables(big="BIGINT")),
)

LATEST_VERSION = MIGRATIONS[-1].version

SQLITE_VERSION: dict[int, int] = {0: 0, 1: 10, 2: 11, 3: 12, 4: 13, 5: 14, 6: 15, 7: 15, 8: 16,
                                9: 17}
"""The SQLite schema version each PostgreSQL version mirrors (`paperclub db copy` moves rows
only between equal schemas); a new PostgreSQL migration adds its line."""
