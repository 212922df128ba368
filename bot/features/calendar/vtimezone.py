"""The group's zone as a VTIMEZONE that clients reading it (not the zone's name) place right.

Built by `icalendar`'s own `Timezone.from_tzinfo`, which finds the zone's observances and their
onsets, then corrected where it departs from RFC 5545 (icalendar 7.3): an onset's DTSTART and
RDATEs are local times in the offset in force *before* the change (TZOFFSETFROM), so Berlin's
spring change is at 02:00, not at the first wall time after it (03:00); COMMENT is not
allowed directly inside VTIMEZONE; and each RDATE gets its own line. Each onset is placed at
the UTC instant the zone itself changes offset, found by bisection near the library's wall
time."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Timezone

_WINDOW = timedelta(hours=3)
"""How far from the library's wall time (once made UTC either way) the change is looked for."""


def _offset_at(zone: ZoneInfo, instant: datetime) -> timedelta:
    """The zone's UTC offset at the naive UTC `instant`."""
    offset = instant.replace(tzinfo=UTC).astimezone(zone).utcoffset()
    assert offset is not None
    return offset


def onset(zone: ZoneInfo, wall: datetime, before: timedelta, after: timedelta) -> datetime:
    """The change from `before` to `after` near the wall time `wall`, as the local time in
    `before` (what RFC 5545 writes in DTSTART and RDATE); `wall` when none is found."""
    low = wall - max(before, after) - _WINDOW
    high = wall - min(before, after) + _WINDOW
    if _offset_at(zone, low) != before or _offset_at(zone, high) != after:
        return wall
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        if _offset_at(zone, middle) == before:
            low = middle
        else:
            high = middle
    return (high + before).replace(microsecond=0)


def zone_component(zone: ZoneInfo, first: date, last: date) -> Timezone:
    """`zone`'s VTIMEZONE for the dates `first` to `last`, onsets in RFC 5545's local time."""
    component = Timezone.from_tzinfo(zone, zone.key, first_date=first, last_date=last)
    component.pop("COMMENT", None)
    for observance in component.subcomponents:
        before = observance.decoded("TZOFFSETFROM")
        after = observance.decoded("TZOFFSETTO")
        if before == after:
            continue
        observance.DTSTART = onset(zone, observance.decoded("DTSTART"), before, after)
        rdates = observance.get("RDATE")
        if rdates is not None:
            lists = rdates if isinstance(rdates, list) else [rdates]
            walls = [when.dt for each in lists for when in each.dts]
            observance.pop("RDATE")
            for wall in walls:  # one value a line: ical.js reads only an RDATE's first value
                observance.add("RDATE", onset(zone, wall, before, after))
    return component



def ambiguous(moment: datetime) -> bool:
    """Whether `moment`'s wall time occurs twice in its zone (autumn's repeated hour), where
    readers disagree on which one a local time means (RFC 5545 says the first)."""
    first, second = moment.replace(fold=0), moment.replace(fold=1)
    return first.utcoffset() != second.utcoffset()
