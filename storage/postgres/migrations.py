"""Numbered, forward-only PostgreSQL schema migrations; the version lives in `paperclub_schema`.

Migration 1 is SQLite's schema at version 10 flattened: the same tables and columns (64-bit
integers for Discord ids, text for timestamps, 0/1 integers for flags, so that rows copy across
unchanged), with the full-text index as a `tsvector` column on `papers` (GIN-indexed) instead of
the FTS5 table. Migration 7 adds `paper_heads`, the headline part of that `tsvector` (only
PostgreSQL has it: it is derived, never copied). The tables both backends have are stated once
in `storage.schema` and rendered here in PostgreSQL's types; the shipped migrations SQLite
took alike (2, 4, 6, 8-16) are stated once in `storage.migrations.SHIPPED`. A new migration is
a step of `storage.migrations` (for both backends, or PostgreSQL alone); never edit a shipped
one.
"""

from __future__ import annotations

from storage import schema
from storage.dialect import POSTGRES, Migration, add_columns, create_all
from storage.migrations import every, mirrored

HEAD_WEIGHTS = "{a,b}"
"""The weight letters of the headline columns (titles A, authors B) kept in `paper_heads`."""
_SEARCH_COLUMNS = ("search TSVECTOR NOT NULL", "search_tokens INTEGER NOT NULL")
"""The full-text index, a column of `papers` here (SQLite's is the FTS5 table `paper_fts`)."""

_TERM_COUNTS = (
    "SELECT u.lexeme, count(*) FROM {rows} r, unnest(r.search) u "
    "WHERE ascii(u.lexeme) BETWEEN 97 AND 122 "
    "GROUP BY 1 ORDER BY 1"
)
"""Papers per Latin term (starting with a-z: what `domain.prefixes` expands) among `rows`."""
PAPER_TERMS = (
    """CREATE TABLE paper_terms (
        term TEXT COLLATE "C" PRIMARY KEY,
        docs INTEGER NOT NULL
    )""",
    f"""CREATE FUNCTION paper_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('paperclub.terms', true) = 'off' THEN  -- a load recounts at its end
            RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            UPDATE paper_terms t SET docs = t.docs - d.n
            FROM ({_TERM_COUNTS.format(rows="old_rows")}) AS d (term, n) WHERE t.term = d.term;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
            INSERT INTO paper_terms (term, docs) {_TERM_COUNTS.format(rows="new_rows")}
            ON CONFLICT (term) DO UPDATE SET docs = paper_terms.docs + excluded.docs;
        END IF;
        RETURN NULL;
    END $$""",
    "CREATE TRIGGER papers_terms_insert AFTER INSERT ON papers REFERENCING NEW TABLE AS "
    "new_rows FOR EACH STATEMENT EXECUTE FUNCTION paper_terms_sync()",
    "CREATE TRIGGER papers_terms_update AFTER UPDATE ON papers REFERENCING OLD TABLE AS "
    "old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION paper_terms_sync()",
    "CREATE TRIGGER papers_terms_delete AFTER DELETE ON papers REFERENCING OLD TABLE AS "
    "old_rows FOR EACH STATEMENT EXECUTE FUNCTION paper_terms_sync()",
    f"INSERT INTO paper_terms (term, docs) {_TERM_COUNTS.format(rows='papers')}",
)
RECOUNT_TERMS = ("DELETE FROM paper_terms",
                 "INSERT INTO paper_terms (term, docs) SELECT u.term, count(*) FROM papers r, "
                 "unnest(tsvector_to_array(r.search)) u (term) "
                 "WHERE ascii(u.term) BETWEEN 97 AND 122 GROUP BY 1 ORDER BY 1")
"""What a load runs at its end, its writes having left `paper_terms` alone (`SET LOCAL
paperclub.terms = 'off'`: a statement trigger per row written would cost a minute at 10k).
The counts of `_TERM_COUNTS`, from the lexemes alone (`tsvector_to_array`): half the CPU of
`unnest(tsvector)`, which builds each lexeme's positions and weights as arrays."""
"""Migration 18: `paper_terms`, the papers holding each Latin term (PostgreSQL's own
vocabulary, as FTS5's `paper_vocab` counts them), for prefix expansion. A term whose papers
are gone keeps a row with 0 (never offered)."""


def _heads_sync(tokens: str) -> str:
    """`paper_heads_sync` from migration 18 on, `tokens` its token count's column: a load
    (`SET LOCAL paperclub.heads = 'off'`) writes the headline rows itself."""
    return f"""CREATE OR REPLACE FUNCTION paper_heads_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('paperclub.heads', true) = 'off' THEN  -- a load writes them at its end
            RETURN NULL;
        END IF;
        INSERT INTO paper_heads (id, head, {tokens})
        VALUES (NEW.id, ts_filter(NEW.search, '{HEAD_WEIGHTS}'), NEW.{tokens})
        ON CONFLICT (id) DO UPDATE
        SET head = excluded.head, {tokens} = excluded.{tokens};
        RETURN NULL;
    END $$"""


