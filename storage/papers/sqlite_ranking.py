"""The SQLite search's SQL: the one-statement bm25 ranking of a page, and the filter clauses
on `papers p`."""

from __future__ import annotations

from typing import Any

from domain.prefixes import Expansion, expandable
from domain.query import SearchQuery
from domain.text import title_key
from storage.papers import fts
from storage.papers.fts import (
    BM25,
    HEAD_BM25,
    HEAD_TABLE,
    match_expression,
    phrase_expression,
    rare_expression,
)
from storage.papers.prefixes import ExpansionCache, looked_up
from storage.papers.rows import PAPER_COLUMN_COUNT, read_columns
from storage.sqlite.database import Database

RANK_WINDOW = fts.RANK_WINDOW
"""The window both backends rank in (`storage.papers.fts.RANK_WINDOW`); the SQLite search
reads it from here, where a test narrows it."""

_EVERYWHERE = ("paper_fts", BM25)
_HEADLINE = (HEAD_TABLE, HEAD_BM25)
"""(full-text table, its bm25): the whole-paper index and the headline index a tier reads."""


def _newest(match: str, room: str, index: tuple[str, str] = _EVERYWHERE) -> str:
    """The `?2` newest rows of `index` matching `match`, scored; walked only while `room` > 0
    (a constant condition, which SQLite tests before walking the index)."""
    table, bm25 = index
    return (f"SELECT rowid, {bm25} AS score FROM {table} WHERE {table} MATCH {match} "
            f"AND ({room}) > 0 ORDER BY rowid DESC LIMIT ?2")


def _window(match: str, room: str, newest: str, rare: str | None,
            index: tuple[str, str] = _EVERYWHERE) -> str:
    """The rows `match` ranks: its newest (`_newest`), and with `rare` also the rows of the CTE
    `rare` (rows holding a prefix word's rare completions outside the newest,
    `_rare_rows`), scored as `match` scores them.

    All the rare rows are scored on one full-text cursor, walking `match` between the lowest
    and the highest of them (a range FTS5 seeks to), the others left out before bm25 is
    called: bm25 counts every phrase's rows (its IDF) once per cursor, and a seek per row by
    rowid (`rowid IN (...)`) opened a cursor per row, recounting them all each time."""
    if rare is None:
        return f"SELECT rowid, score FROM {newest}"
    table, bm25 = index
    return (f"SELECT rowid, score FROM {newest} UNION ALL SELECT rowid, {bm25} FROM {table} "
            f"WHERE {table} MATCH {match} AND ({room}) > 0 "
            f"AND rowid >= (SELECT min(rowid) FROM {rare}) "
            f"AND rowid <= (SELECT max(rowid) FROM {rare}) "
            f"AND +rowid IN (SELECT rowid FROM {rare})")


def _rare_rows(name: str, rare: str, newest: str, room: str, table: str = "paper_fts") -> str:
    """The CTE `name`: the rows of `table` matching `rare` (those holding a rare completion of
    a prefix word, `domain.prefixes.Expansion.rare`, at most a few) outside `newest`; not
    looked for while `room` is not above 0 (the tier is not walked)."""
    return (f"{name} AS MATERIALIZED (SELECT rowid FROM {table} WHERE {table} MATCH {rare} "
            f"AND ({room}) > 0 AND rowid NOT IN (SELECT rowid FROM {newest}))")


_PHRASE_ROWS = (f"phrase_rows AS MATERIALIZED (SELECT rowid FROM {HEAD_TABLE} "
                f"WHERE {HEAD_TABLE} MATCH ?7)")
"""The CTE `phrase_rows`: the titles holding the bare phrase `?7` (with the author filter), read
in the headline index (a phrase is in titles only): its doclists are of titles and authors,
not of every summary."""
_IF_PHRASE = "LIMIT CASE WHEN EXISTS (SELECT 1 FROM phrase_rows) THEN ?3 ELSE 0 END"
"""A zero LIMIT when no title holds the phrase, which SQLite tests before it opens the
headline cursor on `?1` (whose prefix terms' doclists are what costs)."""


def _unseen_room(taken: str, table: str, match: str, seen: str) -> str:
    """A tier's room: `?3` less the `taken` rows, or 0 when no row of `table` matching `match`
    is outside the CTEs `seen`, found without bm25 (whose setup counts every phrase's rows
    in `table`, ~0.5 ms for a common word in the whole-paper index): a rare word AND a
    common one, all of whose matches an earlier tier took, never scores."""
    outside = " ".join(f"AND rowid NOT IN (SELECT rowid FROM {name.strip()})"
                       for name in seen.split(","))
    return (f"CASE WHEN {taken} < ?3 AND EXISTS (SELECT 1 FROM {table} WHERE {table} MATCH "
            f"{match} {outside}) THEN ?3 - {taken} ELSE 0 END")


