"""Reminder offsets as stored, and volunteer row decoding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.sessions import DEFAULT_REMINDERS, Volunteer


def reminders_from_text(stored: str | None) -> tuple[int, ...]:
    """Reminder offsets as stored (comma-separated minutes; defaults when unset)."""
    if not stored:
        return DEFAULT_REMINDERS
    return tuple(int(part) for part in stored.split(","))


def reminders_text(offsets: Sequence[int]) -> str:
    """Reminder offsets in their stored form."""
    return ",".join(str(m) for m in offsets)


def volunteer_from_row(row: Sequence[Any]) -> Volunteer:
    return Volunteer(user_id=row[0], joined=row[1], last_turn=row[2], presented=row[3])
