"""The port services use to ask arXiv (implemented by
`bot.features.adding.arxiv_client.ArxivClient`), so services never import aiohttp. Both calls
raise `bot.features.adding.arxiv_types.ArxivError` subclasses:
`ArxivBusy` / `ArxivUnavailable` ("try in a minute") and `ArxivRejected` (arXiv's reason)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.features.adding.arxiv_types import FetchResult, SearchResult, SortBy, SortOrder
from domain.arxiv_ids import ArxivRef


class ArxivSource(Protocol):
    """arXiv's export API, paced and retried by the implementation."""

    async def fetch(self, refs: Sequence[ArxivRef]) -> FetchResult:
        """These papers (a given version, or the latest), batched into `id_list` requests."""

    async def search(self, query: str, *, max_results: int,
                     sort_by: SortBy = SortBy.RELEVANCE,
                     sort_order: SortOrder = SortOrder.DESCENDING,
                     start: int = 0) -> SearchResult:
        """Up to `max_results` papers matching an arXiv `search_query`, page by page, from
        the `start`-th result on."""

    async def close(self) -> None:
        """Release the connection pool (the process is stopping)."""
