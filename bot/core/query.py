"""User search text -> a structured query. Raw user text never goes further than this module.

Inline filters are understood anywhere in the text: `author:vardi`, `author:"gal vardi"`,
`venue:workshop` (or `main`, or a conference / workshop name), `track:main`,
`honours:spotlight`, `year:2026`. Anything else, `col:term` included, is plain words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from bot.core.messages import Refusal
from bot.core.models import Track
from bot.core.text import CJK_RUN, clean, fold_chinese

MAX_QUERY_CHARS = 500
MAX_WORDS = 12
MAX_WORD_CHARS = 64
MAX_PHRASE_WORDS = 32
MIN_PREFIX_CHARS = 3
"""A Latin query word this long is a prefix term (`grok` finds grokking); shorter ones exact."""
HONOURS = ("spotlight", "oral", "poster")

_FILTER = re.compile(
    r"(?<!\S)(author|authors|venue|track|honours?|honors?|year|conference):"
    r"(?:\"([^\"]*)\"|(\S+))",
    re.IGNORECASE,
)
# A word: letters and digits of any script (no underscore), the same rule as the index tokenizer.
_WORD = re.compile(r"[^\W_]+")


class QueryError(Refusal):
    """A filter value that cannot mean anything, such as `year:abc`; the message is user-safe."""


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


def _split_words(text: str) -> list[str]:
    result: list[str] = []
    for word in _WORD.findall(fold_chinese(clean(text)).casefold()):
        # `理解grokking` is one \w run; the index keeps scripts apart, so split it too.
        spaced = CJK_RUN.sub(lambda m: f" {m.group()} ", word)
        result.extend(piece[:MAX_WORD_CHARS] for piece in spaced.split())
    return result


def words_of(text: str) -> tuple[str, ...]:
    """Split text into index words: Latin/digit runs and CJK runs (Traditional folded to
    Simplified, as the index is), case-folded, each once."""
    return tuple(dict.fromkeys(_split_words(text)))


def _track_or_venue(value: str) -> tuple[Track | None, str | None]:
    lowered = value.casefold()
    if lowered in {"any", "all", ""}:
        return None, None
    if lowered in {"main", "main track", "conference"}:
        return Track.MAIN, None
    if lowered in {"workshop", "workshops"}:
        return Track.WORKSHOP, None
    return None, clean(value)[:MAX_WORD_CHARS] or None


def _honour(value: str) -> str:
    lowered = value.casefold().strip()
    for honour in HONOURS:
        if lowered in {honour, honour + "s"}:
            return honour
    raise QueryError("query.honours", honours=", ".join(f"`{h}`" for h in HONOURS))


def _year(value: str) -> int:
    if not re.fullmatch(r"\d{4}", value.strip()):
        raise QueryError("query.year")
    return int(value)


def parse_query(
    text: str = "",
    *,
    author: str | None = None,
    venue: str | None = None,
    honour: str | None = None,
    year: int | None = None,
) -> SearchQuery:
    """Parse free text with inline filters; keyword arguments add or override filters."""
    text = clean(text)[:MAX_QUERY_CHARS]
    authors: tuple[str, ...] = ()
    track: Track | None = None
    venue_name: str | None = None
    honour_value: str | None = None
    year_value: int | None = None
    for match in _FILTER.finditer(text):
        key = match.group(1).casefold().rstrip("s")
        value = match.group(2) if match.group(2) is not None else match.group(3)
        if key == "author":
            authors = words_of(value)
        elif key in {"venue", "track", "conference"}:
            track, venue_name = _track_or_venue(value)
        elif key in {"honour", "honor"}:
            honour_value = _honour(value)
        elif key == "year":
            year_value = _year(value)
    free_text = _FILTER.sub(" ", text)
    if author:
        authors = words_of(author)
    if venue:
        track, venue_name = _track_or_venue(venue)
    if honour:
        honour_value = _honour(honour)
    if year is not None:
        year_value = year
    return SearchQuery(
        words=words_of(free_text)[:MAX_WORDS],
        phrase=tuple(_split_words(free_text)[:MAX_PHRASE_WORDS]),
        filters=Filters(
            author=authors[:MAX_WORDS],
            track=track,
            venue=venue_name,
            honour=honour_value,
            year=year_value,
        ),
    )
