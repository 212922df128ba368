"""Background work started by the Discord side (such as paced DMs), cancelled on close."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundTasks:
    """Runs coroutines as tracked tasks; failures are logged, never lost."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Run `work` in the background."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def __len__(self) -> int:
        """How many tasks are in flight."""
        return len(self._tasks)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def wait(self) -> None:
        """Until every task (including ones spawned meanwhile) has finished."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def cancel(self) -> None:
        """Cancel what is left and wait for it to end."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-",
                     "discord-ui-modal-dispatch-", "discord-ui-dynamic-item-")
"""How discord.py names the task it runs each command, click and form in."""
CANCEL_WAIT_SECONDS = 5.0
"""How long cancelled interactions get to unwind (a transaction rolls back)."""


def running_interactions() -> set[asyncio.Task[Any]]:
    """The commands, clicks and forms being handled now (not the caller's own task)."""
    current = asyncio.current_task()
    return {task for task in asyncio.all_tasks() if task is not current and not task.done()
            and task.get_name().startswith(INTERACTION_TASKS)}


async def finish_interactions(bound: float) -> int:
    """A clean stop: wait up to `bound` seconds for the running commands, clicks and forms
    (and any that start meanwhile) to finish their writes, then cancel the rest (what they
    leave is resumed by the next start); returns how many were cancelled. Only then may the
    database close: no command ever meets a closed connection."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    while (running := running_interactions()) and (left := deadline - loop.time()) > 0:
        await asyncio.wait(running, timeout=left)
    for task in running:
        task.cancel()
    if running:
        log.warning("closing: %d commands still running were cancelled", len(running))
        await asyncio.wait(running, timeout=CANCEL_WAIT_SECONDS)
    return len(running)
