"""Rows of the `papers` table turned back into papers, and papers into rows."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from domain.catalog import SearchHit, unread
from domain.paper import Affiliation, Links, Paper, Track, Venue, paper_id
from domain.text import title_key

PAPER_COLUMNS = (
    "p.title_en, p.title_zh, p.authors, p.affiliations, p.summary_zh, p.comments, "
    "p.journal_ref, p.conference, p.year, p.track, p.workshop, p.honours, p.pages, "
    "p.figures, p.tables, p.summary_en, p.arxiv_id, p.arxiv_version, p.doi, p.url, p.pdf_url, "
    "p.categories, p.arxiv_published, p.arxiv_updated"
)
"""The `papers` columns `paper_from_row` reads, in order (`p` is the table's alias)."""
PAPER_COLUMN_COUNT = PAPER_COLUMNS.count(",") + 1
"""How many they are: a query's own columns follow them."""
READ_BATCH = 1000
"""Rows per page when a store reads every paper (`iter_papers`, either backend)."""
EMPTY_LINK_VALUES: tuple[Any, ...] = ("", "", 0, "", "", "", "[]", None, None)
"""The stored form of a paper without an English abstract or links (the last nine columns)."""


def stored_time(value: datetime | None) -> str | None:
    """A link time as stored: ISO 8601 in UTC with its microseconds, or NULL."""
    return value.astimezone(UTC).isoformat() if value is not None else None


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def link_values(paper: Paper) -> tuple[Any, ...]:
    """The stored form of the English abstract and links (the last nine columns)."""
    links = paper.links
    return (paper.summary_en, links.arxiv_id, links.arxiv_version, links.doi, links.url,
            links.pdf_url, json.dumps(list(links.categories)) if links.categories else "[]",
            stored_time(links.published), stored_time(links.updated))


LINK_COLUMNS = ("summary_en, arxiv_id, arxiv_version, doi, url, pdf_url, categories, "
                "arxiv_published, arxiv_updated")
"""The columns of `link_values`, in order."""


def links_from_values(values: Sequence[Any]) -> tuple[str, Links]:
    """The English abstract and links from their nine stored columns."""
    summary_en, arxiv_id, version, doi, url, pdf_url, categories, published, updated = values
    return summary_en, Links(arxiv_id=arxiv_id, arxiv_version=version, doi=doi, url=url,
                             pdf_url=pdf_url, categories=tuple(json.loads(categories)),
                             published=_time(published), updated=_time(updated))


def paper_from_row(row: Sequence[Any]) -> Paper:
    """A paper from its `PAPER_COLUMNS`."""
    (title_en, title_zh, authors, affiliations, summary, comments, journal_ref,
     conference, year, track, workshop, honours, pages, figures, tables) = row[:15]
    summary_en, links = links_from_values(row[15:PAPER_COLUMN_COUNT])
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
        summary_en=summary_en,
        links=links,
    )


def hit_from_row(row: Sequence[Any], score: float) -> SearchHit:
    """A search hit whose paper is built from its `PAPER_COLUMNS` only when asked for (its
    public id comes from the title alone, as `Paper.id` does)."""
    return SearchHit(paper_id(title_key(row[0])), score, lambda: paper_from_row(row))


def unread_hit(row: Sequence[Any], score: float) -> SearchHit:
    """A search hit from a row that holds the English title alone (its id, as `hit_from_row`
    gives it): its paper was not read."""
    return SearchHit(paper_id(title_key(row[0])), score, unread)


def read_columns(shown: str) -> str:
    """`PAPER_COLUMNS` with every column but the English title NULL unless `shown` (an SQL
    condition) holds: the rows of a page beyond the papers asked for carry their title (for
    the id) and score only, their long texts never read."""
    first, *rest = PAPER_COLUMNS.split(", ")
    return ", ".join([first, *(f"CASE WHEN {shown} THEN {column} END" for column in rest)])
