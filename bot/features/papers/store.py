"""The catalog store a search, a lookup and a load need. The protocol is what the feature's
services depend on; `storage/` implements it once, for both backends. `PreparedPaper` comes from
`storage.papers.prepared` (pure row preparation, run in a worker process): the one storage
module services may import, besides the factory that wiring uses."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from typing import Protocol

from domain.catalog import (
    ADD_SOURCE,
    AddOutcome,
    CatalogStats,
    LoadCounts,
    LoadSource,
    SearchHit,
)
from domain.paper import Paper
from domain.query import SearchQuery
from storage.papers.prepared import PreparedPaper


class PaperStore(Protocol):
    """Catalog persistence and search."""

    async def load(
        self,
        papers: Iterable[tuple[int, Paper]],
        *,
        source: LoadSource,
        prune: bool = False,
        announce: bool = False,
    ) -> LoadCounts:
        """Upsert papers (line, paper) in one transaction; `prune` removes the source's others;
        `announce` records the added ones as unannounced."""
        ...

    async def load_prepared(
        self,
        batches: AsyncIterable[Sequence[PreparedPaper]],
        *,
        source: LoadSource,
        prune: bool = False,
        announce: bool = False,
    ) -> LoadCounts:
        """`load` of papers already prepared (`prepare_papers`, e.g. in another process): the
        store only classifies and writes. `source` is read once the batches are exhausted.
        `announce` records the added papers as unannounced in the load's commit."""
        ...

    async def add_papers(self, papers: Sequence[Paper], *,
                         source: str = ADD_SOURCE, announce: bool = False
                         ) -> list[AddOutcome]:
        """Add a few papers in one transaction, one outcome each, in order: a known arXiv id
        updates in place when the version is newer (else unchanged); a record with the same
        normalised title gains the id, links and abstract it lacks (never a duplicate);
        anything else is added. `CatalogLoadRunning` while a load is being built. `announce`
        records the added ones as unannounced in the same transaction."""
        ...

    async def get(self, public_id: str) -> Paper | None:
        """One paper by its public id."""
        ...

    async def get_many(self, public_ids: Sequence[str]) -> list[Paper]:
        """The papers of these public ids still in the catalog, in the ids' order (one read
        or a few, however many ids)."""
        ...

    async def by_link(self, *, arxiv_id: str = "", doi: str = "") -> Paper | None:
        """The paper with this arXiv id (without version) or this DOI (any case), if any."""
        ...

    async def search(
        self, query: SearchQuery, *, any_word: bool = False, limit: int = 10, offset: int = 0,
        papers: int | None = None,
    ) -> list[SearchHit]:
        """Ranked papers matching every word (or any word), and all filters. `papers`: only
        the first that many hits need their paper (the store may leave the others' `unread`,
        `domain.catalog.unread`); None: every hit's."""
        ...

    async def random(self) -> Paper | None:
        """A random paper, or None for an empty catalog."""
        ...

    async def workshop_names(self, prefix: str = "", limit: int = 10) -> list[str]:
        """Workshop names containing `prefix`, most papers first."""
        ...

    async def venue_names(self, text: str = "", limit: int = 25) -> list[str]:
        """Conference and workshop names containing `text`, most papers first."""
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

    async def warm_up(self) -> None:
        """Get the search ready on every connection (compiled statements), after a start or a
        load, so the first lookups do not pay for it."""
        ...

    async def catalog_version(self) -> int:
        """A number that changes whenever the catalog changes (for caches)."""
        ...

    def iter_papers(self) -> AsyncIterator[Paper]:
        """Every paper, in a stable order."""
        ...
