"""The clock services take: the current instant, injectable in tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current instant (the default clock)."""
    return datetime.now(UTC)
