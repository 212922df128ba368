"""Timing slash commands from their arrival to their first response (the answer or the
deferral Discord must have within 3 seconds), by command and outcome.

The tree marks each command's arrival and end (`PaperclubTree`); the first response is seen
where it leaves, as the REST call to the interaction's callback (`BoundedHTTPClient`)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.ops.metrics import BotMetrics

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


@dataclass
class _Timing:
    started: float
    answered: float | None = None


class InteractionTimer:
    """Arrival → first response, per interaction id, recorded when the command ends."""

    def __init__(self, metrics: BotMetrics, now: Callable[[], float] = time.perf_counter
                 ) -> None:
        self.metrics = metrics
        self.now = now
        self._open: dict[int, _Timing] = {}

    def received(self, interaction_id: int) -> None:
        """A command arrived."""
        self._open[interaction_id] = _Timing(self.now())

    def request(self, method: str, url: str) -> None:
        """A REST call was answered: the first callback of an open command is its response."""
        if method != "POST" or (match := _CALLBACK.search(url)) is None:
            return
        timing = self._open.get(int(match.group(1)))
        if timing is not None and timing.answered is None:
            timing.answered = self.now()

    def finished(self, interaction_id: int, command: str, outcome: str) -> None:
        """The command ended with `outcome` (`ok`, `refused`, `busy`, `storage_error`,
        `error`)."""
        timing = self._open.pop(interaction_id, None)
        if timing is None:
            return
        seconds = None if timing.answered is None else timing.answered - timing.started
        if outcome in ("busy", "storage_error"):
            self.metrics.database_errors.labels(kind=outcome).inc()
        self.metrics.interaction(command, outcome if seconds is not None else "unanswered",
                                 seconds)
