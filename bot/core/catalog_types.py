"""Catalog records passed between storage and the services: hits, loads and statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

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
    arxiv_conflicts: list[int] = field(default_factory=list)
    """Lines whose arXiv id another paper (or an earlier line) already holds."""


ADD_SOURCE = "arxiv"
"""The source recorded for papers added one by one (what a listing `--prune` leaves alone)."""


class AddStatus(StrEnum):
    """What adding one paper did to the catalog."""

    ADDED = "added"
    """A new paper."""
    UPDATED = "updated"
    """Its arXiv id was known at an older version: the record was updated in place."""
    FILLED = "filled"
    """A record with the same title had no id (or lacked other facts): they were filled in."""
    UNCHANGED = "unchanged"
    """Already known, at the same or a newer version."""
    CONFLICT = "conflict"
    """Another arXiv paper holds this title (the catalog keeps one paper per title)."""


@dataclass(frozen=True, slots=True)
class AddOutcome:
    """One paper given to `PaperStore.add_papers`: what happened, and the paper as stored
    (for CONFLICT, the paper holding the title)."""

    status: AddStatus
    paper: Paper


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
