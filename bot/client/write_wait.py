"""Deferring an interaction before its command waits for the database's write lock.

The tree arms the deferral for each command's task (`arm`); the database, given this object at
wiring as its `before_wait` hook, calls it just before it starts waiting. Each task's deferral
runs at most once; a task that armed nothing (a scheduler tick, the command line) waits as is.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar

log = logging.getLogger(__name__)

Deferral = Callable[[], Awaitable[None]]


class WriteWaitDeferral:
    """The `before_wait` hook of the database: runs the current task's armed deferral once."""

    def __init__(self) -> None:
        self._armed: ContextVar[Deferral | None] = ContextVar("write_wait_deferral", default=None)

    def arm(self, deferral: Deferral) -> None:
        """Run `deferral` if the current task (a command's own task) has to wait."""
        self._armed.set(deferral)

    async def __call__(self) -> None:
        deferral = self._armed.get()
        if deferral is None:
            return
        self._armed.set(None)
        try:
            await deferral()
        except Exception:
            log.warning("deferring before a write wait failed", exc_info=True)
