"""Filling in a known paper from another source without overwriting what is known."""

from __future__ import annotations

from dataclasses import fields, replace

from bot.core.models import Links, Paper, Venue

_KEPT = {"title_en", "venue", "links"}


def fill_in(known: Paper, incoming: Paper) -> Paper:
    """`known`, each empty field taken from `incoming` (a field `known` has is kept as it is).

    The venue is `known`'s when it has one (its year filled in if missing), else `incoming`'s;
    links are filled field by field. The title stays `known`'s: both have the same identity.
    """
    filled = {f.name: getattr(known, f.name) or getattr(incoming, f.name)
              for f in fields(Paper) if f.name not in _KEPT}
    venue = known.venue if known.venue != Venue() else incoming.venue
    if venue.year is None and incoming.venue.year is not None:
        venue = replace(venue, year=incoming.venue.year)
    links = Links(**{f.name: getattr(known.links, f.name) or getattr(incoming.links, f.name)
                     for f in fields(Links)})
    return replace(known, venue=venue, links=links, **filled)
