"""User search text -> a structured query. Raw user text never goes further than this module.

Inline filters are understood anywhere in the text: `author:vardi`, `author:"gal vardi"`,
`venue:workshop` (or `main`, or a conference / workshop name), `track:main`,
`honours:spotlight`, `year:2026`. Anything else, `col:term` included, is plain words.
"""

from __future__ import annotations

import re

from bot.shared.messages import Refusal
from domain.paper import Track
from domain.query import (
    HONOURS,
    MAX_PHRASE_WORDS,
    MAX_QUERY_CHARS,
    MAX_WORD_CHARS,
    MAX_WORDS,
    Filters,
    SearchQuery,
    split_words,
    words_of,
)
from domain.text import clean

_FILTER = re.compile(
    r"(?<!\S)(author|authors|venue|track|honours?|honors?|year|conference):"
    r"(?:\"([^\"]*)\"|(\S+))",
    re.IGNORECASE,
)
class QueryError(Refusal):
    """A filter value that cannot mean anything, such as `year:abc`; the message is user-safe."""


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
        phrase=tuple(split_words(free_text)[:MAX_PHRASE_WORDS]),
        filters=Filters(
            author=authors[:MAX_WORDS],
            track=track,
            venue=venue_name,
            honour=honour_value,
            year=year_value,
        ),
    )
