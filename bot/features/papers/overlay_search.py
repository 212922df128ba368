"""A server's corrections in its search results (pure: no I/O).

The full-text index is shared by every server and holds the source records; corrections are per
server. A server's corrected papers are few (each one a member proposed and a curator
approved), so its search reads them as the server sees them and matches each in memory against
the query with the matcher topic subscriptions use (`subscriptions.topic_match`, which finds a
paper exactly when the index's exact search would, on both backends: property-tested), then
merges them into the index's hits:

- a corrected paper the index found but whose corrected text no longer matches (the old, wrong
  words) is left out;
- a corrected paper that matches (by its new words, or by what it kept) is placed where the
  index ranks such a match, whether or not the index found it (it ranked it by the source
  text): an exact English title first, then title and author matches, then matches
  elsewhere, then the other language's spellings (`domain.crosslingual`), each after the
  index's own hits of that tier.

Within a tier a corrected paper follows the index's hits (it has no bm25 score: the index does
not hold its text). The same function runs whichever backend answered, so both give the same
results."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from bot.features.subscriptions.topic_match import (
    CompiledTopic,
    IndexedText,
    PaperTerms,
)
from domain.catalog import SearchHit
from domain.crosslingual import Translation, cross_queries
from domain.index_text import AUTHORS_COLUMN, index_columns, index_tokens
from domain.paper import Paper, Venue
from domain.query import SearchQuery
from domain.text import title_key

EXACT, HEADLINE, ANYWHERE, CROSSED = range(4)
"""The tiers of a match, best first (as `storage.papers` ranks them)."""


HEADLINE_COLUMNS = range(AUTHORS_COLUMN + 1)
"""The index columns a headline match is in: both titles and the authors
(`storage.papers.fts.HEADLINE_COLUMNS`)."""


def _terms(paper: Paper) -> tuple[PaperTerms, PaperTerms]:
    """The paper's terms everywhere, and in its headline columns only (same venue facts)."""
    full = PaperTerms.of(paper)
    # the headline columns of a paper stripped of its long texts: tokenised cheaply
    bare = replace(paper, affiliations=(), summary_zh="", summary_en="", comments="",
                   journal_ref="", venue=Venue())
    columns = [index_tokens(text) for text in index_columns(bare)]
    return full, replace(full, everywhere=IndexedText.of([columns[n] for n in HEADLINE_COLUMNS]))


_corrected_terms = lru_cache(maxsize=4096)(_terms)
"""`_terms` kept for the papers servers corrected, which each of their searches tests (the
index's hits are tested at most a few times each, and would only crowd them out)."""


class Matcher:
    """One query, compiled once, telling the tier a paper matches it in (None: no match)."""

    def __init__(self, query: SearchQuery) -> None:
        self.topic = CompiledTopic.from_query(query)
        self.cross = [(topic, cross.translations) for cross in cross_queries(query)
                      if (topic := CompiledTopic.from_query(cross.query)) is not None
                      ] if self.topic is not None else []
        self.exact = title_key(" ".join(query.phrase))

    def tier(self, paper: Paper, *, corrected: bool = True) -> int | None:
        """Where the exact search would rank `paper`, or None when it would not find it
        (`corrected`: one of a server's corrected papers, whose terms are kept)."""
        if self.topic is None:
            return None
        terms, headline = (_corrected_terms if corrected else _terms)(paper)
        if self.topic.matches(terms):
            if self.exact and self.exact == title_key(paper.title_en):
                return EXACT
            return HEADLINE if self.topic.matches(headline) else ANYWHERE
        if self.translations(paper, corrected=corrected):
            return CROSSED
        return None

    def translations(self, paper: Paper, *, corrected: bool = True
                     ) -> tuple[Translation, ...]:
        """The terms of the first spelling in the other language that finds `paper` (none:
        not found that way)."""
        terms, _ = (_corrected_terms if corrected else _terms)(paper)
        return next((read for topic, read in self.cross if topic.matches(terms)), ())


def merged(hits: Sequence[SearchHit], query: SearchQuery, corrected: Mapping[str, Paper], *,
           limit: int, insert: bool = True,
           crossed: Mapping[str, tuple[Translation, ...]] | None = None
           ) -> tuple[list[SearchHit], dict[str, tuple[Translation, ...]]]:
    """The index's `hits` (`crossed`: those found through the other language, with the terms
    read) with the server's `corrected` papers (by id, as the server sees them) merged in as
    the module says; at most `limit`, and the page's hits found through the other language.
    Without `insert` (a later page) a corrected paper is only kept or left out, never
    added."""
    crossed = dict(crossed or {})
    matcher = Matcher(query)
    if not insert:
        return _page([hit if hit.id not in corrected
                      else _as(hit.id, hit.score, corrected[hit.id]) for hit in hits
                      if hit.id not in corrected or matcher.tier(corrected[hit.id]) is not None],
                     limit, crossed, matcher, corrected)
    # the index ranked a corrected paper by its source text: each is placed by its own
    kept = [hit for hit in hits if hit.id not in corrected]
    added = sorted(((tier, paper_id) for paper_id, paper in corrected.items()
                    if (tier := matcher.tier(paper)) is not None), key=lambda t: t[0])
    tiers: dict[str, int] = {}

    def tier_of(hit: SearchHit) -> int:
        """The tier of a hit on the page (the index's hits are in tier order)."""
        if hit.id not in tiers:
            found = (CROSSED if hit.id in crossed else matcher.tier(corrected[hit.id])
                     if hit.id in corrected else matcher.tier(hit.paper, corrected=False))
            tiers[hit.id] = CROSSED if found is None else found
        return tiers[hit.id]

    for tier, paper_id in added:
        at = bisect_right(kept, tier, key=tier_of)
        if at < limit:
            kept.insert(at, _as(paper_id, 0.0, corrected[paper_id]))
    return _page(kept, limit, crossed, matcher, corrected)


def _page(kept: list[SearchHit], limit: int, crossed: dict[str, tuple[Translation, ...]],
          matcher: Matcher, corrected: Mapping[str, Paper]
          ) -> tuple[list[SearchHit], dict[str, tuple[Translation, ...]]]:
    """The first `limit` hits and, for each found through the other language, the terms
    read (a corrected paper's as its corrected text is found)."""
    page = kept[:max(0, limit)]
    found: dict[str, tuple[Translation, ...]] = {}
    for hit in page:
        if hit.id in corrected:
            own = matcher.topic is not None and matcher.topic.matches(
                _corrected_terms(corrected[hit.id])[0])
            read = () if own else matcher.translations(corrected[hit.id])
        else:
            read = crossed.get(hit.id, ())
        if read:
            found[hit.id] = read
    return page, found


def _as(paper_id: str, score: float, paper: Paper) -> SearchHit:
    return SearchHit(paper_id, score, lambda: paper)
