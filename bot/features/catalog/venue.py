"""Derive structured venue facts from free-text `Comments` and `Journal ref`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from domain.paper import Track, Venue

# An acronym (two or more capitals, lower-case letters allowed inside: `NeurIPS`) followed by a
# year: `ICML 2026`, `ICML'26`, `ICML 26`, `ICMLCN 2025`.
# (Every pattern here runs in time linear in the text: a 20,000-character field must not cost
# seconds. A run of letters is read whole and its second capital checked ahead.)
_ACRONYM_YEAR = re.compile(
    r"(?<![A-Za-z0-9])(?=[A-Z][a-z]*[A-Z])([A-Za-z]++)\s*(?:['’]\s*|\s)(20\d\d|\d\d)(?![0-9])"
)
# Long names written out without an acronym, mapped to the acronym.
_LONG_NAMES = (
    (re.compile(r"International Conference on Machine Learning(?!\s+(?:for|and)\b)"), "ICML"),
)
_YEAR = re.compile(r"(?<![0-9])(20\d\d)(?![0-9])")
_ANY_ACRONYM = re.compile(r"(?<![A-Za-z0-9])(ICML|NeurIPS|ICLR)(?![A-Za-z0-9])")
_NOT_CONFERENCES = frozenset({"IEEE", "ACM", "CNRS", "USA", "PMLR"})

_WORKSHOP_WORD = re.compile(r"\bworkshops?\b", re.IGNORECASE)
# A run of word characters, then `@ Venue` or not: matched once per run (`_at_venue`).
_RUN_THEN_AT = re.compile(r"([\w\-]+)(\s*@(?=\s*[A-Z]))?")
_ASCII_LETTER = re.compile(r"[A-Za-z]")
_WORKSHOP_ON = re.compile(r"\bworkshop\s+on\s+(?:the\s+)?([^.,;()\n]+(?:\([^)]*\))?)",
                          re.IGNORECASE)  # the name ends with its line (one field of several)
# Capitalised words (or `&`) before "Workshop": tried only where such a chain can start
# (`_named_workshops`), so a long chain that never reaches "Workshop" is read once.
_NAMED_WORKSHOP = re.compile(r"((?:(?:[A-Z][\w\-]*|&)\s+)+)[Ww]orkshop\b")
_CHAIN = re.compile(r"(?:(?:[A-Z][\w\-]*+|&)\s++)*+")
_CHAIN_START = re.compile(r"[A-Z&]")
_HONOURS = (("spotlight", re.compile(r"\bspotlight\b", re.I)),
            ("oral", re.compile(r"\boral\b", re.I)),
            ("poster", re.compile(r"\bposter\b", re.I)))
_COUNTS = {name: re.compile(rf"(?<!\d)(\d+)\s+{name}\b", re.I)
           for name in ("pages", "figures", "tables")}


def _year(text: str) -> int:
    value = int(text)
    return value + 2000 if value < 100 else value


def _conference(text: str) -> tuple[str | None, int | None]:
    for match in _ACRONYM_YEAR.finditer(text):
        name = match.group(1)
        if name.upper() not in _NOT_CONFERENCES:
            return name, _year(match.group(2))
    year_match = _YEAR.search(text)
    year = int(year_match.group(1)) if year_match else None
    for pattern, acronym in _LONG_NAMES:
        if pattern.search(text):
            return acronym, year
    acronym_match = _ANY_ACRONYM.search(text)
    if acronym_match:
        return acronym_match.group(1), year
    return None, None


def _at_venue(text: str) -> str | None:
    """The word before the first `@ Venue` (`Foo@ICML`), from its first ASCII letter."""
    for match in _RUN_THEN_AT.finditer(text):
        if match.group(2) and (letter := _ASCII_LETTER.search(match.group(1))):
            return match.group(1)[letter.start():]
    return None


def _named_workshops(text: str) -> Iterator[str]:
    """The capitalised words before each "Workshop", as `_NAMED_WORKSHOP.finditer` finds
    them, in linear time: where a match from a chain's first word fails, no later word of
    the chain can start one, so the search skips the chain."""
    pos = 0
    while (start := _CHAIN_START.search(text, pos)) is not None:
        match = _NAMED_WORKSHOP.match(text, start.start())
        if match is not None:
            yield match.group(1)
            pos = match.end()
        else:
            chain = _CHAIN.match(text, start.start())
            pos = max(start.start() + 1, chain.end() if chain else 0)


def _workshop_name(text: str, conference: str | None) -> str | None:
    on = _WORKSHOP_ON.search(text)
    if on:
        return on.group(1).strip()
    for named in _named_workshops(text):
        words = [w for w in named.split() if w != conference]
        while words and words[0] in {"&", "The", "the"}:
            words.pop(0)
        if words:
            return " ".join(words)
    at = _at_venue(text)
    if at and at != conference:
        return at
    return None


@lru_cache(maxsize=4096)
def derive_venue(comments: str, journal_ref: str) -> Venue:
    """Read conference, year, track, workshop name, honours and counts from venue notes."""
    text = f"{comments}\n{journal_ref}".strip()
    if not text:
        return Venue()
    conference, year = _conference(text)
    is_workshop = bool(_WORKSHOP_WORD.search(text) or _at_venue(text))
    if is_workshop:
        track = Track.WORKSHOP
    elif conference:
        track = Track.MAIN
    else:
        track = Track.UNKNOWN
    counts = {name: int(m.group(1)) if (m := rx.search(text)) else None
              for name, rx in _COUNTS.items()}
    return Venue(
        conference=conference,
        year=year,
        track=track,
        workshop=_workshop_name(text, conference) if is_workshop else None,
        honours=tuple(name for name, rx in _HONOURS if rx.search(text)),
        pages=counts["pages"],
        figures=counts["figures"],
        tables=counts["tables"],
    )
