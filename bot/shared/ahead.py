"""Reads started ahead of the moment they are needed, so that they overlap with other reads
(each read waits for a database thread: two in parallel take about as long as one)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def ahead(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """Start `work` now; await the task where its result is needed, or `drop` it."""
    return asyncio.ensure_future(work)


def drop(task: asyncio.Task[Any] | None) -> None:
    """Cancel a read started ahead whose result is not needed; its outcome, a failure
    included, is discarded (never reported as unretrieved)."""
    if task is None:
        return
    task.cancel()
    task.add_done_callback(_discard)


def _discard(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()
