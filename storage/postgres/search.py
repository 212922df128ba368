"""Full-text search on PostgreSQL with the same meaning as the FTS5 index.

The tokens are the project's own (`bot.core.topic_match.index_tokens` over `storage.fts.index_row`:
the FTS5 `unicode61 remove_diacritics 2` rules, CJK bigrams, Traditional folded to Simplified),
stored verbatim as a `tsvector` literal (no dictionary touches them, so a lexeme is exactly an
FTS5 token). Each column's weight letter carries its FTS5 column: A titles, B authors,
C affiliations and summary, D venue; `ts_rank` weights them 2 : 2 : 1 : 0.5 as bm25 does.
Columns are separated by a one-position gap so that no phrase spans two of them.

Queries are `tsquery` literals built from tokens, each lexeme quoted: a Latin word of 3+ letters
is a prefix (`'grok':*`), a CJK word a phrase of its bigrams (`'深度' <-> '度学'`), a column
restriction a weight set (`'vardi':B`). User text never reaches the query syntax raw.
"""

from __future__ import annotations

from bot.core.query import MIN_PREFIX_CHARS, SearchQuery
from bot.core.text import cjk_bigrams, has_cjk
from bot.core.topic_match import index_tokens
from storage.fts import COLUMNS

WEIGHT_LETTERS = ("A", "A", "B", "C", "C", "D", "C")
"""The weight letter of each full-text column, in `storage.fts.COLUMNS` order."""
RANK_WEIGHTS = "{0.25, 0.5, 1.0, 1.0}"
"""`ts_rank` weights for D, C, B, A: FTS5's bm25 column weights (0.5, 1, 2, 2) scaled to 1."""
HEADLINE = "AB"
AUTHORS = "B"
TITLES = "A"
MAX_POSITION = 16383
MAX_LEXEME_BYTES = 2046
assert len(WEIGHT_LETTERS) == len(COLUMNS)

Term = str | None
"""A tsquery fragment, or None for a term that can match nothing (FTS5's empty phrase)."""


def lexeme(token: str) -> str:
    """One token as a quoted tsvector/tsquery lexeme."""
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_literal(columns: tuple[str, ...]) -> tuple[str, int]:
    """The `tsvector` of a paper's index columns (`storage.fts.index_row`), and its token count
    (bm25's document length)."""
    positions: dict[str, list[str]] = {}
    position, total = 1, 0
    for text, weight in zip(columns, WEIGHT_LETTERS, strict=True):
        tokens = index_tokens(text)
        total += len(tokens)
        for token in tokens:
            if len(token.encode()) <= MAX_LEXEME_BYTES:
                positions.setdefault(token, []).append(f"{min(position, MAX_POSITION)}{weight}")
            position += 1
        position += 1
    literal = " ".join(f"{lexeme(t)}:{','.join(dict.fromkeys(p))}" for t, p in positions.items())
    return literal, total


def _phrase(tokens: list[str], *, prefix: bool, weights: str) -> Term:
    tokens = [t for t in tokens if len(t.encode()) <= MAX_LEXEME_BYTES]
    if not tokens:
        return None
    parts = [f"{lexeme(t)}:{weights}" if weights else lexeme(t) for t in tokens]
    if prefix:
        parts[-1] = f"{lexeme(tokens[-1])}:*{weights}"
    return parts[0] if len(parts) == 1 else "(" + " <-> ".join(parts) + ")"


def word_term(word: str, weights: str = "") -> Term:
    """One query word as FTS5's `storage.fts.word_expression` means it."""
    if has_cjk(word):
        if len(word) == 1:
            return _phrase(index_tokens(word), prefix=True, weights=weights)
        return _phrase(index_tokens(" ".join(cjk_bigrams(word))), prefix=False, weights=weights)
    return _phrase(index_tokens(word), prefix=len(word) >= MIN_PREFIX_CHARS, weights=weights)


def _all(terms: list[Term]) -> Term:
    if any(t is None for t in terms):
        return None
    return "(" + " & ".join(t for t in terms if t) + ")"


def _any(terms: list[Term]) -> Term:
    kept = [t for t in terms if t is not None]
    return "(" + " | ".join(kept) + ")" if kept else None


def match_query(query: SearchQuery, *, any_word: bool = False,
                weights: str = "") -> tuple[bool, Term]:
    """(whether the query has words or an author filter, its tsquery) as `match_expression`;
    `weights` restricts the words to those columns."""
    clauses: list[Term] = []
    if query.words:
        terms = [word_term(w, weights) for w in query.words]
        clauses.append(_any(terms) if any_word else _all(terms))
    if query.filters.author:
        clauses.append(_all([word_term(w, AUTHORS) for w in query.filters.author]))
    if not clauses:
        return False, None
    return True, _all(clauses)


def phrase_query(query: SearchQuery) -> Term:
    """The query's words as one phrase in a title (with the author filter), as
    `storage.fts.phrase_expression`; None for fewer than two words or nothing indexable."""
    if len(query.phrase) < 2:
        return None
    text = " ".join(" ".join(cjk_bigrams(w)) if has_cjk(w) else w for w in query.phrase)
    clauses = [_phrase(index_tokens(text), prefix=False, weights=TITLES)]
    if query.filters.author:
        clauses.append(_all([word_term(w, AUTHORS) for w in query.filters.author]))
    return _all(clauses)
