"""A structured search query: the words and filters a search asks for, as storage and the
pure rules read them. `bot.features.papers.query.parse_query` makes one from what a member typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from domain.paper import Track
from domain.text import CJK_RUN, clean, fold_chinese

MAX_QUERY_CHARS = 500
MAX_WORDS = 12
MAX_WORD_CHARS = 64
MAX_PHRASE_WORDS = 32
MIN_PREFIX_CHARS = 3
"""A Latin query word this long is a prefix term (`grok` finds grokking); shorter ones exact."""
HONOURS = ("spotlight", "oral", "poster")

# A word: letters and digits of any script (no underscore), the same rule as the index tokenizer.
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class Filters:
    """Restrictions applied on top of the words."""

    author: tuple[str, ...] = ()
    track: Track | None = None
    venue: str | None = None
    honour: str | None = None
    year: int | None = None

    def is_empty(self) -> bool:
        """True when nothing is restricted."""
        return self == Filters()


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """Normalised words (case-folded; CJK runs kept whole) and filters."""

    words: tuple[str, ...] = ()
    filters: Filters = field(default_factory=Filters)
    phrase: tuple[str, ...] = field(default=(), compare=False)
    """The words as typed, in order, repeats kept: an exact title or phrase ranks first. Not
    part of the query's identity (the matches are the same)."""

    def is_empty(self) -> bool:
        """True when the query asks for nothing at all."""
        return not self.words and self.filters.is_empty()

    def with_words(self, words: tuple[str, ...]) -> SearchQuery:
        """The same filters with other words."""
        return replace(self, words=words)

    def describe(self) -> str:
        """A readable, canonical form of the query (used in "did you mean")."""
        parts = list(self.words)
        f = self.filters
        if f.author:
            parts.append('author:"' + " ".join(f.author) + '"')
        if f.track:
            parts.append(f"venue:{f.track.value}")
        if f.venue:
            parts.append(f'venue:"{f.venue}"')
        if f.honour:
            parts.append(f"honours:{f.honour}")
        if f.year:
            parts.append(f"year:{f.year}")
        return " ".join(parts)


def split_words(text: str) -> list[str]:
    """The index words of `text` in order, repeats kept (a phrase as typed)."""
    result: list[str] = []
    for word in _WORD.findall(fold_chinese(clean(text)).casefold()):
        # `理解grokking` is one \w run; the index keeps scripts apart, so split it too.
        spaced = CJK_RUN.sub(lambda m: f" {m.group()} ", word)
        result.extend(piece[:MAX_WORD_CHARS] for piece in spaced.split())
    return result


def words_of(text: str) -> tuple[str, ...]:
    """Split text into index words: Latin/digit runs and CJK runs (Traditional folded to
    Simplified, as the index is), case-folded, each once."""
    return tuple(dict.fromkeys(split_words(text)))
