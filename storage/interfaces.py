"""What the bot needs from storage: narrow enough for a PostgreSQL implementation later."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from bot.core.models import Paper
from bot.core.query import SearchQuery


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


class PaperStore(Protocol):
    """Catalog persistence and search."""

    async def load(
        self,
        papers: Iterable[tuple[int, Paper]],
        *,
        source: LoadSource,
        prune: bool = False,
    ) -> LoadCounts:
        """Upsert papers (line, paper) in one transaction; `prune` removes the source's others."""
        ...

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        ...

    async def search(
        self, query: SearchQuery, *, any_word: bool = False, limit: int = 10, offset: int = 0
    ) -> list[SearchHit]:
        """Ranked papers matching every word (or any word), and all filters."""
        ...

    async def random(self) -> Paper | None:
        """A random paper, or None for an empty catalog."""
        ...

    async def workshop_names(self, prefix: str = "", limit: int = 10) -> list[str]:
        """Workshop names containing `prefix`, most papers first."""
        ...

    async def paper_ids(self, track: str | None = None) -> list[str]:
        """Public ids of every paper, or of those on one track (main / workshop)."""
        ...

    async def count(self) -> int:
        """Number of papers."""
        ...

    async def stats(self) -> CatalogStats:
        """Totals per venue and the last load."""
        ...

    async def vocabulary(self) -> list[tuple[str, int]]:
        """Indexed words with the number of papers that contain each."""
        ...

    async def catalog_version(self) -> int:
        """A number that changes whenever the catalog changes (for caches)."""
        ...

    def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper, in a stable order."""
        ...


class StateStore(Protocol):
    """Named values kept between runs."""

    async def get(self, key: str) -> str | None:
        """The stored value, or None."""
        ...

    async def set(self, key: str, value: str) -> None:
        """Store or replace a value."""
        ...
