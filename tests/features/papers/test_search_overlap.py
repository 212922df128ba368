"""A server's corrected papers are read while the index is searched (both reads wait for a
database thread: overlapped, they take about as long as one)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from domain.paper import Paper
from storage.papers.sqlite import SqlitePaperStore

GROKKING = "To Grok Grokking: Provable Grokking in Ridge Regression"


class _GatedView:
    """A server view whose corrected papers are read only once the index search has begun."""

    def __init__(self, begun: asyncio.Event) -> None:
        self.begun = begun

    async def view(self, guild_id: int | None, paper_ids: Sequence[str]) -> Any:
        return lambda paper: paper

    async def corrected(self, guild_id: int) -> list[Paper]:
        await asyncio.wait_for(self.begun.wait(), timeout=10)
        return []


class _GatedStore(SqlitePaperStore):
    """The index search starts, then waits until the corrected papers are being read."""

    def __init__(self, store: SqlitePaperStore, begun: asyncio.Event,
                 reading: asyncio.Event) -> None:
        super().__init__(store._db)
        self.begun, self.reading = begun, reading

    async def search(self, *args: Any, **kwargs: Any) -> Any:
        self.begun.set()
        await asyncio.wait_for(self.reading.wait(), timeout=10)
        return await super().search(*args, **kwargs)


async def test_corrected_papers_are_read_while_the_index_is_searched(
        store: SqlitePaperStore) -> None:
    begun, reading = asyncio.Event(), asyncio.Event()
    view = _GatedView(begun)
    corrected = view.corrected

    async def read(guild_id: int) -> list[Paper]:
        reading.set()
        return await corrected(guild_id)

    view.corrected = read  # type: ignore[method-assign]
    search = SearchService(_GatedStore(store, begun, reading), view=view)
    outcome = await asyncio.wait_for(search.search(parse_query("grokking"), guild_id=1),
                                     timeout=15)
    assert outcome.hits and outcome.hits[0].paper.title_en == GROKKING


async def test_a_failed_search_cancels_the_read_of_corrected_papers(
        store: SqlitePaperStore) -> None:
    reads: list[asyncio.Task[Any] | None] = []

    class Failing(SqlitePaperStore):
        async def search(self, *args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0)  # the corrected papers' read has started
            raise RuntimeError("the index is gone")

    class Watched(_GatedView):
        async def corrected(self, guild_id: int) -> list[Paper]:
            reads.append(asyncio.current_task())
            await asyncio.sleep(10)
            return []

    search = SearchService(Failing(store._db), view=Watched(asyncio.Event()))
    with pytest.raises(RuntimeError, match="the index is gone"):
        await search.search(parse_query("grokking"), guild_id=1)
    (task,) = reads
    assert task is not None
    await asyncio.sleep(0)
    assert task.cancelled()
