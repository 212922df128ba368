"""The catalog search, timed for the metrics (`paperclub_search_seconds`)."""

from __future__ import annotations

import time

from prometheus_client import Histogram

from bot.features.papers.search import FirstAnswer, SearchOutcome, SearchService
from domain.query import SearchQuery


class TimedSearchService(SearchService):
    """`SearchService` observing each search's duration in `histogram` (when set)."""

    histogram: Histogram | None = None

    async def search(
        self, query: SearchQuery, *, limit: int = 10, offset: int = 0,
        guild_id: int | None = None, papers: int | None = None, by_meaning: bool = False,
    ) -> SearchOutcome:
        """Search, timed."""
        started = time.perf_counter()
        try:
            return await super().search(query, limit=limit, offset=offset, guild_id=guild_id,
                                        papers=papers, by_meaning=by_meaning)
        finally:
            if self.histogram is not None:
                self.histogram.observe(time.perf_counter() - started)

    async def search_first(self, query: SearchQuery, *, limit: int = 10,
                           guild_id: int | None = None, papers: int | None = None
                           ) -> FirstAnswer:
        """The first answer's search, timed (the step by meaning, run after it, is not)."""
        started = time.perf_counter()
        try:
            return await super().search_first(query, limit=limit, guild_id=guild_id,
                                              papers=papers)
        finally:
            if self.histogram is not None:
                self.histogram.observe(time.perf_counter() - started)
