"""The feature keeper's background catch-up: a failure nobody waits for is logged once and
never left as an unretrieved task (whose traceback, printed during a garbage collection, can
land inside an unrelated `ast.parse` on Python 3.11 and fail it)."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.features.recommend.keeper import FeatureKeeper, MemoryFeatures
from domain.paper import Paper
from domain.storage_faults import StorageError


class _UnreachableCatalog:
    """A catalog whose version answers and whose papers cannot be read."""

    async def get(self, public_id: str) -> Paper | None:
        raise StorageError("the database went away")

    async def catalog_version(self) -> int:
        return 1

    async def paper_ids(self) -> list[str]:
        raise StorageError("the database went away")

    def iter_papers(self) -> AsyncIterator[Paper]:
        raise StorageError("the database went away")


async def test_a_failed_catch_up_nobody_waits_for_is_logged_not_left_unretrieved(
        caplog: pytest.LogCaptureFixture) -> None:
    catalog = _UnreachableCatalog()
    keeper = FeatureKeeper(catalog, MemoryFeatures(catalog), lambda: datetime.now(UTC))
    unretrieved: list[object] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: unretrieved.append(context["message"]))
    try:
        with caplog.at_level(logging.WARNING, "bot.features.recommend.keeper"):
            await keeper.prepare()
            for _ in range(5):
                await asyncio.sleep(0)
            del keeper
            gc.collect()
    finally:
        loop.set_exception_handler(None)
    assert unretrieved == []
    assert [r.getMessage() for r in caplog.records] == [
        "recommendation features not caught up: the database went away"]
