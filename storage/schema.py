"""The schema's shared part, stated once for both backends: the tables whose DDL is the same in
both dialects but for type names (`storage.dialect` renders them per dialect). Each
`Table` renders the exact text the shipped migrations created (sqlite_master keeps it
verbatim; tests/storage/test_schema_unchanged.py pins it). A table is stated as it was first
created; later migrations alter it. Migrations are forward-only: never edit a `Table`; a new
migration is a step of `storage.migrations`, stated there once for both backends.
"""

from __future__ import annotations

from storage.dialect import Dialect, Table

LEASE = ("owner TEXT", "lease_until TEXT")
"""A claim's owner and lease, columns several tables gained."""
ARXIV_COLUMNS = (
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
"""The columns `papers` gained with English abstracts and arXiv links (SQLite 12)."""

PAPERS = Table("papers", (
    "id {big} PRIMARY KEY",
    "public_id TEXT NOT NULL UNIQUE",
    "title_key TEXT NOT NULL UNIQUE",
    "title_en TEXT NOT NULL",
    "title_zh TEXT NOT NULL",
    "authors TEXT NOT NULL",
    "affiliations TEXT NOT NULL",
    "summary_zh TEXT NOT NULL",
    "comments TEXT NOT NULL",
    "journal_ref TEXT NOT NULL",
    "conference TEXT",
    "year INTEGER",
    "track TEXT NOT NULL",
    "workshop TEXT",
    "honours TEXT NOT NULL",
    "pages INTEGER",
    "figures INTEGER",
    "tables INTEGER",
    "source TEXT NOT NULL",
    "source_line INTEGER",
    "content_hash TEXT NOT NULL",
    "added_at TEXT NOT NULL",
    "updated_at TEXT NOT NULL",
), indexes=(
    "CREATE INDEX papers_track_year ON papers (track, year)",
    "CREATE INDEX papers_source ON papers (source)",
))

PAPER_HONOURS = Table("paper_honours", (
    "honour TEXT NOT NULL",
    "paper_id {big} NOT NULL REFERENCES papers (id) ON DELETE CASCADE",
    "PRIMARY KEY (honour, paper_id)",
), without_rowid=True, indexes=(
    "CREATE INDEX paper_honours_paper ON paper_honours (paper_id)",
))

CATALOG_LOADS = Table("catalog_loads", (
    "id {rowid}",
    "source TEXT NOT NULL",
    "listing_query TEXT",
    "loaded_at TEXT NOT NULL",
    "added INTEGER NOT NULL",
    "updated INTEGER NOT NULL",
    "unchanged INTEGER NOT NULL",
    "removed INTEGER NOT NULL",
    "rejected INTEGER NOT NULL",
))

BOT_STATE = Table("bot_state", (
    "key TEXT PRIMARY KEY",
    "value TEXT NOT NULL",
    "updated_at TEXT NOT NULL",
))

DIGEST_SETTINGS = Table("digest_settings", (
    "guild_id {big} PRIMARY KEY",
    "channel_id {big} NOT NULL",
    "local_time TEXT NOT NULL",
    "timezone TEXT NOT NULL",
    "thread INTEGER NOT NULL DEFAULT 1",
    "mention_subscribers INTEGER NOT NULL DEFAULT 1",
    "track TEXT",
    "enabled INTEGER NOT NULL DEFAULT 1",
    "enabled_since TEXT NOT NULL",
    "paused_reason TEXT",
    "consecutive_failures INTEGER NOT NULL DEFAULT 0",
    "failure_notice_pending INTEGER NOT NULL DEFAULT 0",
    "updated_at TEXT NOT NULL",
))

DIGEST_LEDGER = Table("digest_ledger", (
    "guild_id {big} NOT NULL",
    "local_date TEXT NOT NULL",
    "status TEXT NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped', 'failed'))",
    "paper_id TEXT",
    "cycle INTEGER",
    "position INTEGER",
    "cycle_size INTEGER",
    "nonce TEXT NOT NULL",
    "channel_id {big}",
    "message_id {big}",
    "thread_id {big}",
    "late INTEGER NOT NULL DEFAULT 0",
    "reason TEXT",
    "attempts INTEGER NOT NULL DEFAULT 0",
    "claimed_at TEXT NOT NULL",
    "finished_at TEXT",
    "PRIMARY KEY (guild_id, local_date)",
), indexes=(
    "CREATE INDEX digest_ledger_cycle ON digest_ledger (guild_id, cycle, status)",
))

SUBSCRIPTIONS = Table("subscriptions", (
    "guild_id {big} NOT NULL",
    "user_id {big} NOT NULL",
    "topic TEXT NOT NULL",
    "topic_key TEXT NOT NULL",
    "delivery TEXT NOT NULL CHECK (delivery IN ('dm', 'mention'))",
    "created_at TEXT NOT NULL",
    "PRIMARY KEY (guild_id, user_id, topic_key)",
), indexes=(
    "CREATE INDEX subscriptions_topic ON subscriptions (guild_id, topic_key)",
    "CREATE INDEX subscriptions_user ON subscriptions (user_id)",
))

NOTIFICATIONS = Table("notifications", (
    "guild_id {big} NOT NULL",
    "user_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "via TEXT NOT NULL",
    "notified_at TEXT NOT NULL",
    "PRIMARY KEY (guild_id, user_id, paper_id)",
), indexes=(
    "CREATE INDEX notifications_user ON notifications (user_id)",
))

DM_PAUSES = Table("dm_pauses", (
    "user_id {big} PRIMARY KEY",
    "reason TEXT NOT NULL",
    "paused_at TEXT NOT NULL",
))

QUEUE_SUPPORT = Table("queue_support", (
    "id {rowid}",
    "guild_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "user_id {big}",
    "note TEXT NOT NULL DEFAULT ''",
    "created_at TEXT NOT NULL",
    "UNIQUE (guild_id, paper_id, user_id)",
), indexes=(
    "CREATE INDEX queue_support_user ON queue_support (user_id)",
))

VOTES = Table("votes", (
    "id {rowid}",
    "guild_id {big} NOT NULL",
    "channel_id {big} NOT NULL",
    "message_id {big}",
    "created_by {big}",
    "opened_at TEXT NOT NULL",
    "ends_at TEXT NOT NULL",
    "status TEXT NOT NULL\n"
    "                    CHECK (status IN ('open', 'claimed', 'announced', 'failed'))",
    "winner TEXT",
    "nonce TEXT",
    "closed_early INTEGER NOT NULL DEFAULT 0",
    "announcement_id {big}",
    "reason TEXT",
    "claimed_at TEXT",
    "finished_at TEXT",
), indexes=(
    "CREATE UNIQUE INDEX votes_one_open ON votes (guild_id) WHERE status IN ('open', 'claimed')",
    "CREATE INDEX votes_status ON votes (status, ends_at)",
))

VOTE_OPTIONS = Table("vote_options", (
    "vote_id {big} NOT NULL REFERENCES votes (id) ON DELETE CASCADE",
    "position INTEGER NOT NULL",
    "paper_id TEXT NOT NULL",
    "support INTEGER NOT NULL",
    "suggested_at TEXT NOT NULL",
    "PRIMARY KEY (vote_id, position)",
), without_rowid=True)

VOTE_BALLOTS = Table("vote_ballots", (
    "vote_id {big} NOT NULL REFERENCES votes (id) ON DELETE CASCADE",
    "user_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "cast_at TEXT NOT NULL",
    "PRIMARY KEY (vote_id, user_id)",
), without_rowid=True, indexes=(
    "CREATE INDEX vote_ballots_user ON vote_ballots (user_id)",
))

BOOKMARKS = Table("bookmarks", (
    "guild_id {big} NOT NULL",
    "user_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "created_at TEXT NOT NULL",
    "PRIMARY KEY (guild_id, user_id, paper_id)",
), without_rowid=True, indexes=(
    "CREATE INDEX bookmarks_user ON bookmarks (user_id)",
))

DISCUSSED = Table("discussed", (
    "id {rowid}",
    "guild_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "discussed_at TEXT NOT NULL",
    "presenter_id {big}",
    "notes TEXT NOT NULL DEFAULT ''",
    "thread_id {big}",
), indexes=(
    "CREATE INDEX discussed_guild ON discussed (guild_id, discussed_at)",
    "CREATE INDEX discussed_presenter ON discussed (presenter_id)",
))

OUTBOX = Table("outbox", (
    "id {rowid}",
    "unit TEXT NOT NULL",
    "kind TEXT NOT NULL CHECK (kind IN ('digest_dm', 'new_papers_dm', 'mention'))",
    "guild_id {big} NOT NULL",
    "user_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "topics TEXT NOT NULL",
    "channel_id {big}",
    "link TEXT",
    "attempts INTEGER NOT NULL DEFAULT 0",
    "owner TEXT",
    "lease_until {real}",
    "created_at TEXT NOT NULL",
    "UNIQUE (guild_id, user_id, paper_id)",
), indexes=(
    "CREATE INDEX outbox_unit ON outbox (unit)",
    "CREATE INDEX outbox_user ON outbox (user_id)",
))

GROUP_SETTINGS = Table("group_settings", (
    "guild_id {big} PRIMARY KEY",
    "organiser_role_id {big}",
    "timezone TEXT",
    "reminders TEXT",
    "rotation_turn INTEGER NOT NULL DEFAULT 0",
    "last_presenter {big}",
    "updated_at TEXT NOT NULL",
))

SESSIONS = Table("sessions", (
    "id {serial}",
    "guild_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "starts_at TEXT NOT NULL",
    "presenter_id {big}",
    "voice_channel_id {big}",
    "link TEXT",
    "channel_id {big} NOT NULL",
    "status TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled', 'done'))",
    "revision INTEGER NOT NULL DEFAULT 1",
    "event_id {big}",
    "message_id {big}",
    "thread_id {big}",
    "notes TEXT",
    "problem TEXT",
    "notice_pending INTEGER NOT NULL DEFAULT 0",
    "created_at TEXT NOT NULL",
    "updated_at TEXT NOT NULL",
), indexes=(
    "CREATE INDEX sessions_guild ON sessions (guild_id, status, starts_at)",
    "CREATE INDEX sessions_status ON sessions (status, starts_at)",
))

SESSION_REMINDERS = Table("session_reminders", (
    "session_id {big} NOT NULL REFERENCES sessions (id) ON DELETE CASCADE",
    "revision INTEGER NOT NULL",
    "offset_minutes INTEGER NOT NULL",
    "status TEXT NOT NULL CHECK (status IN ('claimed', 'posted', 'skipped', 'failed'))",
    "nonce TEXT NOT NULL",
    "message_id {big}",
    "reason TEXT",
    "claimed_at TEXT NOT NULL",
    "finished_at TEXT",
    "PRIMARY KEY (session_id, revision, offset_minutes)",
), without_rowid=True)

PRESENTERS = Table("presenters", (
    "guild_id {big} NOT NULL",
    "user_id {big} NOT NULL",
    "joined INTEGER NOT NULL",
    "last_turn INTEGER",
    "presented INTEGER NOT NULL DEFAULT 0",
    "PRIMARY KEY (guild_id, user_id)",
), without_rowid=True)

ADD_POLICY = Table("add_policy", (
    "guild_id {big} PRIMARY KEY",
    "who TEXT NOT NULL CHECK (who IN ('anyone', 'curators', 'managers'))",
    "curator_role_id {big}",
    "updated_at TEXT NOT NULL",
))

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


def feed_tables(dialect: Dialect) -> tuple[str, ...]:
    """The feed tables in one backend's types (shared, so the two schemas cannot drift)."""
    return tuple(s.format(**dialect.types()) for s in _FEED_TABLES)


PAPER_FEEDBACK = Table("paper_feedback", (
    "guild_id {big} NOT NULL",
    "user_id {big} NOT NULL",
    "paper_id TEXT NOT NULL",
    "verdict TEXT NOT NULL CHECK (verdict IN ('up', 'down'))",
    "rated_at TEXT NOT NULL",
    "PRIMARY KEY (guild_id, user_id, paper_id)",
), indexes=("CREATE INDEX paper_feedback_user ON paper_feedback (user_id)",))
"""Each member's 👍 / 👎 on papers, per server (recommendations)."""

RECOMMEND_VOCABULARIES = Table("recommend_vocabularies", (
    "revision {serial}",
    "catalog_version {big} NOT NULL",
    "papers {big} NOT NULL",
    "transformed {big} NOT NULL DEFAULT 0",
    "vocabulary {blob}",
    "started_at TEXT NOT NULL",
    "finished_at TEXT",
))
"""Each fit of the recommendation features: the catalog version and size it was fitted on, how
many papers were transformed with it since, and its vocabulary (NULL while its vectors are
being written; the newest finished one is current)."""

PAPER_VECTORS = Table("paper_vectors", (
    "revision {big} NOT NULL REFERENCES recommend_vocabularies (revision) ON DELETE CASCADE",
    "paper_id TEXT NOT NULL",
    "content_hash TEXT NOT NULL",
    "vector {blob} NOT NULL",
    "PRIMARY KEY (revision, paper_id)",
), without_rowid=True)
"""Each catalog paper's feature row under a fit, with the content hash of the paper it was
computed from (a paper whose hash moved is transformed again)."""

CALENDAR_LINKS = Table("calendar_links", (
    "guild_id {big} PRIMARY KEY",
    "token TEXT UNIQUE",
    "updated_at TEXT NOT NULL",
))
"""Each server's calendar feed link: its unguessable token, NULL once organisers turned it off."""

WEB_LINKS = Table("web_links", CALENDAR_LINKS.lines)
"""Each server's read-only web page link (the calendar links' columns), NULL once off."""

SIMILAR_SUBSCRIPTIONS = Table("similar_subscriptions", (
    "guild_id {big} NOT NULL",
    "user_id {big} NOT NULL",
    "threshold INTEGER NOT NULL CHECK (threshold BETWEEN 0 AND 100)",
    "updated_at TEXT NOT NULL",
    "PRIMARY KEY (guild_id, user_id)",
), indexes=("CREATE INDEX similar_subscriptions_user ON similar_subscriptions (user_id)",))
"""Members told of new papers like their bookmarks and 👍, with their threshold (0-100)."""

PAPER_SUMMARIES = Table("paper_summaries", (
    "paper_id TEXT NOT NULL",
    "lang TEXT NOT NULL",
    "status TEXT NOT NULL CHECK (status IN ('claimed', 'waiting', 'done', 'failed'))",
    "summary TEXT NOT NULL DEFAULT ''",
    "model TEXT NOT NULL DEFAULT ''",
    "prompt_version INTEGER NOT NULL DEFAULT 0",
    "source_hash TEXT NOT NULL DEFAULT ''",
    "content_hash TEXT NOT NULL DEFAULT ''",
    "attempts INTEGER NOT NULL DEFAULT 0",
    "reason TEXT NOT NULL DEFAULT ''",
    "owner TEXT",
    "lease_until TEXT",
    "next_try TEXT",
    "updated_at TEXT NOT NULL",
    "PRIMARY KEY (paper_id, lang)",
), indexes=("CREATE INDEX paper_summaries_status ON paper_summaries (lang, status)",))
"""AI summaries per paper (public id) and language, with the work of making them: claimed
(leased to `owner` until `lease_until`), waiting for `next_try`, done or failed."""
LLM_USAGE = Table("llm_usage", (
    "day TEXT PRIMARY KEY",
    "tokens {big} NOT NULL",
    "requests {big} NOT NULL",
))
"""Tokens spent (or reserved for a request in flight) on the model endpoint, per UTC day."""
