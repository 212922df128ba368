"""Full-text search on PostgreSQL with the same meaning as the FTS5 index.

The tokens are the project's own (`bot.features.subscriptions.topic_match.index_tokens` over
`storage.papers.fts.index_row`:
the FTS5 `unicode61 remove_diacritics 2` rules, CJK bigrams, Traditional folded to Simplified),
stored verbatim as a `tsvector` literal (no dictionary touches them, so a lexeme is exactly an
FTS5 token). Each column's weight letter carries its FTS5 column: A titles, B authors,
C affiliations and summary, D venue, weighted 2 : 2 : 1 : 0.5 in bm25
(`storage.papers.postgres_bm25` ranks as FTS5 does).
Columns are separated by a one-position gap so that no phrase spans two of them.

Queries are `tsquery` literals built from tokens, each lexeme quoted: a Latin word of 3+ letters
is a prefix (`'grok':*`), a CJK word a phrase of its bigrams (`'深度' <-> '度学'`), a column
restriction a weight set (`'vardi':B`). User text never reaches the query syntax raw.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.index_text import index_tokens
from domain.prefixes import Expansion, Expansions, rare_narrowings
from domain.query import MIN_PREFIX_CHARS, SearchQuery
from domain.text import cjk_bigrams, has_cjk
from storage.papers.fts import COLUMNS, HEADLINE_COLUMNS

WEIGHT_LETTERS = ("A", "A", "B", "C", "C", "D", "C")
"""The weight letter of each full-text column, in `storage.papers.fts.COLUMNS` order."""
HEADLINE = "AB"
AUTHORS = "B"
TITLES = "A"
MAX_POSITION = 16383
MAX_LEXEME_BYTES = 2046
assert len(WEIGHT_LETTERS) == len(COLUMNS)
assert set(WEIGHT_LETTERS[:len(HEADLINE_COLUMNS)]) == set(HEADLINE)

Term = str | None
"""A tsquery fragment, or None for a term that can match nothing (FTS5's empty phrase)."""


def lexeme(token: str) -> str:
    """One token as a quoted tsvector/tsquery lexeme."""
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


@dataclass(frozen=True, slots=True)
class _Phrase:
    """One FTS5 phrase: its tokens in order (the last a prefix when `prefix`), restricted to
    the columns of the weight letters `weights` ("" for every column). bm25 scores phrases."""

    tokens: tuple[str, ...]
    prefix: bool
    weights: str

    def term(self) -> str:
        """The phrase as a tsquery fragment."""
        parts = [lexeme(t) + (f":{self.weights}" if self.weights else "") for t in self.tokens]
        if self.prefix:
            parts[-1] = f"{lexeme(self.tokens[-1])}:*{self.weights}"
        return parts[0] if len(parts) == 1 else "(" + " <-> ".join(parts) + ")"


@dataclass(frozen=True, slots=True)
class _Match:
    """A tsquery (None when it can match nothing) and its phrases in FTS5's order."""

    term: Term
    phrases: tuple[_Phrase, ...] = ()


def _phrase(tokens: list[str], *, prefix: bool, weights: str) -> _Match:
    tokens = [t for t in tokens if len(t.encode()) <= MAX_LEXEME_BYTES]
    if not tokens:
        return _Match(None)
    phrase = _Phrase(tuple(tokens), prefix, weights)
    return _Match(phrase.term(), (phrase,))


def _expanded(expansion: Expansion, weights: str) -> _Match:
    """A prefix word as its completions, as `storage.papers.fts.expanded`."""
    terms = [_phrase(index_tokens(t), prefix=False, weights=weights)
             for t in (expansion.prefix,) * expansion.exact + expansion.terms]
    if expansion.more:
        terms.append(_phrase(index_tokens(expansion.prefix), prefix=True, weights=weights))
    return _any(terms)


def word_match(word: str, weights: str = "", expansions: Expansions | None = None) -> _Match:
    """One query word as FTS5's `storage.papers.fts.word_expression` means it."""
    if expansions and word in expansions:
        return _expanded(expansions[word], weights)
    if has_cjk(word):
        if len(word) == 1:
            return _phrase(index_tokens(word), prefix=True, weights=weights)
        return _phrase(index_tokens(" ".join(cjk_bigrams(word))), prefix=False, weights=weights)
    return _phrase(index_tokens(word), prefix=len(word) >= MIN_PREFIX_CHARS, weights=weights)


def _all(matches: list[_Match]) -> _Match:
    if len(matches) == 1:  # one term as itself: its papers are counted once (`counted`)
        return matches[0]
    phrases = tuple(p for m in matches for p in m.phrases)
    if any(m.term is None for m in matches):
        return _Match(None, phrases)
    return _Match("(" + " & ".join(str(m.term) for m in matches) + ")", phrases)


def _any(matches: list[_Match]) -> _Match:
    kept = [m for m in matches if m.term is not None]
    phrases = tuple(p for m in matches for p in m.phrases)
    return _Match("(" + " | ".join(str(m.term) for m in kept) + ")" if kept else None, phrases)


def match_query(query: SearchQuery, *, any_word: bool = False, weights: str = "",
                expansions: Expansions | None = None) -> tuple[bool, _Match]:
    """(whether the query has words or an author filter, its match) as `match_expression`;
    `weights` restricts the words to those columns, `expansions` are the prefix words'."""
    clauses: list[_Match] = []
    if query.words:
        terms = [word_match(w, weights, expansions) for w in query.words]
        clauses.append(_any(terms) if any_word else _all(terms))
    if query.filters.author:
        clauses.append(_all([word_match(w, AUTHORS) for w in query.filters.author]))
    if not clauses:
        return False, _Match(None)
    return True, _all(clauses)


def rare_query(query: SearchQuery, expansions: Expansions, *, any_word: bool = False,
               weights: str = "") -> _Match | None:
    """The matches holding a rare completion of a prefix word, as
    `storage.papers.fts.rare_expression`; None when no word has one."""
    parts = [match_query(alone, weights=weights, expansions=narrowed)[1]
             for alone, narrowed in rare_narrowings(query, expansions, any_word)]
    kept = [part for part in parts if part.term is not None]
    return _any(kept) if kept else None


def phrase_query(query: SearchQuery) -> _Match:
    """The query's words as one phrase in a title (with the author filter), as
    `storage.papers.fts.phrase_expression`;
    no term for fewer than two words or nothing indexable."""
    if len(query.phrase) < 2:
        return _Match(None)
    text = " ".join(" ".join(cjk_bigrams(w)) if has_cjk(w) else w for w in query.phrase)
    clauses = [_phrase(index_tokens(text), prefix=False, weights=TITLES)]
    if query.filters.author:
        clauses.append(_all([word_match(w, AUTHORS) for w in query.filters.author]))
    return _all(clauses)
