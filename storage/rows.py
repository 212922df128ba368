"""Rows of the `papers` table turned back into papers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.core.models import Affiliation, Paper, Track, Venue


def paper_from_row(row: Sequence[Any]) -> Paper:
    """A paper from its `papers` columns in `storage.papers` order (pages, figures, tables last)."""
    (title_en, title_zh, authors, affiliations, summary, comments, journal_ref,
     conference, year, track, workshop, honours, pages, figures, tables) = row[:15]
    return Paper(
        title_en=title_en,
        title_zh=title_zh,
        authors=tuple(json.loads(authors)),
        affiliations=tuple(Affiliation(en, zh) for en, zh in json.loads(affiliations)),
        summary_zh=summary,
        comments=comments,
        journal_ref=journal_ref,
        venue=Venue(
            conference=conference,
            year=year,
            track=Track(track),
            workshop=workshop,
            honours=tuple(json.loads(honours)),
            pages=pages,
            figures=figures,
            tables=tables,
        ),
    )
