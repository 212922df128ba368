"""A server's corrections in its search results (pure: no I/O).

The full-text index is shared by every server and holds the source records; corrections are per
server. A server's corrected papers are few (each one a member proposed and a curator
approved), so its search reads them as the server sees them and matches each in memory against
the query with the matcher topic subscriptions use (`subscriptions.topic_match`, which finds a
paper exactly when the index's exact search would, on both backends: property-tested), then
merges them into the index's hits:

- a corrected paper the index found but whose corrected text no longer matches (the old, wrong
  words) is left out;
- a corrected paper that matches (its new words) is kept, or placed where the index ranks such
  a match: an exact English title first, then title and author matches, then matches elsewhere,
  then the other language's spellings (`domain.crosslingual`), each after the index's own hits
  of that tier.

Within a tier a corrected paper follows the index's hits (it has no bm25 score: the index does
not hold its text). The same function runs whichever backend answered, so both give the same
results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.features.subscriptions.topic_match import (
    CompiledTopic,
    IndexedText,
    PaperTerms,
    cross_topics,
)
from domain.catalog import SearchHit
from domain.index_text import AUTHORS_COLUMN, index_columns, index_tokens
from domain.paper import Paper
from domain.query import SearchQuery
from domain.text import title_key

EXACT, HEADLINE, ANYWHERE, CROSSED = range(4)
"""The tiers of a match, best first (as `storage.papers` ranks them)."""


HEADLINE_COLUMNS = range(AUTHORS_COLUMN + 1)
"""The index columns a headline match is in: both titles and the authors
(`storage.papers.fts.HEADLINE_COLUMNS`)."""


def _terms(paper: Paper) -> tuple[PaperTerms, PaperTerms]:
    """The paper's terms everywhere, and in its headline columns only (same venue facts)."""
    columns = [index_tokens(text) for text in index_columns(paper)]
    full = PaperTerms.of(paper)
    return full, replace(full, everywhere=IndexedText.of([columns[n] for n in HEADLINE_COLUMNS]))


class Matcher:
    """One query, compiled once, telling the tier a paper matches it in (None: no match)."""

    def __init__(self, query: SearchQuery) -> None:
        self.topic = CompiledTopic.from_query(query)
        self.cross = cross_topics(self.topic) if self.topic is not None else ()
        self.exact = title_key(" ".join(query.phrase))

    def tier(self, paper: Paper) -> int | None:
        """Where the exact search would rank `paper`, or None when it would not find it."""
        if self.topic is None:
            return None
        terms, headline = _terms(paper)
        if self.topic.matches(terms):
            if self.exact and self.exact == title_key(paper.title_en):
                return EXACT
            return HEADLINE if self.topic.matches(headline) else ANYWHERE
        if any(cross.matches(terms) for cross in self.cross):
            return CROSSED
        return None


def merged(hits: Sequence[SearchHit], query: SearchQuery, corrected: Mapping[str, Paper], *,
           limit: int, insert: bool = True) -> list[SearchHit]:
    """The index's `hits` with the server's `corrected` papers (by id, as the server sees
    them) merged in as the module says; at most `limit`. Without `insert` (a later page) a
    corrected paper is only kept or left out, never added."""
    matcher = Matcher(query)
    kept: list[tuple[SearchHit, int]] = []
    for hit in hits:
        if hit.id in corrected:
            tier = matcher.tier(corrected[hit.id])
            if tier is not None:
                kept.append((_as(hit.id, hit.score, corrected[hit.id]), tier))
        else:
            tier = matcher.tier(hit.paper)
            kept.append((hit, CROSSED if tier is None else tier))
    if insert:
        found = {hit.id for hit, _ in kept} | {hit.id for hit in hits}
        for paper_id, paper in corrected.items():
            tier = None if paper_id in found else matcher.tier(paper)
            if tier is not None:
                at = next((n for n, (_, t) in enumerate(kept) if t > tier), len(kept))
                kept.insert(at, (_as(paper_id, 0.0, paper), tier))
    return [hit for hit, _ in kept[:max(0, limit)]]


def _as(paper_id: str, score: float, paper: Paper) -> SearchHit:
    return SearchHit(paper_id, score, lambda: paper)
