"""Catalog records passed between storage and the services: hits, loads and statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.core.models import Paper


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A paper found by a search; lower score is better (bm25), 0 when unranked."""

    paper: Paper
    score: float


@dataclass(slots=True)
class LoadSource:
    """Where a load comes from; filled in while its records are read, stored at commit."""

    name: str
    listing_query: str | None = None
    rejected: int = 0


@dataclass(slots=True)
class LoadCounts:
    """What one catalog load changed."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    duplicates: list[tuple[int, int]] = field(default_factory=list)
    id_collisions: list[int] = field(default_factory=list)
    added_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VenueCount:
    """Papers at one conference, year and track."""

    conference: str | None
    year: int | None
    track: str
    papers: int


@dataclass(frozen=True, slots=True)
class CatalogStats:
    """Catalog totals and the last load."""

    papers: int
    venues: tuple[VenueCount, ...]
    workshops: int
    last_load_at: datetime | None
    last_load_source: str | None
    last_load_rejected: int = 0
    last_load_rejected_lines: tuple[int, ...] = ()
    """Known when this process made the last load (the database keeps only the count)."""
