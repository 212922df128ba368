"""Numbered, forward-only schema migrations; the version lives in `PRAGMA user_version`.

A new migration is a step of `storage.migrations` (stated once for both backends, or for SQLite
alone); never edit one that has shipped.
Statements may call `paperclub_id(title_key)`, the public id function of `domain.paper`,
and `paperclub_index(column, <storage.papers.fts.STORED_FIELDS>)`, one full-text index column of a
stored paper as `storage.papers.fts.index_row` makes it now. The tables both backends have
are stated once in `storage.schema` and rendered here in SQLite's types; the shipped migrations
PostgreSQL took alike (11, 13, 15-24) are stated once in `storage.migrations.SHIPPED`.
"""

from __future__ import annotations

from storage import schema
from storage.dialect import SQLITE, Migration, add_columns, create_all
from storage.migrations import every
from storage.papers.fts import INDEXED_FIELDS, STORED_FIELDS

_V1_COLUMNS = ("title_en", "title_zh", "authors", "affiliations", "summary", "venue")
"""The full-text columns from migration 1 to 11 (`storage.papers.fts.COLUMNS` then)."""
_V12_COLUMNS = (*_V1_COLUMNS, "summary_en")
"""The full-text columns from migration 12 on (frozen: later changes get their own step)."""
_FTS_OPTIONS = "tokenize = 'unicode61 remove_diacritics 2'"

_WRITTEN: tuple[Migration, ...] = (
    Migration(1, "catalog and full-text index", (
        *create_all(SQLITE, schema.PAPERS, schema.PAPER_HONOURS),
        """CREATE VIRTUAL TABLE paper_fts USING fts5 (
                title_en, title_zh, authors, affiliations, summary, venue,
                tokenize = 'unicode61 remove_diacritics 2'
            )""",
        "CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row')",
        *schema.CATALOG_LOADS.create(SQLITE),
    )),
    Migration(2, "bot state", schema.BOT_STATE.create(SQLITE)),
    Migration(3, "paper of the day",
              create_all(SQLITE, schema.DIGEST_SETTINGS, schema.DIGEST_LEDGER)),
    Migration(4, "topic subscriptions",
              create_all(SQLITE, schema.SUBSCRIPTIONS, schema.NOTIFICATIONS, schema.DM_PAUSES)),
    Migration(5, "64-bit paper ids", (
        "CREATE TEMP TABLE id_map AS "
        "SELECT public_id AS old, paperclub_id(title_key) AS new FROM papers",
        "UPDATE papers SET public_id = paperclub_id(title_key)",
        *(f"UPDATE {table} SET paper_id = (SELECT new FROM id_map WHERE old = {table}.paper_id) "
          "WHERE paper_id IN (SELECT old FROM id_map)"
          for table in ("digest_ledger", "notifications")),
        "DROP TABLE id_map",
    )),
    Migration(6, "full-text index: Traditional Chinese folded to Simplified, no venue "
              "boilerplate", (
        "DELETE FROM paper_fts",
        f"INSERT INTO paper_fts (rowid, {', '.join(_V1_COLUMNS)}) SELECT id, "
        + ", ".join(f"paperclub_index({i}, {STORED_FIELDS})" for i in range(len(_V1_COLUMNS)))
        + " FROM papers",
    )),
    Migration(7, "digest claim owner and lease", add_columns("digest_ledger", schema.LEASE)),
    Migration(8, "reading group: queue, votes, bookmarks, discussed papers", create_all(
        SQLITE, schema.QUEUE_SUPPORT, schema.VOTES, schema.VOTE_OPTIONS, schema.VOTE_BALLOTS,
        schema.BOOKMARKS, schema.DISCUSSED)),
    Migration(9, "notification outbox", schema.OUTBOX.create(SQLITE)),
    Migration(10, "reading-group sessions, reminders, presenter rotation", create_all(
        SQLITE, schema.GROUP_SETTINGS, schema.SESSIONS, schema.SESSION_REMINDERS,
        schema.PRESENTERS)),
    # 11: storage.migrations.SHIPPED
    Migration(12, "English abstracts, arXiv ids and links", (
        *add_columns("papers", schema.ARXIV_COLUMNS),
        "CREATE UNIQUE INDEX papers_arxiv_id ON papers (arxiv_id) WHERE arxiv_id != ''",
        # The index gains a last column; existing papers have no English abstract yet.
        f"CREATE TEMP TABLE fts_copy AS SELECT rowid AS id, {', '.join(_V1_COLUMNS)} "
        "FROM paper_fts",
        "DROP TABLE paper_vocab",
        "DROP TABLE paper_fts",
        f"CREATE VIRTUAL TABLE paper_fts USING fts5 ({', '.join(_V12_COLUMNS)}, {_FTS_OPTIONS})",
        f"INSERT INTO paper_fts (rowid, {', '.join(_V12_COLUMNS)}) SELECT id, "
        f"{', '.join(_V1_COLUMNS)}, '' FROM fts_copy",
        "DROP TABLE fts_copy",
        "CREATE VIRTUAL TABLE paper_vocab USING fts5vocab (paper_fts, 'row')",
    )),
    # 13: storage.migrations.SHIPPED
    Migration(14, "arXiv feeds: followed queries, their polls, seen ids and the announcement "
              "ledger", schema.feed_tables(SQLITE)),
    # 15-24: storage.migrations.SHIPPED
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
)

MIGRATIONS: tuple[Migration, ...] = every("sqlite", _WRITTEN)
LATEST_VERSION = MIGRATIONS[-1].version
