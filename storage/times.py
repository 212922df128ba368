"""Instants stored as sortable UTC ISO 8601 text, the same on both backends: those the
services' clock gives, and the stores' own `utc_timestamp`."""

from __future__ import annotations

from datetime import UTC, datetime


def stored(instant: datetime) -> str:
    """UTC, to the microsecond, so that text order is time order."""
    return instant.astimezone(UTC).isoformat(timespec="microseconds")


def loaded(text: str) -> datetime:
    """The instant a `stored` column holds."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def utc_timestamp() -> str:
    """Now in UTC, ISO 8601 to the second: the form every stored timestamp takes."""
    return datetime.now(UTC).isoformat(timespec="seconds")
