"""The lists whose controls still answer, kept by the bot and found by the key in a click.

A live list is answered through dynamic items whose custom ids carry its key (the id of the
interaction it answered), so no discord.py view stays behind per message: what a live list
keeps is the handful of objects of its own state. That matters beyond memory: the garbage
collector walks again whatever survives a lookup, and every `/paper` answer leaves a list.

Each list expires after `timeout` seconds without a click and is greyed out then, in the
background: one timer serves the whole registry, not a task per message. At most `cap` lists
are live: beyond that the least recently used is forgotten without an edit (only a burst of
lookups gets there, and an edit per lookup would double what the burst costs); a click on it
later greys it out and says so, as after a restart.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Protocol

VIEW_TIMEOUT = 300.0
"""Seconds a list or a view answers after its last use."""
MAX_LIVE_LISTS = 500
"""Lists whose controls answer at the same time (each is a few objects and its result ids)."""

Spawn = Callable[[Coroutine[Any, Any, Any], str], None]


class LiveList(Protocol):
    """What the registry needs of a list: greying its controls out."""

    async def disable(self) -> None:
        """Grey out the list's controls in its message (it answers no more clicks)."""
        ...


class LiveLists:
    """The live lists by key, least recently used first."""

    def __init__(self, spawn: Spawn, *, cap: int = MAX_LIVE_LISTS,
                 timeout: float = VIEW_TIMEOUT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cap = cap
        self.timeout = timeout
        self._spawn = spawn
        self._clock = clock
        self._lists: OrderedDict[int, LiveList] = OrderedDict()
        self._deadlines: dict[int, float] = {}
        self._timer: asyncio.TimerHandle | None = None

    def __len__(self) -> int:
        return len(self._lists)

    def __iter__(self) -> Iterator[LiveList]:
        """The live lists, least recently used first."""
        return iter(list(self._lists.values()))

    def get(self, key: int) -> LiveList | None:
        """The live list `key`, its timeout started afresh (None: not live)."""
        live = self._lists.get(key)
        if live is not None:
            self._lists.move_to_end(key)
            self._deadlines[key] = self._clock() + self.timeout
        return live

    def peek(self, key: int) -> LiveList | None:
        """The live list `key`, its timeout left as it is (None: not live)."""
        return self._lists.get(key)

    def add(self, key: int, live: LiveList) -> None:
        """Make `live` answer clicks under `key` (call it before its message is sent); the
        least recently used lists beyond the cap are forgotten."""
        self._lists[key] = live
        self._deadlines[key] = self._clock() + self.timeout
        while len(self._lists) > self.cap:
            self._pop_oldest()
        self._arm()

    def close(self) -> None:
        """Stop the expiry timer (the bot is closing; the lists stay as they are)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _pop_oldest(self) -> LiveList:
        key, oldest = self._lists.popitem(last=False)
        del self._deadlines[key]
        return oldest

    def _arm(self) -> None:
        """Wake when the least recently used list is due (if no wake-up is set yet)."""
        if self._timer is None and self._lists:
            due = self._deadlines[next(iter(self._lists))] - self._clock()
            self._timer = asyncio.get_running_loop().call_later(max(0.0, due), self.expire)

    def expire(self) -> None:
        """Grey out every list unused for `timeout` (the timer calls it when the least
        recently used is due); wake again for the next."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        now = self._clock()
        while self._lists and self._deadlines[next(iter(self._lists))] <= now:
            self._spawn(self._pop_oldest().disable(), "grey out an expired result list")
        self._arm()
