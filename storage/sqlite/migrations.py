"""Numbered, forward-only schema migrations; the version lives in `PRAGMA user_version`.

Append new migrations to the end of `MIGRATIONS`; never edit one that has shipped.
Statements may call `paperclub_id(title_key)`, the public id function of `domain.paper`,
and `paperclub_index(column, <storage.papers.fts.STORED_FIELDS>)`, one full-text index column of a
stored paper as `storage.papers.fts.index_row` makes it now. The tables both backends have
are stated once in `storage.schema` and rendered here in SQLite's types.
"""

from __future__ import annotations

from storage.corrections.tables import (
    CORRECTION_NOTICE_DECISIONS,
    correction_notice_tables,
    correction_tables,
)
from storage.dialect import SQLITE, Migration
from storage.digest.tables import DIGEST_NOTICE_LEASE
from storage.meaning.tables import PAPER_EMBEDDINGS
from storage.notifications.tables import commit_then_send
from storage.papers.fts import INDEXED_FIELDS, STORED_FIELDS
from storage.schema import (
    ADD_POLICY,
    BOOKMARKS,
    BOT_STATE,
    CALENDAR_LINKS,
    CATALOG_LOADS,
    DIGEST_LEDGER,
    DIGEST_PICK,
    DIGEST_SETTINGS,
    DISCUSSED,
    DM_PAUSES,
    FOLLOWERS_QUEUED,
    GROUP_SETTINGS,
    LLM_USAGE,
    NOTIFICATIONS,
    OUTBOX,
    PAPER_FEEDBACK,
    PAPER_HONOURS,
    PAPER_SUMMARIES,
    PAPER_VECTORS,
    PAPERS,
    PRESENTERS,
    QUEUE_SUPPORT,
    RECOMMEND_VOCABULARIES,
    SESSION_REMINDERS,
    SESSIONS,
    SIMILAR_SUBSCRIPTIONS,
    SUBSCRIPTIONS,
    VOTE_BALLOTS,
    VOTE_OPTIONS,
    VOTE_STYLE,
    VOTES,
    WEB_LINKS,
    feed_tables,
)

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


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "catalog and full-text index",
        (
            *PAPERS.create(SQLITE),
            *PAPER_HONOURS.create(SQLITE),
            """CREATE VIRTUAL TABLE paper_fts USING fts5 (
                title_en, title_zh, authors, affiliations, summary, venue,
                tokenize = 'unicode61 remove_diacritics 2'
            )""",
            "CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row')",
            *CATALOG_LOADS.create(SQLITE),
        ),
    ),
    Migration(
        2,
        "bot state",
        (
            *BOT_STATE.create(SQLITE),
        ),
    ),
    Migration(
        3,
        "paper of the day",
        (
            *DIGEST_SETTINGS.create(SQLITE),
            *DIGEST_LEDGER.create(SQLITE),
        ),
    ),
    Migration(
        4,
        "topic subscriptions",
        (
            *SUBSCRIPTIONS.create(SQLITE),
            *NOTIFICATIONS.create(SQLITE),
            *DM_PAUSES.create(SQLITE),
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
            *QUEUE_SUPPORT.create(SQLITE),
            *VOTES.create(SQLITE),
            *VOTE_OPTIONS.create(SQLITE),
            *VOTE_BALLOTS.create(SQLITE),
            *BOOKMARKS.create(SQLITE),
            *DISCUSSED.create(SQLITE),
        ),
    ),
    Migration(
        9,
        "notification outbox",
        (
            *OUTBOX.create(SQLITE),
        ),
    ),
    Migration(
        10,
        "reading-group sessions, reminders, presenter rotation",
        (
            *GROUP_SETTINGS.create(SQLITE),
            *SESSIONS.create(SQLITE),
            *SESSION_REMINDERS.create(SQLITE),
            *PRESENTERS.create(SQLITE),
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
        (*ADD_POLICY.create(SQLITE),),
    ),
    Migration(
        14,
        "arXiv feeds: followed queries, their polls, seen ids and the announcement ledger",
        feed_tables(SQLITE),
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
              PAPER_FEEDBACK.create(SQLITE)),
    Migration(18, "each server's calendar feed link (its token, or off)",
              CALENDAR_LINKS.create(SQLITE)),
    Migration(19, "corrections: proposals per server, their history, where curators review them",
              correction_tables(SQLITE)),
    Migration(20, "each server's read-only web page link (its token, or off)",
              WEB_LINKS.create(SQLITE)),
    Migration(21, "a vote records how members vote: buttons or a native Discord poll (whose "
              "message is the vote's message)", VOTE_STYLE),
    Migration(22, "corrections: the curators' notices that a source changed a corrected field, "
              "and corrections applied from a file", correction_notice_tables(SQLITE)),
    Migration(23, "the paper of the day may be the group's recommended paper; members follow "
              "papers like their bookmarks",
              (*DIGEST_PICK, *SIMILAR_SUBSCRIPTIONS.create(SQLITE))),
    Migration(24, "recommendation features kept with the catalog: "
              "each fit's vocabulary, every paper's vector",
              (*RECOMMEND_VOCABULARIES.create(SQLITE), *PAPER_VECTORS.create(SQLITE))),
    Migration(25, "the full-text index keeps no copy of its text (contentless FTS5): a third "
              "of the database", (
                  "DROP TABLE paper_vocab",
                  "ALTER TABLE paper_fts RENAME TO paper_fts_stored",
                  f"CREATE VIRTUAL TABLE paper_fts USING fts5 ({', '.join(_V12_COLUMNS)}, "
                  f"content = '', {_FTS_OPTIONS})",
                  f"INSERT INTO paper_fts (rowid, {', '.join(_V12_COLUMNS)}) SELECT id, "
                  + ", ".join(f"paperclub_index({i}, {INDEXED_FIELDS})"
                              for i in range(len(_V12_COLUMNS))) + " FROM papers",
                  "DROP TABLE paper_fts_stored",
                  "CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row')",
              )),
    Migration(26, "a headline index (titles and authors alone, contentless FTS5) beside the "
              "whole-paper one: a common word's headline tier no longer reads every summary", (
                  f"CREATE VIRTUAL TABLE paper_fts_head USING fts5 ({', '.join(_V1_COLUMNS[:3])}, "
                  f"content = '', {_FTS_OPTIONS})",
                  f"INSERT INTO paper_fts_head (rowid, {', '.join(_V1_COLUMNS[:3])}) SELECT id, "
                  + ", ".join(f"paperclub_index({i}, {INDEXED_FIELDS})" for i in range(3))
                  + " FROM papers",
              )),
    Migration(27, "nothing lost between commit and send: papers whose subscribers are not yet "
              "queued their DMs, correction outcomes through the outbox, review messages still "
              "to show their decision", commit_then_send(SQLITE)),
    Migration(28, "AI summaries per paper and language, and the tokens spent on them per day",
              (*PAPER_SUMMARIES.create(SQLITE), *LLM_USAGE.create(SQLITE))),
    Migration(29, "search by meaning: each catalog paper's sentence-encoder vector",
              PAPER_EMBEDDINGS.create(SQLITE)),
    Migration(30, "nothing lost between commit and send: a source-change notice's decision "
              "until its message shows it, the paper of the day's pause note until it was "
              "sent",
              (*CORRECTION_NOTICE_DECISIONS.create(SQLITE), *DIGEST_NOTICE_LEASE)),
)

LATEST_VERSION = MIGRATIONS[-1].version
