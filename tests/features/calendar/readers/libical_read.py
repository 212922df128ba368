"""Reads an iCalendar file on stdin with libical (through its GObject binding, run by the
system's Python) and prints, as JSON, whether it passes libical's restriction check, the errors
libical notes (X-LIC-ERROR), and each event's start as Unix seconds placed by the file's own
VTIMEZONEs (never by libical's built-in zones)."""

from __future__ import annotations

import json
import sys
from typing import Any

import gi

gi.require_version("ICalGLib", "3.0")
from gi.repository import ICalGLib  # noqa: E402


def _errors(component: Any) -> list[str]:
    found = []
    kind = ICalGLib.PropertyKind.XLICERROR_PROPERTY
    prop = component.get_first_property(kind)
    while prop is not None:
        found.append(prop.get_xlicerror())
        prop = component.get_next_property(kind)
    for child in _children(component, ICalGLib.ComponentKind.ANY_COMPONENT):
        found += _errors(child)
    return found


def _children(component: Any, kind: Any) -> list[Any]:
    children = []
    child = component.get_first_component(kind)
    while child is not None:
        children.append(child)
        child = component.get_next_component(kind)
    return children


def main() -> None:
    calendar = ICalGLib.Component.new_from_string(sys.stdin.read())
    valid = bool(ICalGLib.restriction_check(calendar))
    zones = {}
    for vtimezone in _children(calendar, ICalGLib.ComponentKind.VTIMEZONE_COMPONENT):
        zone = ICalGLib.Timezone.new()
        zone.set_component(vtimezone.clone())
        zones[zone.get_tzid()] = zone
    starts = {}
    for event in _children(calendar, ICalGLib.ComponentKind.VEVENT_COMPONENT):
        tzid = event.get_first_property(ICalGLib.PropertyKind.DTSTART_PROPERTY) \
            .get_parameter_as_string("TZID")
        start = event.get_dtstart()
        starts[event.get_uid()] = (start.as_timet_with_zone(zones[tzid]) if tzid
                                   else start.as_timet())
    print(json.dumps({"valid": valid, "errors": _errors(calendar), "starts": starts}))


if __name__ == "__main__":
    main()
