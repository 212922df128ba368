"""Turning a structured query into an FTS5 MATCH expression, and papers into index rows.

Every word is wrapped in double quotes (inner quotes doubled) so that no user text is ever
read as FTS5 syntax: `NEAR(`, `-x`, `col:term`, `*` and `AND` are just words here.
"""

from __future__ import annotations

from functools import lru_cache

from domain.index_text import index_columns
from domain.paper import Paper
from domain.prefixes import Expansion, Expansions, rare_narrowings
from domain.query import MIN_PREFIX_CHARS, SearchQuery
from domain.text import cjk_bigrams, has_cjk
from storage.papers.rows import EMPTY_LINK_VALUES, paper_from_row

# Column order of paper_fts and the bm25 weights used for ranking (titles and authors count
# twice as much as either summary; measured in search-notes: heavier title weights hurt). The
# English abstract came last (migration 11), so older migrations' column numbers still hold.
COLUMNS = ("title_en", "title_zh", "authors", "affiliations", "summary", "venue", "summary_en")
WEIGHTS = (2.0, 2.0, 2.0, 1.0, 1.0, 0.5, 1.0)
BM25 = "bm25(paper_fts, " + ", ".join(str(w) for w in WEIGHTS) + ")"
"""FTS5's bm25 with the column weights: the score every SQLite search ranks by."""
assert len(WEIGHTS) == len(COLUMNS)


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def expanded(expansion: Expansion) -> str:
    """A prefix word as its completions (`storage.papers.prefixes`), each its own phrase (the
    word as typed twice when `Expansion.exact`)."""
    terms = [_quote(t) for t in (expansion.prefix,) * expansion.exact + expansion.terms]
    if expansion.more:
        terms.append(_quote(expansion.prefix) + "*")
    return "(" + " OR ".join(terms) + ")"


def word_expression(word: str, expansions: Expansions | None = None) -> str:
    """One word as a safe FTS5 term: a bigram phrase for CJK, a prefix term for Latin (its
    completions when `expansions` has it)."""
    if expansions and word in expansions:
        return expanded(expansions[word])
    if has_cjk(word):
        if len(word) == 1:
            return _quote(word) + "*"
        return _quote(" ".join(cjk_bigrams(word)))
    if len(word) >= MIN_PREFIX_CHARS:
        return _quote(word) + "*"
    return _quote(word)


# Matches in these columns rank above matches elsewhere (the summary, affiliations, venue).
HEADLINE_COLUMNS = ("title_en", "title_zh", "authors")
assert COLUMNS[:len(HEADLINE_COLUMNS)] == HEADLINE_COLUMNS
HEAD_TABLE = "paper_fts_head"
"""The headline index (SQLite migration 26): `HEADLINE_COLUMNS` alone, contentless, one row
per paper (`paper_fts`'s rowid). The headline tier reads it: a common word's phrase count (its
IDF) and its window walk doclists of titles and authors only, not of every summary."""
HEAD_BM25 = (f"bm25({HEAD_TABLE}, "
             + ", ".join(str(w) for w in WEIGHTS[:len(HEADLINE_COLUMNS)]) + ")")
"""bm25 over the headline index: the headline tier's score (a row's length is its headline's)."""


def match_expression(query: SearchQuery, *, any_word: bool = False,
                     columns: tuple[str, ...] | None = None,
                     expansions: Expansions | None = None) -> str | None:
    """The MATCH string for the query's words and author filter; None when it has neither.

    `columns` restricts the words to those columns (`{title_en title_zh} : (...)`);
    `expansions` are the query words' completions.
    """
    clauses: list[str] = []
    if query.words:
        joiner = " OR " if any_word else " AND "
        words = "(" + joiner.join(word_expression(w, expansions) for w in query.words) + ")"
        clauses.append("{" + " ".join(columns) + "} : " + words if columns else words)
    if query.filters.author:
        names = " AND ".join(word_expression(w) for w in query.filters.author)
        clauses.append(f"authors : ({names})")
    return " AND ".join(clauses) if clauses else None


def rare_expression(query: SearchQuery, expansions: Expansions, *, any_word: bool = False,
                    columns: tuple[str, ...] | None = None) -> str | None:
    """MATCH for the query's matches that hold a rare completion (`Expansion.rare`) of one of
    its prefix words: what is ranked besides a frequent word's window. None when no word has
    one."""
    parts = [match_expression(alone, columns=columns, expansions=narrowed)
             for alone, narrowed in rare_narrowings(query, expansions, any_word)]
    return " OR ".join(f"({part})" for part in parts if part is not None) or None


TITLE_COLUMNS = ("title_en", "title_zh")


def phrase_expression(query: SearchQuery) -> str | None:
    """MATCH for the query's words as one phrase, in typed order, in a title (with the author
    filter): the hits that rank first. None for fewer than two words."""
    if len(query.phrase) < 2:
        return None
    tokens = " ".join(" ".join(cjk_bigrams(w)) if has_cjk(w) else w for w in query.phrase)
    clauses = ["{" + " ".join(TITLE_COLUMNS) + "} : " + _quote(tokens)]
    if query.filters.author:
        clauses.append("authors : (" + " AND ".join(
            word_expression(w) for w in query.filters.author) + ")")
    return " AND ".join(clauses)


def index_row(paper: Paper) -> tuple[str, ...]:
    """The text of each indexed column, in `COLUMNS` order (defined once, in the core, where
    topic matching reads the same columns)."""
    return index_columns(paper)


STORED_FIELDS = (
    "title_en, title_zh, authors, affiliations, summary_zh, comments, journal_ref, conference, "
    "year, track, workshop, honours"
)
"""The `papers` columns `stored_index_column` takes, in order (SQL for a migration). The English
abstract is not among them: no migration that rebuilds the index has run since it existed."""

INDEXED_FIELDS = STORED_FIELDS + ", summary_en"
"""`STORED_FIELDS` and the English abstract: every `papers` column the index text reads (the
14-argument `paperclub_index` takes them, for migrations from 26 on)."""


@lru_cache(maxsize=1)
def _stored_index_row(title_en: str, title_zh: str, authors: str, affiliations: str,
                      summary: str, comments: str, journal_ref: str, conference: str | None,
                      year: int | None, track: str, workshop: str | None,
                      honours: str, summary_en: str = "") -> tuple[str, ...]:
    paper = paper_from_row((title_en, title_zh, authors, affiliations, summary, comments,
                            journal_ref, conference, year, track, workshop, honours,
                            None, None, None, summary_en, *EMPTY_LINK_VALUES[1:]))
    return index_row(paper)


def stored_index_column(column: int, *fields: str | int | None) -> str:
    """SQL function `paperclub_index(column, <STORED_FIELDS>)` (or `<INDEXED_FIELDS>`): one
    index column of a stored paper, so a migration can rebuild the full-text index when
    `index_columns` changes."""
    return _stored_index_row(*fields)[column]


RANK_WINDOW = 250
"""Matches ranked by bm25 for a frequent word: its newest this many (see `_ranking_sql`);
PostgreSQL uses the same window. 500 kept hit@1 at 202/207 at 100k, where 2000 spent ~1.5 ms
per frequent word scoring rows that never reach a page; with prefix expansion and rare
completions 250 keeps hit@1 at 207/207 (issue 26) for ~0.5 ms less bm25 per frequent word."""
