"""Catalog records passed between storage and the services: hits, loads and statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from domain.paper import Paper


class SearchHit:
    """A paper found by a search; lower score is better (bm25), 0 when unranked.

    The paper is built from what the search read when first asked for (`paper`): a result
    list shows one page of its hits and needs only the public ids of the others (a search
    asked for fewer papers than hits reads only those: the others' `paper` is `unread`)."""

    __slots__ = ("_build", "_paper", "id", "score")

    def __init__(self, public_id: str, score: float, build: Callable[[], Paper]) -> None:
        self.id = public_id
        self.score = score
        self._build: Callable[[], Paper] | None = build
        self._paper: Paper | None = None

    @property
    def paper(self) -> Paper:
        """The paper, built on first use."""
        if self._paper is None:
            assert self._build is not None
            self._paper, self._build = self._build(), None
        return self._paper

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SearchHit):
            return NotImplemented
        return (self.id, self.score, self.paper) == (other.id, other.score, other.paper)

    def __hash__(self) -> int:
        return hash((self.id, self.score))

    def __repr__(self) -> str:
        return f"SearchHit({self.id!r}, {self.score!r})"


def unread() -> Paper:
    """The paper of a hit whose row the search did not read (beyond its `papers`)."""
    raise LookupError("this hit's paper was not read: the search was asked for fewer papers")


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
