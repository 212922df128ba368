"""Values remembered for a while, each loaded once however many ask at the same time."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
KEPT = 4096
"""Values remembered at most (the oldest go first)."""


class Expiring(Generic[K, V]):
    """Values remembered for a while; concurrent loads of one key share one load."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic, kept: int = KEPT) -> None:
        self.monotonic = monotonic
        self.kept = kept
        self._values: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._loading: dict[K, asyncio.Task[tuple[V, float]]] = {}

    def get(self, key: K) -> tuple[V] | None:
        """`(value,)` while remembered, else None."""
        known = self._values.get(key)
        return (known[1],) if known is not None and known[0] > self.monotonic() else None

    async def load(self, key: K, make: Callable[[], Awaitable[tuple[V, float]]]) -> V:
        """The remembered value, else `make()`'s (value, seconds to remember it)."""
        if (known := self.get(key)) is not None:
            return known[0]
        task = self._loading.get(key)
        if task is None:
            task = self._loading[key] = asyncio.ensure_future(make())
            task.add_done_callback(lambda _: self._loading.pop(key, None))
        value, seconds = await asyncio.shield(task)
        self._values[key] = (self.monotonic() + seconds, value)
        self._values.move_to_end(key)
        while len(self._values) > self.kept:
            self._values.popitem(last=False)
        return value
