"""The calendar feed as clients that read its VTIMEZONE (not the zone's name) see it: vobject,
ical.js (Node) and libical place every session of a year, across the DST changes of three
zones, at its instant; libical's restriction check passes; the calendar's name reads whole.

The feed's TZID is renamed to a name no zone database knows, so a reader can only place times
by the VTIMEZONE itself. ical.js needs Node and `npm ci` in readers/icaljs; libical needs the
system's Python with gir1.2-ical-3.0 (`.ci/run` installs both): each skips, saying so, without."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import vobject

from bot.features.calendar.feed import FeedEntry, FeedSource, calendar_bytes, event_uid
from bot.shared.lang import Lang
from domain.paper import Paper
from domain.sessions import Place, Session

READERS = Path(__file__).parent / "readers"
ICALJS = READERS / "icaljs"
SYSTEM_PYTHON = "/usr/bin/python3"
UNKNOWN_ZONE = "paperclub-test-zone-{}"
"""A zone name no database knows, one per zone (vobject remembers a TZID's first VTIMEZONE)."""
ZONES = ("Europe/Berlin", "America/New_York", "Australia/Sydney")
SERVER = "Lab A, Room 2; Tuesdays"
GUILD = 7001
PAPER = Paper(title_en="Attention Is All You Need", title_zh="", authors=("A. Vaswani",))
BUILT = datetime(2027, 1, 1, tzinfo=UTC)


def _starts(zone: ZoneInfo) -> list[datetime]:
    """Every Tuesday 19:00 of 2027, 2028-07-01 19:00, and the half hours after each change of
    offset in 2027 (the first local hour after spring's gap, both sides of autumn's repeat)."""
    weekly = [datetime(2027, 1, 5, 19, tzinfo=zone) + timedelta(weeks=n) for n in range(52)]
    near: list[datetime] = []
    instant = datetime(2027, 1, 1, tzinfo=UTC)
    while instant.year == 2027:
        later = instant + timedelta(hours=1)
        if instant.astimezone(zone).utcoffset() != later.astimezone(zone).utcoffset():
            near += [later - timedelta(minutes=30), later + timedelta(minutes=30)]
        instant = later
    assert len(near) == 4, "two changes a year in each zone tested"
    return [*weekly, *near, datetime(2028, 7, 1, 19, tzinfo=zone)]


def _feed(zone_name: str, server: str = SERVER) -> tuple[str, dict[str, int]]:
    """The feed (its TZID unknown to any zone database) and each session's Unix second."""
    zone = ZoneInfo(zone_name)
    sessions = [Session(n, GUILD, PAPER.id, start, None, Place(link="https://meet.example/x"),
                        channel_id=500, updated_at=BUILT)
                for n, start in enumerate(_starts(zone), start=1)]
    source = FeedSource(guild_id=GUILD, server_name=server, zone=zone, lang=Lang.EN,
                        reminders=(60,), entries=[FeedEntry(s, PAPER) for s in sessions],
                        built_at=BUILT)
    unknown = UNKNOWN_ZONE.format(ZONES.index(zone_name))
    text = calendar_bytes(source).decode().replace(zone_name, unknown)
    assert f"TZID={unknown}:" in text
    return text, {event_uid(GUILD, s.id): int(s.starts_at.timestamp()) for s in sessions}


def _run(command: list[str], text: str, cwd: Path | None = None) -> dict[str, Any]:
    done = subprocess.run(command, input=text, capture_output=True, text=True, check=False,
                          cwd=cwd, timeout=60)
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def _icaljs(text: str) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: ical.js cannot read the feed")
    if not (ICALJS / "node_modules" / "ical.js").is_dir():
        pytest.skip(f"ical.js is not installed: run `npm ci --prefix {ICALJS}`")
    return _run([node, "read_feed.mjs"], text, cwd=ICALJS)


def _libical(text: str) -> dict[str, Any]:
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import gi; gi.require_version('ICalGLib', "
                            "'3.0'); from gi.repository import ICalGLib"],
                           capture_output=True, check=False) if Path(SYSTEM_PYTHON).exists() \
        else None
    if probe is None or probe.returncode != 0:
        pytest.skip("libical's Python binding is missing (apt-get install gir1.2-ical-3.0 "
                    "python3-gi)")
    return _run([SYSTEM_PYTHON, str(READERS / "libical_read.py")], text)


@pytest.mark.parametrize("zone", ZONES)
def test_vobject_places_every_session_by_the_vtimezone(zone: str) -> None:
    text, expected = _feed(zone)
    calendar = vobject.readOne(text)
    placed = {str(event.uid.value): int(event.dtstart.value.timestamp())
              for event in calendar.vevent_list}
    assert placed == expected


@pytest.mark.parametrize("zone", ZONES)
def test_icaljs_places_every_session_by_the_vtimezone(zone: str) -> None:
    text, expected = _feed(zone)
    assert _icaljs(text)["starts"] == expected


@pytest.mark.parametrize("zone", ZONES)
def test_libical_passes_its_restriction_check_and_places_every_session(zone: str) -> None:
    text, expected = _feed(zone)
    read = _libical(text)
    assert read["errors"] == [] and read["valid"]
    assert read["starts"] == expected


def test_the_calendar_name_reads_whole_in_every_reader() -> None:
    text, _ = _feed(ZONES[0])
    name = f"{SERVER} reading group"
    calendar = vobject.readOne(text)
    assert calendar.contents["x-wr-calname"][0].value == name
    assert calendar.contents["name"][0].value == name
    read = _icaljs(text)
    assert (read["name"], read["label"]) == (name, name)


@pytest.mark.parametrize(("zone", "onsets"), [
    ("Europe/Berlin", ("DTSTART:20260329T020000", "RDATE:20270328T020000",
                       "DTSTART:20261025T030000", "RDATE:20271031T030000")),
    ("America/New_York", ("DTSTART:20260308T020000", "RDATE:20270314T020000",
                          "DTSTART:20261101T020000", "RDATE:20271107T020000")),
    ("Australia/Sydney", ("DTSTART:20261004T020000", "RDATE:20271003T020000",
                          "DTSTART:20260405T030000", "RDATE:20270404T030000"))])
def test_each_change_is_stated_at_the_local_time_before_it(zone: str,
                                                            onsets: tuple[str, ...]) -> None:
    """RFC 5545: an onset is the wall time in TZOFFSETFROM (Berlin springs forward at 02:00
    CET, falls back at 03:00 CEST); no COMMENT directly inside VTIMEZONE."""
    text, _ = _feed(zone)
    vtimezone = text[text.index("BEGIN:VTIMEZONE"):text.index("END:VTIMEZONE")]
    lines = vtimezone.splitlines()
    assert all(onset in lines for onset in onsets), vtimezone
    nested = 0
    for line in lines:
        nested += line.startswith("BEGIN:") - line.startswith("END:")
        assert nested > 1 or not line.startswith("COMMENT"), "COMMENT inside VTIMEZONE"