HEADS_AFTER_LOAD = (_heads_sync("search_tokens"),)
"""Migration 18: a load (`SET LOCAL paperclub.heads = 'off'`) writes `paper_heads` for its
papers in one statement at its end (`WRITE_HEADS`) instead of a trigger call per row."""
WRITE_HEADS = (
    "INSERT INTO paper_heads (id, head, head_tokens) "
    f"SELECT p.id, ts_filter(p.search, '{HEAD_WEIGHTS}'), p.head_tokens FROM papers p "
    "JOIN loaded l ON l.id = p.id ON CONFLICT (id) DO UPDATE "
    "SET head = excluded.head, head_tokens = excluded.head_tokens"
)
"""The headline rows of the papers a load wrote (its temporary `loaded` table)."""

HEAD_POSITIONS = (f"(SELECT count(*) FROM unnest(ts_filter(search, '{HEAD_WEIGHTS}')) u, "
                  "unnest(u.positions) x)")
"""A paper's headline tokens as its `tsvector` tells them: migration 19's backfill."""
HEAD_TOKENS = (
    "SET LOCAL paperclub.terms = 'off'",  # the backfill changes no term
    "ALTER TABLE papers ADD COLUMN head_tokens INTEGER NOT NULL DEFAULT 0",
    f"UPDATE papers SET head_tokens = {HEAD_POSITIONS}",
    "ALTER TABLE paper_heads RENAME COLUMN search_tokens TO head_tokens",
    "UPDATE paper_heads h SET head_tokens = p.head_tokens FROM papers p WHERE p.id = h.id",
    _heads_sync("head_tokens"),
    "DROP TRIGGER papers_heads ON papers",
    "CREATE TRIGGER papers_heads AFTER INSERT OR UPDATE OF search, head_tokens "
    "ON papers FOR EACH ROW EXECUTE FUNCTION paper_heads_sync()",
)
"""Migration 19 (SQLite 26's headline index): `papers.head_tokens`, the headline's tokens
(titles and authors; `tsvector_literal` counts them as FTS5 does), kept in `paper_heads`, the
headline tier's bm25 length. Existing rows count their headline lexemes' positions, the same
figure unless a headline runs past position 16,383 or repeats a lexeme 256 times (a load that
rewrites the paper sets the exact one)."""

_WRITTEN: tuple[Migration, ...] = (
    Migration(1, "the schema of SQLite version 10, full-text search as a tsvector", (
        *schema.PAPERS.create(POSTGRES, extra=_SEARCH_COLUMNS),
        "CREATE INDEX papers_search ON papers USING gin (search)",
        *create_all(POSTGRES, schema.PAPER_HONOURS, schema.CATALOG_LOADS, schema.BOT_STATE,
                    schema.DIGEST_SETTINGS),
        *schema.DIGEST_LEDGER.create(POSTGRES, extra=schema.LEASE),  # SQLite 7 flattened
        *create_all(POSTGRES, schema.SUBSCRIPTIONS, schema.NOTIFICATIONS, schema.DM_PAUSES,
                    schema.QUEUE_SUPPORT, schema.VOTES, schema.VOTE_OPTIONS, schema.VOTE_BALLOTS,
                    schema.BOOKMARKS, schema.DISCUSSED, schema.OUTBOX, schema.GROUP_SETTINGS,
                    schema.SESSIONS, schema.SESSION_REMINDERS, schema.PRESENTERS),
    )),
    # 2: storage.migrations.SHIPPED
    Migration(3, "SQLite 12: English abstracts, arXiv ids and links (the tsvector gains the "
              "abstract's tokens as papers are added or reloaded)", (
                  *add_columns("papers", schema.ARXIV_COLUMNS, together=True),
                  "CREATE UNIQUE INDEX papers_arxiv_id ON papers (arxiv_id) WHERE arxiv_id != ''",
              )),
    # 4: storage.migrations.SHIPPED
    Migration(5, "SQLite 14: arXiv feeds, their polls, seen ids and the announcement ledger",
              schema.feed_tables(POSTGRES)),
    # 6: storage.migrations.SHIPPED
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
    # 8-16: storage.migrations.SHIPPED
    Migration(17, "SQLite 25: prefix expansion: the papers holding each Latin term, kept by "
              "statement triggers from papers (FTS5's vocabulary on SQLite)", PAPER_TERMS),
    Migration(18, "load speed: a load writes the headline index of its papers in one statement "
              "at its end, not through the per-row trigger", HEADS_AFTER_LOAD),
    Migration(19, "SQLite 26: the headline tier's bm25 counts a paper's headline alone: each "
              "paper's headline tokens", HEAD_TOKENS),
)

MIGRATIONS: tuple[Migration, ...] = every("postgres", _WRITTEN)
LATEST_VERSION = MIGRATIONS[-1].version

SQLITE_VERSION: dict[int, int] = {
    0: 0, 1: 10, 2: 11, 3: 12, 4: 13, 5: 14, 6: 15, 7: 15, 8: 16, 9: 17, 10: 18, 11: 19, 12: 20,
    13: 21, 14: 22, 15: 23, 16: 24, 17: 25, 18: 25, 19: 26, **mirrored()}
"""The SQLite schema version each PostgreSQL version mirrors (`paperclub db copy` moves rows
only between equal schemas): the written ones by hand, the steps' from their places."""
