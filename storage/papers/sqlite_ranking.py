"""The SQLite search's SQL: the one-statement bm25 ranking of a page, and the filter clauses
on `papers p`."""

from __future__ import annotations

from typing import Any

from domain.query import Filters
from storage.papers import fts
from storage.papers.fts import BM25
from storage.papers.rows import PAPER_COLUMNS

RANK_WINDOW = fts.RANK_WINDOW
"""The window both backends rank in (`storage.papers.fts.RANK_WINDOW`); the SQLite search
reads it from here, where a test narrows it."""


def _newest(match: str, room: str) -> str:
    """The `?2` newest rows matching `match`, scored; walked only while `room` > 0 (a constant
    condition, which SQLite tests before walking the index)."""
    return (f"SELECT rowid, {BM25} AS score FROM paper_fts WHERE paper_fts MATCH {match} "
            f"AND ({room}) > 0 ORDER BY rowid DESC LIMIT ?2")


_IF_PHRASE = ("LIMIT CASE WHEN EXISTS (SELECT 1 FROM paper_fts WHERE paper_fts MATCH ?7) "
              "THEN -1 ELSE 0 END")
"""No limit when the bare phrase `?7` is in some title, else a zero LIMIT, which SQLite tests
before it opens the full-text cursor: opening `?5` (the phrase AND the words) merges the
doclists of every term a prefix word such as `model*` starts, ~0.6 ms, and an EXISTS in the
WHERE clause was tested only after the open."""


def _ranking_sql(phrase: bool) -> str:
    """One statement ranking a page of `?3` rows in up to three steps, each only when the steps
    before leave room, each leaving out the rows already taken:
    1. (with `phrase`) titles holding the words as a phrase `?5`, the title whose key is `?6`
       first; not even opened when the bare phrase `?7` is in no title (`?5` is `?7` AND the
       words, whose prefix terms are what costs);
    2. headline (titles, authors) matches `?1`, the best among their `?2` newest;
    3. whole-paper matches `?4`, likewise.
    Ranked inside the full-text index; only the rows shown are joined to `papers`."""
    taken = "(SELECT count(*) FROM phrase)" if phrase else "0"
    steps = [
        "phrase AS MATERIALIZED (SELECT rowid, score, exact FROM (SELECT rowid, "
        f"{BM25} AS score, rowid IN (SELECT id FROM papers WHERE title_key = ?6) AS exact "
        f"FROM paper_fts WHERE paper_fts MATCH ?5 {_IF_PHRASE}) "
        "ORDER BY exact DESC, score, rowid LIMIT ?3)"
    ] if phrase else []
    unions = ["SELECT 0 AS step, rowid, score, exact FROM phrase"] if phrase else []
    left_out = " AND rowid NOT IN (SELECT rowid FROM phrase)" if phrase else ""
    steps += [
        f"head_newest AS ({_newest('?1', f'?3 - {taken}')})",
        f"head AS MATERIALIZED (SELECT rowid, score FROM head_newest WHERE TRUE{left_out} "
        f"ORDER BY score, rowid LIMIT ?3 - {taken})",
        f"shown AS MATERIALIZED (SELECT {taken} + (SELECT count(*) FROM head) AS n)",
        f"rest_newest AS ({_newest('?4', '?3 - (SELECT n FROM shown)')})",
        f"rest AS (SELECT rowid, score FROM rest_newest WHERE rowid NOT IN "
        f"(SELECT rowid FROM head){left_out} ORDER BY score, rowid "
        "LIMIT ?3 - (SELECT n FROM shown))",
    ]
    unions += ["SELECT 1 AS step, rowid, score, 0 AS exact FROM head",
               "SELECT 2, rowid, score, 0 FROM rest"]
    return (f"WITH {', '.join(steps)}, top AS ({' UNION ALL '.join(unions)}) "
            f"SELECT {PAPER_COLUMNS}, top.score FROM top JOIN papers p ON p.id = top.rowid "
            "ORDER BY top.step, top.exact DESC, top.score, p.id")


RANKED = _ranking_sql(phrase=False)
"""`_ranking_sql` without the phrase step: `?1` to `?4` bound."""
PHRASE_THEN_RANKED = _ranking_sql(phrase=True)
"""`_ranking_sql` with the phrase step first: `?1` to `?7` bound."""


def escape_like(text: str) -> str:
    """`text` as a literal inside a LIKE pattern with `ESCAPE '\\'`."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def filter_clauses(filters: Filters) -> tuple[list[str], list[Any]]:
    """SQL conditions on `papers p` for a query's filters, with their bound parameters."""
    where: list[str] = []
    params: list[Any] = []
    if filters.track:
        where.append("p.track = ?")
        params.append(filters.track.value)
    if filters.venue:
        where.append("(p.conference = ? COLLATE NOCASE OR p.workshop LIKE ? ESCAPE '\\')")
        params += [filters.venue, f"%{escape_like(filters.venue)}%"]
    if filters.year is not None:
        where.append("p.year = ?")
        params.append(filters.year)
    if filters.honour:
        where.append(
            "EXISTS (SELECT 1 FROM paper_honours h WHERE h.paper_id = p.id AND h.honour = ?)"
        )
        params.append(filters.honour)
    return where, params
