"""Background tasks whose failure is logged, never left unretrieved (an unretrieved task's
error would surface as a traceback at garbage collection)."""

from __future__ import annotations

import asyncio
import logging
from typing import TypeVar

T = TypeVar("T")


def reported(task: asyncio.Task[T], logger: logging.Logger, what: str) -> asyncio.Task[T]:
    """`task`, a failure of which is logged by `logger` as a warning, `what: error` (a caller
    awaiting it gets the error too); returned for chaining."""

    def report(done: asyncio.Task[T]) -> None:
        if not done.cancelled() and (error := done.exception()) is not None:
            logger.warning("%s: %s", what, error)

    task.add_done_callback(report)
    return task
