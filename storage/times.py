"""Instants given by the services' clock, stored as sortable UTC ISO 8601 text."""

from __future__ import annotations

from datetime import UTC, datetime


def stored(instant: datetime) -> str:
    """UTC, to the microsecond, so that text order is time order."""
    return instant.astimezone(UTC).isoformat(timespec="microseconds")


def loaded(text: str) -> datetime:
    """The instant a `stored` column holds."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)
