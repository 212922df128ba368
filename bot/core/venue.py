"""Derive structured venue facts from free-text `Comments` and `Journal ref`."""

from __future__ import annotations

import re
from functools import lru_cache

from bot.core.models import Track, Venue

# An acronym (two or more capitals, lower-case letters allowed inside: `NeurIPS`) followed by a
# year: `ICML 2026`, `ICML'26`, `ICML 26`, `ICMLCN 2025`.
_ACRONYM_YEAR = re.compile(
    r"(?<![A-Za-z0-9])([A-Z][A-Za-z]*[A-Z][A-Za-z]*)\s*(?:['’]\s*|\s)(20\d\d|\d\d)(?![0-9])"
)
# Long names written out without an acronym, mapped to the acronym.
_LONG_NAMES = (
    (re.compile(r"International Conference on Machine Learning(?!\s+(?:for|and)\b)"), "ICML"),
)
_YEAR = re.compile(r"(?<![0-9])(20\d\d)(?![0-9])")
_ANY_ACRONYM = re.compile(r"(?<![A-Za-z0-9])(ICML|NeurIPS|ICLR)(?![A-Za-z0-9])")
_NOT_CONFERENCES = frozenset({"IEEE", "ACM", "CNRS", "USA", "PMLR"})

_WORKSHOP_WORD = re.compile(r"\bworkshops?\b", re.IGNORECASE)
_AT_VENUE = re.compile(r"([A-Za-z][\w\-]*)\s*@\s*[A-Z]")
_WORKSHOP_ON = re.compile(r"\bworkshop\s+on\s+(?:the\s+)?([^.,;()]+(?:\([^)]*\))?)", re.IGNORECASE)
_NAMED_WORKSHOP = re.compile(r"((?:(?:[A-Z][\w\-]*|&)\s+)+)[Ww]orkshop\b")
_HONOURS = (("spotlight", re.compile(r"\bspotlight\b", re.I)),
            ("oral", re.compile(r"\boral\b", re.I)),
            ("poster", re.compile(r"\bposter\b", re.I)))
_COUNTS = {name: re.compile(rf"(\d+)\s+{name}\b", re.I) for name in ("pages", "figures", "tables")}


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


def _workshop_name(text: str, conference: str | None) -> str | None:
    on = _WORKSHOP_ON.search(text)
    if on:
        return on.group(1).strip()
    for match in _NAMED_WORKSHOP.finditer(text):
        words = [w for w in match.group(1).split() if w != conference]
        while words and words[0] in {"&", "The", "the"}:
            words.pop(0)
        if words:
            return " ".join(words)
    at = _AT_VENUE.search(text)
    if at and at.group(1) != conference:
        return at.group(1)
    return None


@lru_cache(maxsize=4096)
def derive_venue(comments: str, journal_ref: str) -> Venue:
    """Read conference, year, track, workshop name, honours and counts from venue notes."""
    text = f"{comments}\n{journal_ref}".strip()
    if not text:
        return Venue()
    conference, year = _conference(text)
    is_workshop = bool(_WORKSHOP_WORD.search(text) or _AT_VENUE.search(text))
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