CATALOG_VERSION = "(SELECT max(id) FROM catalog_loads)"
"""The catalog version (the last load's id) in SQL: a ranked row carries it after its score,
read in the same snapshot as the row, so a search with cached expansions
(`storage.papers.prefixes.cached_expansions`) checks them without a round trip of its own. A
ranking that finds nothing returns one row of NULLs with the version."""
_VERSION = PAPER_COLUMN_COUNT + 1
"""Where a ranked row's catalog version follows its score."""


def _ranking_sql(phrase: bool, rare: bool = False) -> str:
    """One statement ranking a page of `?3` rows in up to three steps, each only when the steps
    before leave room, each leaving out the rows already taken:
    1. (with `phrase`) titles holding the words as a phrase `?7` (`phrase_rows`) that match
       `?1` in the headline index, scored as the headline tier scores them (so a phrase hit
       must match as the words do: an unindexable word such as U+19B0 drops out of the
       phrase), the title whose key is `?6` first; `?1` not even opened when no title holds
       the phrase;
    2. headline (titles, authors) matches `?1` in the headline index (`HEAD_TABLE`, scored
       by its bm25), the best among their `?2` newest (with `rare`, and those holding a rare
       completion of a prefix word, `?8`);
    3. whole-paper matches `?4`, likewise (`?9`).
    Ranked inside the full-text index; only the rows shown are joined to `papers`, and only
    the first `?10` of them read in full (the others' English title alone, for their ids)."""
    taken = "(SELECT count(*) FROM phrase)" if phrase else "0"
    materialized = " MATERIALIZED" if rare else ""  # read twice: walked once
    rest_room = "(SELECT n FROM rest_room)"
    rest_window = _window("?4", rest_room, "rest_newest", "rest_rare" if rare else None)
    head_window = _window("?1", f"?3 - {taken}", "head_newest", "head_rare" if rare else None,
                          _HEADLINE)
    steps = [
        _PHRASE_ROWS,
        "phrase AS MATERIALIZED (SELECT rowid, score, exact FROM (SELECT rowid, "
        f"{HEAD_BM25} AS score, rowid IN (SELECT id FROM papers WHERE title_key = ?6) AS exact "
        f"FROM {HEAD_TABLE} WHERE {HEAD_TABLE} MATCH ?1 "
        "AND rowid >= (SELECT min(rowid) FROM phrase_rows) "
        "AND rowid <= (SELECT max(rowid) FROM phrase_rows) "
        "AND +rowid IN (SELECT rowid FROM phrase_rows)) "
        f"ORDER BY exact DESC, score, rowid {_IF_PHRASE})"
    ] if phrase else []
    unions = ["SELECT 0 AS step, rowid, score, exact FROM phrase"] if phrase else []
    left_out = " AND rowid NOT IN (SELECT rowid FROM phrase)" if phrase else ""
    steps += [
        f"head_newest AS{materialized} ({_newest('?1', f'?3 - {taken}', _HEADLINE)})",
        *([_rare_rows("head_rare", "?8", "head_newest", f"?3 - {taken}", HEAD_TABLE)]
          if rare else []),
        f"head AS MATERIALIZED (SELECT rowid, score FROM ({head_window}) "
        f"WHERE TRUE{left_out} ORDER BY score, rowid LIMIT ?3 - {taken})",
        f"shown AS MATERIALIZED (SELECT {taken} + (SELECT count(*) FROM head) AS n)",
        "rest_room AS MATERIALIZED (SELECT " + _unseen_room(
            "(SELECT n FROM shown)", "paper_fts", "?4", "head" + (", phrase" if phrase else "")
        ) + " AS n)",
        f"rest_newest AS{materialized} ({_newest('?4', rest_room)})",
        *([_rare_rows("rest_rare", "?9", "rest_newest", rest_room)] if rare else []),
        f"rest AS (SELECT rowid, score FROM ({rest_window}) WHERE rowid NOT IN "
        f"(SELECT rowid FROM head){left_out} ORDER BY score, rowid "
        "LIMIT ?3 - (SELECT n FROM shown))",
    ]
    unions += ["SELECT 1 AS step, rowid, score, 0 AS exact FROM head",
               "SELECT 2, rowid, score, 0 FROM rest"]
    return (f"WITH {', '.join(steps)}, top AS ({' UNION ALL '.join(unions)}), "
            "ranked AS (SELECT rowid, score, row_number() OVER "
            "(ORDER BY step, exact DESC, score, rowid) AS place FROM top) "
            f"SELECT {_READ_COLUMNS}, ranked.score, version.id FROM "
            f"(SELECT {CATALOG_VERSION} AS id) AS version LEFT JOIN "
            "(ranked JOIN papers p ON p.id = ranked.rowid) ON TRUE ORDER BY ranked.place")


_READ_COLUMNS = read_columns("ranked.place <= ?10")
"""The page's `PAPER_COLUMNS`, read in full for its first `?10` rows only (`read_columns`)."""

