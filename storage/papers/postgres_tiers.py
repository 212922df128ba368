"""One PostgreSQL search as one statement: its ranking tiers, each gated on the ones before.

SQLite's search (and this store's before) runs a tier at a time: the title phrase, then the
headline (titles, authors) window, then the window over everything, each only while the page
has room. Here the tiers are CTEs of one statement, a tier's CTE behind a one-time filter on the
rows the earlier ones found, so a tier that is not needed is never executed; the page is the
tiers' rows in order, each paper at its first place, read with the catalog version in the same
snapshot (the bm25 figures it was ranked with must be that version's). A search is then one
round trip instead of five to eight.

A tier is asked for more rows than the page can use from it (a later tier's limit depends on
how many rows earlier tiers found, and the first `wanted` distinct rows of the tiers in order
do not change when a tier gives more of its own ranking), so the limits are constants.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from domain.prefixes import Expansion
from domain.query import SearchQuery
from domain.text import title_key
from storage.papers.postgres_bm25 import Params, _CorpusStats, idf, scored
from storage.papers.postgres_search import (
    HEADLINE,
    _Match,
    match_query,
    phrase_query,
    rare_query,
)
from storage.papers.rows import PAPER_COLUMNS
from storage.postgres.migrations import HEAD_WEIGHTS

CANDIDATE = "p.id, p.search, p.search_tokens, p.title_key"
_HEAD_CANDIDATE = "SELECT h.id, h.head AS search, h.head_tokens AS search_tokens"
"""A headline row as a bm25 candidate: its length is its headline's, as in SQLite's headline
index (`storage.papers.fts.HEAD_TABLE`)."""
_TITLE_KEY = "(SELECT p.title_key FROM papers p WHERE p.id = h.id) AS title_key"
_BY_SCORE = "c.score, c.id"
assert "{" + ",".join(HEADLINE.lower()) + "}" == HEAD_WEIGHTS, \
    "paper_heads must hold exactly the headline weight letters"


@dataclass(frozen=True, slots=True)
class _Tier:
    """One ranking tier: `match` over `source` (SQL on `papers p`, or `paper_heads h` for a
    headline window) in `order`; `window` for the newest-matches window, `rare` beside it."""

    kind: str
    """"phrase", "ranked" (filtered), "window" or "listing" (filters only)."""
    match: _Match
    headline: bool = False
    rare: _Match | None = None
    title: str | None = None
    """A title phrase tier's phrase (titles, with the author filter): only headline lexemes, so
    its papers are found in the narrow `paper_heads` first."""
    scoring: _Match | None = None
    """An unfiltered title phrase tier's score: the headline match, on the headline's length,
    as the headline tier scores (SQLite's phrase step reads the headline index); `match`
    (the phrase and the words) is then what is counted, not scored."""

    @property
    def scored(self) -> _Match:
        """The match whose phrases the tier's bm25 sums."""
        return self.match if self.scoring is None else self.scoring


def _all_of(*matches: _Match) -> _Match:
    return _Match("(" + " & ".join(str(m.term) for m in matches) + ")",
                  tuple(p for m in matches for p in m.phrases))


class SearchPlan:
    """A query's tiers (as `storage.papers.postgres.PgIndex.search` ranks), and the one
    statement that ranks them once the bm25 figures of their phrases are known."""

    def __init__(self, query: SearchQuery, match: _Match, expansions: dict[str, Expansion], *,
                 any_word: bool, filtered: bool) -> None:
        self.query, self.filtered = query, filtered
        self.tiers: list[_Tier] = []
        phrase = phrase_query(query)
        _, headline = match_query(query, any_word=any_word, weights=HEADLINE,
                                  expansions=expansions)
        if phrase.term and match.term:
            scoring = None if filtered or headline.term is None else headline
            self.tiers.append(_Tier("phrase", _all_of(phrase, match), title=phrase.term,
                                    scoring=scoring))
        if match.term is None:
            self.tiers.append(_Tier("listing", match))
        elif filtered:
            self.tiers.append(_Tier("ranked", match))
        else:
            rare_head = rare_query(query, expansions, any_word=any_word, weights=HEADLINE)
            rare = rare_query(query, expansions, any_word=any_word)
            if rare_head is None or rare is None:
                rare_head = rare = None
            if headline.term:
                self.tiers.append(_Tier("window", headline, headline=True, rare=rare_head))
            self.tiers.append(_Tier("window", match, rare=rare))

    def counted(self) -> list[str]:
        """The `tsquery` terms whose papers are counted (per catalog version): every phrase's
        (bm25's document frequency), the title phrase's and headline window's, which tell
        when the next tier can never be reached (so it is not even planned), and every
        window's, which tells how its newest matches are found (`_newest`)."""
        phrases = [p.term() for tier in self.tiers for p in tier.scored.phrases]
        return phrases + [str(t.match.term) for t in self.tiers
                          if t.kind == "window" or (t is not self.tiers[-1] and self._decisive(t))]

    def _decisive(self, tier: _Tier) -> bool:
        return tier.headline or (tier.kind == "phrase" and not self.filtered)

    def _needed(self, corpus: _CorpusStats, wanted: int, window: int) -> list[_Tier]:
        """The tiers up to the first that fills the page by itself, by its papers' count: a
        title phrase (no filters) matching `wanted` papers, or a headline window holding as
        many rows as the everywhere window's gate asks at most (`wanted` more after a title
        phrase tier)."""
        needed: list[_Tier] = []
        for tier in self.tiers:
            needed.append(tier)
            if not self._decisive(tier) or tier is self.tiers[-1]:
                continue
            count = corpus.hits[str(tier.match.term)]
            if tier.kind == "phrase" and count >= wanted:
                break
            if tier.headline and min(count, window) >= wanted * len(needed):
                break
        return needed

    def statement(self, corpus: _CorpusStats, where: str, params: Params, wanted: int,
                  window: int) -> str:
        """SQL giving the page's rows (`PAPER_COLUMNS`, score, tier, place) in order, each with
        the catalog version; one row of NULLs and the version when nothing matches."""
        ctes = ["v AS MATERIALIZED (SELECT coalesce(max(id), 0) AS version FROM catalog_loads)"]
        w = f"{int(wanted)}::bigint"  # limits are the code's numbers, in the SQL's text
        names: list[str] = []
        phrase_count = head_count = ""
        for n, tier in enumerate(self._needed(corpus, wanted, window), start=1):
            ranked = self._ranked(tier, corpus, where, params, window)
            gates = []  # a later tier runs only while the page has room
            if tier.kind != "phrase" and phrase_count:
                gates.append(f"{phrase_count} < {w}")
            if tier.kind == "window" and not tier.headline and head_count:
                gates.append(f"{head_count} < {w} + {phrase_count or '0'}")
            gate = " WHERE " + " AND ".join(gates) if gates else ""
            limit = f"{(2 ** (n - 1)) * int(wanted)}::bigint"
            ctes.append(f"t{n} AS MATERIALIZED (SELECT {n} AS tier, s.id, s.score, "
                        f"row_number() OVER () AS place FROM ({ranked} LIMIT {limit}) s{gate})")
            count = f"(SELECT count(*) FROM t{n})"
            if tier.kind == "phrase":
                phrase_count = count
            elif tier.headline:
                head_count = count
            names.append(f"SELECT * FROM t{n}")
        page = (f"SELECT {PAPER_COLUMNS}, d.score, d.tier, d.place FROM (SELECT DISTINCT ON "
                f"(a.id) a.* FROM ({' UNION ALL '.join(names)}) a ORDER BY a.id, a.tier, a.place"
                f") d JOIN papers p ON p.id = d.id ORDER BY d.tier, d.place LIMIT {w}")
        return (f"WITH {', '.join(ctes)} SELECT r.*, v.version FROM v "
                f"LEFT JOIN LATERAL ({page}) r ON TRUE ORDER BY r.tier, r.place")

    def _ranked(self, tier: _Tier, corpus: _CorpusStats, where: str, params: Params,
                window: int) -> str:
        """One tier's rows (`id, score`) in its order, to be limited."""
        if tier.kind == "listing":
            return ("SELECT p.id, 0::float8 AS score FROM papers p WHERE TRUE" + where
                    + " ORDER BY p.year DESC NULLS LAST, p.title_key COLLATE \"C\"")
        order = _BY_SCORE
        if tier.kind == "window":
            alias = "h" if tier.headline else "p"
            source = (_HEAD_CANDIDATE + " FROM paper_heads h WHERE h.head" if tier.headline
                      else f"SELECT {CANDIDATE} FROM papers p WHERE p.search")
            walk = corpus.hits[str(tier.match.term)] >= walk_from(corpus.rows, window)
            candidates = _newest(source, alias, params.add(tier.match.term, "tsquery"), window,
                                 walk=walk)
            rare = tier.rare
            if rare is not None and rare.term is not None:  # as SQLite's `_window`
                candidates = (f"WITH newest AS MATERIALIZED ({candidates}) SELECT * FROM newest "
                              f"UNION ALL {source} @@ {params.add(rare.term, 'tsquery')} AND "
                              f"{alias}.id NOT IN "
                              "(SELECT id FROM newest)")
        elif tier.scoring is not None:  # the headline match among the phrase's titles
            candidates = (f"{_HEAD_CANDIDATE}, {_TITLE_KEY} FROM paper_heads h WHERE h.head @@ "
                          f"{params.add(tier.scoring.term, 'tsquery')} AND h.id = ANY(ARRAY("
                          "SELECT t.id FROM paper_heads t WHERE "
                          f"t.head @@ {params.add(tier.title, 'tsquery')}))")
        else:
            candidates = (f"SELECT {CANDIDATE} FROM papers p WHERE p.search @@ "
                          f"{params.add(tier.match.term, 'tsquery')}" + where)
            if tier.kind == "phrase":  # the papers the phrase narrows to, read by id
                candidates += (" AND p.id = ANY(ARRAY(SELECT h.id FROM paper_heads h WHERE "
                               f"h.head @@ {params.add(tier.title, 'tsquery')}))")
        if tier.kind == "phrase":
            exact = params.add(title_key(" ".join(self.query.phrase)))
            order = f"c.title_key = {exact} DESC, {_BY_SCORE}"
        idfs = [idf(corpus.rows, corpus.hits[p.term()]) for p in tier.scored.phrases]
        headline = tier.headline or tier.scoring is not None
        avgdl = corpus.head_avgdl if headline else corpus.avgdl
        ranked = scored(candidates, tier.scored.phrases, idfs, avgdl, params)
        return f"SELECT c.id, c.score FROM ({ranked}) c ORDER BY {order}"


def walk_from(rows: int, window: int) -> int:
    """The matches from which a window's newest are found by walking the ids backwards rather
    than from the full-text index. A walk reads about `rows / matches * window` rows, the
    index every match: they cost alike near `sqrt(rows * window)` matches (measured at 100k
    papers: 3,300 matches 27 against 8.5 ms, 33,000 matches 2.1 against 48 ms)."""
    return max(window, math.isqrt(rows * window))


def _newest(source: str, alias: str, term: str, window: int, *, walk: bool) -> str:
    """The `window` newest rows of `source` (a SELECT of table `alias`, ending in its
    `tsvector` column) matching `term`. The way is chosen from the exact count, not by the
    planner: its guess of a `tsquery`'s matches can be off a thousandfold (`xia`: 1,985
    guessed, 1 found, so it walked all 100,000 papers backwards in 260 ms), and a generic plan
    makes no guess at all. A walk's match cannot use the full-text index (`IS TRUE`); the
    index's matches cannot come in id order (`+ 0`)."""
    if walk:
        return f"{source} @@ {term} IS TRUE ORDER BY {alias}.id DESC LIMIT {window}"
    return f"{source} @@ {term} ORDER BY {alias}.id + 0 DESC LIMIT {window}"
