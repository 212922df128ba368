"""Prefix expansion, shared by both backends: a query's prefix word (`control`, matched as
`control*`) is searched as its completions in the index, each a term of its own, so bm25 weighs
each completion by its own rarity (a prefix term is one phrase with one shared weight).

The rules (no database here): the completions come from each backend's term statistics (FTS5's
`paper_vocab` on SQLite, the `paper_terms` table on PostgreSQL: the same terms with the same
document counts), are ranked
most frequent first (ties by term) and capped at `PREFIX_CAP`; when more exist, the prefix
term itself stays in the expansion, so the matched papers are exactly those the prefix matches.

A frequent word is ranked among its newest matches only (the rank window): its rare completions
(`Expansion.rare`) name the matches that must be ranked besides them, found through their own
short doclists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from domain.index_text import index_tokens
from domain.query import MIN_PREFIX_CHARS, SearchQuery

PREFIX_CAP = 32
"""Completions a prefix word expands to, most frequent first."""
RARE_ROWS = 4
"""Papers the rare completions of a frequent prefix may hold together (each is ranked by a
seek of its own, ~0.2 ms at 100k papers)."""
EXPANDABLE = re.compile(r"[a-z][a-z0-9]*")
"""Prefix words that expand: one ASCII token starting with a letter (the terms PostgreSQL's
`paper_terms` keeps); any other word stays a plain prefix term."""


@dataclass(frozen=True, slots=True)
class Expansion:
    """A prefix word's completions, most frequent first, and whether more exist (then the
    prefix itself is searched too, after them)."""

    prefix: str
    terms: tuple[str, ...]
    more: bool
    rare: tuple[str, ...] = ()
    """When all completions together are in more papers than the rank window holds: the
    rarest completions (of all, the tail too) held by at most `RARE_ROWS` papers together.
    Their matches are ranked besides the window's newest."""
    exact: bool = False
    """The prefix is itself one of `terms`, held by at most a rank window of papers: it is
    searched twice (bm25 sums its phrases), so a paper holding the word as typed outranks one
    holding only a longer completion (`xia` finds Xia before Xiaoyuan). A frequent word is
    not: counting its papers a second time would cost what the window saves."""
    papers: int | None = None
    """The papers its completions are in, summed (at least the papers the prefix matches);
    None when not known."""


Expansions = Mapping[str, Expansion]
"""Query word -> its expansion."""


def expandable(word: str) -> str | None:
    """The prefix token a query word expands from, or None when it stays as it is."""
    if len(word) < MIN_PREFIX_CHARS:
        return None
    tokens = index_tokens(word)
    if len(tokens) != 1 or not EXPANDABLE.fullmatch(tokens[0]):
        return None
    return tokens[0]


def upper_bound(prefix: str) -> str:
    """A string above every term that starts with `prefix` (as SQLite and "C" order them)."""
    return prefix + "\U0010ffff"


def choose(prefix: str, rows: Iterable[tuple[str, int]], window: int,
           rare_rows: int = 0) -> Expansion:
    """The expansion of `prefix` from (term, documents) rows of the term statistics, for a
    rank window of `window` rows and rare sets of at most `rare_rows` papers."""
    found = sorted(((str(t), int(n)) for t, n in rows if str(t).startswith(prefix) and n > 0),
                   key=lambda row: (-row[1], row[0]))
    rare: list[str] = []
    if sum(n for _, n in found) > window:
        papers = 0
        for term, n in reversed(found):
            if papers + n > rare_rows or len(rare) == PREFIX_CAP:
                break
            rare.append(term)
            papers += n
    terms = found[:PREFIX_CAP]
    exact = any(term == prefix and n <= window for term, n in terms)
    return Expansion(prefix, tuple(t for t, _ in terms), len(found) > PREFIX_CAP, tuple(rare),
                     exact, sum(n for _, n in found))


def by_word(words: Iterable[str], expansions: Mapping[str, Expansion]) -> dict[str, Expansion]:
    """Each query word's expansion (from the expansions of their prefixes)."""
    result: dict[str, Expansion] = {}
    for word in words:
        prefix = expandable(word)
        if prefix is not None and prefix in expansions and expansions[prefix].terms:
            result[word] = expansions[prefix]
    return result


def rare_narrowings(query: SearchQuery, expansions: Expansions,
                    any_word: bool) -> Iterator[tuple[SearchQuery, dict[str, Expansion]]]:
    """Per prefix word with rare completions, the query (that word alone, for `any_word`) and
    the expansions with that word narrowed to its rare completions: the matches ranked besides
    a frequent word's window, whichever backend's syntax states them."""
    for word, expansion in expansions.items():
        if expansion.rare:
            narrowed = {**expansions, word: Expansion(expansion.prefix, expansion.rare, False)}
            yield (replace(query, words=(word,)) if any_word else query), narrowed
