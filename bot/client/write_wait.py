"""Deferring an interaction before its command waits for the database's write lock.

The tree arms the deferral for each command's task (`arm`); the database, given this object at
wiring as its `before_wait` hook, calls it just before it starts waiting. Each task's deferral
runs at most once; a task that armed nothing (a scheduler tick, the command line) waits as is.
A deferral is forgotten when the task that armed it ends: the tasks it starts (a view's
timeout) copy its context, and would otherwise keep the interaction alive with them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar

log = logging.getLogger(__name__)

Deferral = Callable[[], Awaitable[None]]


class _Armed:
    """A task's deferral, shared by every copy of its context, until it runs or the task
    ends."""

    __slots__ = ("deferral",)

    def __init__(self, deferral: Deferral) -> None:
        self.deferral: Deferral | None = deferral

    def take(self) -> Deferral | None:
        """The deferral, disarmed (it runs at most once)."""
        deferral, self.deferral = self.deferral, None
        return deferral


class WriteWaitDeferral:
    """The `before_wait` hook of the database: runs the current task's armed deferral once."""

    def __init__(self) -> None:
        self._armed: ContextVar[_Armed | None] = ContextVar("write_wait_deferral", default=None)

    def arm(self, deferral: Deferral) -> None:
        """Run `deferral` if the current task (a command's own task) has to wait; forget it
        when the task ends."""
        armed = _Armed(deferral)
        self._armed.set(armed)
        task = asyncio.current_task()
        if task is not None:
            task.add_done_callback(lambda _: armed.take())

    async def __call__(self) -> None:
        armed = self._armed.get()
        deferral = armed.take() if armed is not None else None
        if deferral is None:
            return
        try:
            await deferral()
        except Exception:
            log.warning("deferring before a write wait failed", exc_info=True)