RANKED = _ranking_sql(phrase=False)
"""`_ranking_sql` without the phrase step: `?1` to `?4` bound (and `?10`, the rows read in
full)."""
PHRASE_THEN_RANKED = _ranking_sql(phrase=True)
"""`_ranking_sql` with the phrase step first: `?1` to `?4`, `?6` and `?7` bound."""
RANKED_WITH_RARE = _ranking_sql(phrase=False, rare=True)
"""`RANKED` with the rare completions' rows `?8`, `?9` (`?5` to `?7` unused, NULL)."""
PHRASE_THEN_RANKED_WITH_RARE = _ranking_sql(phrase=True, rare=True)
"""`PHRASE_THEN_RANKED` with the rare completions' rows `?8`, `?9`."""

_NOTHING = '"qqzxpaperclubprimingzxqq"'
"""One token no paper holds: looking it up reads no posting list."""
PRIMING: tuple[tuple[str, tuple[Any, ...]], ...] = tuple(
    (sql, (_NOTHING, RANK_WINDOW, 1, _NOTHING, None, "", _NOTHING, _NOTHING, _NOTHING, 1))
    for sql in (RANKED, PHRASE_THEN_RANKED, RANKED_WITH_RARE, PHRASE_THEN_RANKED_WITH_RARE))
"""Each ranking statement with values that match no paper (`Database.prime`)."""


def ranked_statement(query: SearchQuery, any_word: bool, phrase: str | None, limit: int,
                     expansions: dict[str, Expansion], read: int | None = None
                     ) -> tuple[str, tuple[Any, ...]] | None:
    """The SQL and parameters ranking a page without filters (`RANKED` and its variants), its
    first `read` rows (None: all) read in full, the others' English title only; None when the
    query matches nothing.

    bm25 costs about a microsecond per matching row, so a word found in thousands of papers is
    ranked among its `RANK_WINDOW` newest matches only, found by walking the index backwards,
    and those holding a rare completion of a prefix word; narrower queries rank every match.
    """
    match = match_expression(query, any_word=any_word, expansions=expansions)
    if match is None or limit <= 0:
        return None
    # one expression for both indexes: in HEAD_TABLE it matches the headline columns only
    values: tuple[Any, ...] = (match, RANK_WINDOW, limit, match)
    rare = None if _window_holds_all(query, any_word, expansions) else rare_expression(
        query, expansions, any_word=any_word)
    if phrase is None:
        sql, values = RANKED, (*values, None, None, None)
    else:
        exact_key = title_key(" ".join(query.phrase))
        sql, values = PHRASE_THEN_RANKED, (*values, None, exact_key, phrase)  # ?5 unused
    if rare is not None:
        sql = RANKED_WITH_RARE if phrase is None else PHRASE_THEN_RANKED_WITH_RARE
        return sql, (*values, rare, rare, limit if read is None else read)
    return sql, (*values, None, None, limit if read is None else read)  # ?8, ?9 unused


def _window_holds_all(query: SearchQuery, any_word: bool,
                      expansions: dict[str, Expansion]) -> bool:
    """Whether every match of the query is among its `RANK_WINDOW` newest: all its words are
    required and one of them is in at most that many papers (`Expansion.papers`). Then no
    rare completion's rows are left outside the window, and none are looked for."""
    return not any_word and any(e.papers is not None and e.papers <= RANK_WINDOW
                                for word, e in expansions.items() if word in query.words)


async def ranked_rows(db: Database, query: SearchQuery, any_word: bool, limit: int,
                      expansions: dict[str, Expansion], version: int | None = None,
                      read: int | None = None) -> list[Any] | None:
    """The rows (`PAPER_COLUMNS`, score) of a page without filters, in one statement: the
    phrase hits, then headline hits (title, authors), then the rest: titles outrank
    summaries, and a frequent word needs no ranking of every summary that mentions it. One
    round trip for all the steps: a search that finds nothing, as a typo does, once cost two,
    a phrase three. With `version`, the catalog version `expansions` are of: None when the
    catalog has moved since (they must be looked up again), checked against the version the
    rows carry (`CATALOG_VERSION`). Only the first `read` rows are read in full (None: all),
    the others hold their English title alone (`read_columns`)."""
    match = match_expression(query, any_word=any_word, expansions=expansions)
    phrase = phrase_expression(query) if match else None
    statement = ranked_statement(query, any_word, phrase, limit, expansions, read)
    rows = [] if statement is None else await db.fetch(statement[0], *statement[1])
    if version is not None:
        stored = rows[0][_VERSION] if rows else await catalog_version(db)
        if int(stored or 0) != version:
            return None
    return [row for row in rows if row[0] is not None]


async def catalog_version(db: Database) -> int:
    """The catalog version (`CATALOG_VERSION`)."""
    return int(await db.fetch_value(f"SELECT {CATALOG_VERSION}") or 0)


async def expansions(db: Database, cache: ExpansionCache,
                     query: SearchQuery) -> dict[str, Expansion]:
    """The completions of the query's prefix words (`domain.prefixes`), from FTS5's vocabulary
    (`paper_vocab`: each term's papers), kept in `cache` until the catalog version moves."""
    if not any(map(expandable, query.words)):
        return {}
    return await looked_up(db, "SELECT term, doc FROM paper_vocab WHERE term >= $1 AND "
                           "term < $2", cache, await catalog_version(db), query, RANK_WINDOW)
