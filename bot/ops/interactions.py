"""Timing slash commands from their arrival to their first response (the answer or the
deferral Discord must have within 3 seconds), by command and outcome.

The tree marks each command's arrival and end (`PaperclubTree`) and gives the command's task
`TimedAdapter`, discord.py's webhook adapter (which makes every interaction response) noting
the first response as it is answered."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from discord.webhook.async_ import AsyncWebhookAdapter

from bot.ops.metrics import DATABASE_ERRORS, BotMetrics


class TimedAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter, telling `answered` each interaction response made."""

    def __init__(self, answered: Callable[[int], None]) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py leaves it untyped
        self.answered = answered

    async def create_interaction_response(
            self, interaction_id: int, token: str, **options: Any) -> Any:
        """Respond, then note it."""
        answer = await super().create_interaction_response(interaction_id, token, **options)
        self.answered(interaction_id)
        return answer


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
        self.adapter = TimedAdapter(self.answered)
        """The adapter the tree gives each command's task (one, so its locks are shared)."""

    def received(self, interaction_id: int) -> None:
        """A command arrived."""
        self._open[interaction_id] = _Timing(self.now())

    def answered(self, interaction_id: int) -> None:
        """An interaction response was made: the first one of an open command counts."""
        timing = self._open.get(interaction_id)
        if timing is not None and timing.answered is None:
            timing.answered = self.now()

    def finished(self, interaction_id: int, command: str, outcome: str) -> None:
        """The command ended with `outcome` (`ok`, `refused`, `busy`, `storage_error`,
        `error`); one never answered is `unanswered`."""
        timing = self._open.pop(interaction_id, None)
        if timing is None:
            return
        seconds = None if timing.answered is None else timing.answered - timing.started
        if outcome in DATABASE_ERRORS:
            self.metrics.database_errors.labels(kind=outcome).inc()
        self.metrics.interaction(command, outcome if seconds is not None else "unanswered",
                                 seconds)
