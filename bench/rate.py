"""What the Discord-rate benches (`bench digest`, `bench reminders`) share: a settable clock,
the stand-in's global limiter recording each decision, warnings counted instead of printed,
and the figures they report (the busiest rolling second, requests per second)."""

from __future__ import annotations

import contextlib
import logging
import math
from collections import Counter
from collections.abc import Iterator
from datetime import datetime

from discord_standin import GlobalRateLimiter


class Clock:
    """A settable clock for the scheduled services, so that every server is due at once."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class RecordingLimiter(GlobalRateLimiter):
    """The stand-in's global limiter (or, with `per_second=None`, none) that logs each decision."""

    def __init__(self, per_second: int | None) -> None:
        super().__init__(per_second or 1)
        self.enforce = per_second is not None
        self.admitted: list[float] = []
        self.refused: list[float] = []

    def check(self, now: float) -> float | None:
        """Decide as the parent does (or admit everything), remembering when."""
        wait = super().check(now) if self.enforce else None
        if wait is None:
            self.admitted.append(now)
        else:
            self.refused.append(now)
        return wait


class LogCounter(logging.Handler):
    """Counts warnings and errors by logger and message template; keeps a few error texts."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[tuple[str, str]] = Counter()
        self.errors = 0
        self.samples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Count the record; remember the first error messages."""
        self.counts[(record.name, str(record.msg))] += 1
        if record.levelno >= logging.ERROR:
            self.errors += 1
            if len(self.samples) < 5:
                self.samples.append(f"{record.name}: {record.getMessage()}")

    def clear(self) -> None:
        """Forget what was counted so far."""
        self.counts.clear()
        self.errors = 0
        self.samples.clear()

    def count(self, fragment: str) -> int:
        """Records whose template contains `fragment`."""
        return sum(n for (_, msg), n in self.counts.items() if fragment in msg)


@contextlib.contextmanager
def counting_logs() -> Iterator[LogCounter]:
    """Route warnings and errors to a counter instead of stderr while the block runs."""
    counter = LogCounter()
    root = logging.getLogger()
    root.addHandler(counter)
    try:
        yield counter
    finally:
        root.removeHandler(counter)


def fmt(value: float, digits: int = 2) -> str:
    """A figure with thousands separators and `digits` decimals ("n/a" for NaN)."""
    return "n/a" if math.isnan(value) else f"{value:,.{digits}f}"


def busiest_second(times: list[float]) -> int:
    """Most admissions in any rolling one-second window."""
    best, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


def per_second(times: list[float], seconds: float) -> list[int]:
    """How many of `times` fall in each whole second of a run `seconds` long."""
    counts = [0] * (int(seconds) + 1 if not math.isnan(seconds) else 1)
    for t in times:
        counts[min(max(int(t), 0), len(counts) - 1)] += 1
    return counts
