"""The button ballot's live tally: after clicks, the ballot is edited to show the counts, at
most once every `interval` seconds per ballot. A burst of clicks makes one pending edit, which
reads the counts when it runs, so the last edit always shows the true counts."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

log = logging.getLogger(__name__)

TALLY_INTERVAL = 3.0
"""Seconds between two edits of one ballot (Discord allows 5 edits per 5 s per channel)."""


class Spawner(Protocol):
    """Runs a coroutine as a tracked background task (`BackgroundTasks`)."""

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Run `work` in the background."""
        ...


class LiveTally:
    """One pending edit per ballot; edits of one ballot `interval` seconds apart."""

    def __init__(self, refresh: Callable[[int], Awaitable[None]], spawner: Spawner, *,
                 interval: float = TALLY_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`refresh(vote_id)` reads the counts and edits the ballot."""
        self._refresh = refresh
        self._spawner = spawner
        self._interval = interval
        self._clock = clock
        self._pending: set[int] = set()
        self._last: dict[int, float] = {}

    @property
    def pending(self) -> frozenset[int]:
        """Ballots with an edit waiting."""
        return frozenset(self._pending)

    def changed(self, vote_id: int) -> None:
        """A ballot was cast: edit the ballot soon (nothing more if an edit is pending)."""
        if vote_id in self._pending:
            return
        self._pending.add(vote_id)
        self._spawner.spawn(self._edit(vote_id), f"tally of vote {vote_id}")

    async def _edit(self, vote_id: int) -> None:
        try:
            wait = self._last.get(vote_id, float("-inf")) + self._interval - self._clock()
            if wait > 0:
                await asyncio.sleep(wait)
        finally:
            self._pending.discard(vote_id)  # a click from now on schedules the next edit
        self._last[vote_id] = self._clock()
        try:
            await self._refresh(vote_id)
        except Exception:
            log.warning("could not show vote %s's tally", vote_id, exc_info=True)

    def forget(self, vote_id: int) -> None:
        """The vote is over: its final state is shown by the close."""
        self._last.pop(vote_id, None)
