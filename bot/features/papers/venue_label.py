"""A paper's venue, length and Chinese text as a reader of each language sees them."""

from __future__ import annotations

from bot.shared.lang import Lang
from bot.shared.messages import t, tn
from domain.paper import Track, Venue
from domain.text import to_traditional

_HONOURS = {"spotlight": "card.honour.spotlight", "oral": "card.honour.oral",
            "poster": "card.honour.poster"}


def venue_badge(venue: Venue, lang: Lang) -> str:
    """`ICML 2026 · Workshop: Mechanistic Interpretability · Spotlight`, in `lang`."""
    if lang is Lang.EN:
        return venue.badge()
    parts: list[str] = []
    if venue.conference:
        parts.append(f"{venue.conference} {venue.year}" if venue.year else venue.conference)
    if venue.track is Track.WORKSHOP:
        parts.append(t(lang, "card.workshop_named", name=venue.workshop) if venue.workshop
                     else t(lang, "card.workshop"))
    elif venue.track is Track.MAIN:
        parts.append(t(lang, "card.main_track"))
    parts.extend(t(lang, _HONOURS[h]) if h in _HONOURS else h for h in venue.honours)
    return " · ".join(parts)


def venue_length(venue: Venue, lang: Lang) -> str:
    """`16 pages, 8 figures, 2 tables`, in `lang` ('' when the notes gave no counts)."""
    counts = (("card.pages", venue.pages), ("card.figures", venue.figures),
              ("card.tables", venue.tables))
    return ("，" if lang.chinese else ", ").join(tn(lang, key, n) for key, n in counts if n)


def chinese_for(text: str, lang: Lang) -> str:
    """Catalog Chinese (Simplified) as the reader writes it: Traditional for zh-TW readers."""
    return to_traditional(text) if lang is Lang.ZH_HANT else text
