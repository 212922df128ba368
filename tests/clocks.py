"""Clocks tests move by hand instead of waiting for time to pass."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta


class FakeClock:
    """A settable clock for the digest: tests move time instead of waiting for it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class Ticker:
    """A seconds clock that a test moves on (the stand-in's nonce memory ages by it)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class SleepTime:
    """Seconds that pass only when someone sleeps (the arXiv client's 3 s spacing, its
    back-off): no test waits for the wall clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)
