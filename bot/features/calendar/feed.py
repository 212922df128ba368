"""A server's sessions as one iCalendar (RFC 5545) file, built with `icalendar`: pure, so the
same sessions give the same bytes (the HTTP feed's ETag depends on it).

Every session is a VEVENT, cancelled ones too (STATUS:CANCELLED, so subscribed clients drop
them). Its UID comes from the server and the session id only, so it is the same across
restarts, processes and backends; SEQUENCE follows the session's revision (a move raises it,
so does cancelling) and LAST-MODIFIED / DTSTAMP the time it last changed. Times are written in
the group's zone with its VTIMEZONE, so a session keeps its local time across a DST change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Alarm, Calendar, Event, Timezone
from icalendar.prop import vText

from bot.features.calendar.vtimezone import ambiguous, zone_component
from bot.features.papers.results import titles_in_order
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper
from domain.sessions import SESSION_MINUTES, Session, SessionStatus

PRODID = "-//paperclub//reading group calendar//EN"
UID_DOMAIN = "paperclub"
DISCORD = "https://discord.com"
_STATUS = {SessionStatus.SCHEDULED: "CONFIRMED", SessionStatus.DONE: "CONFIRMED",
           SessionStatus.CANCELLED: "CANCELLED"}
_ZONE_MARGIN = timedelta(days=366)


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One session with what its event shows: the paper (None if it left the catalog) and the
    presenter's display name (None when unknown: then no presenter line, never an id)."""

    session: Session
    paper: Paper | None
    presenter_name: str | None = None


@dataclass(frozen=True, slots=True)
class FeedSource:
    """Everything one server's calendar is built from."""

    guild_id: int
    server_name: str
    zone: ZoneInfo
    lang: Lang
    reminders: tuple[int, ...]
    """Minutes before each session that the group's reminders go out (the VALARMs)."""
    entries: Sequence[FeedEntry]
    built_at: datetime
    """The time used for sessions whose store keeps no change time (tests' fakes)."""


def event_uid(guild_id: int, session_id: int) -> str:
    """A session's UID: the server and the session id, nothing a restart or a backend changes."""
    return f"session-{session_id}.guild-{guild_id}@{UID_DOMAIN}"


def thread_link(session: Session) -> str:
    """The discussion thread, else the announcement, else the channel ('' when none)."""
    base = f"{DISCORD}/channels/{session.guild_id}"
    if session.thread_id is not None:
        return f"{base}/{session.thread_id}"
    if session.message_id is not None:
        return f"{base}/{session.channel_id}/{session.message_id}"
    return f"{base}/{session.channel_id}"


def place_link(session: Session) -> str:
    """Where the session happens: its link, its voice channel, else ''."""
    if session.place.link:
        return session.place.link
    if session.place.voice_channel_id is not None:
        return f"{DISCORD}/channels/{session.guild_id}/{session.place.voice_channel_id}"
    return ""


def paper_link(paper: Paper | None) -> str:
    """The paper's arXiv page, else its DOI or web page ('' when none is known)."""
    if paper is None:
        return ""
    links = paper.links
    if links.abs_url:
        return links.abs_url
    if links.doi:
        return f"https://doi.org/{links.doi}"
    return links.url


def event_title(entry: FeedEntry, lang: Lang) -> str:
    """The paper's title in the group's language (Traditional for zh-TW), else its id."""
    if entry.paper is None:
        return entry.session.paper_id
    return titles_in_order(entry.paper, lang.chinese, lang)[0]


def _description(entry: FeedEntry, lang: Lang) -> str:
    lines = []
    if entry.paper is not None:
        other = titles_in_order(entry.paper, lang.chinese, lang)[1]
        if other:
            lines.append(other)
    if entry.presenter_name:
        lines.append(t(lang, "calendar.presenter", name=entry.presenter_name))
    lines.append(t(lang, "calendar.thread", link=thread_link(entry.session)))
    if link := paper_link(entry.paper):
        lines.append(t(lang, "calendar.paper", link=link))
    if link := place_link(entry.session):
        lines.append(t(lang, "calendar.where", link=link))
    if entry.session.notes:
        lines.extend(("", entry.session.notes))
    return "\n".join(lines)


def _alarm(minutes: int, title: str, lang: Lang) -> Alarm:
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", t(lang, "calendar.reminder", title=title))
    alarm.add("trigger", timedelta(minutes=-minutes))
    return alarm


def modified_at(entry: FeedEntry, fallback: datetime) -> datetime:
    """When the session last changed, in UTC (to the second)."""
    instant = entry.session.updated_at or fallback
    return instant.astimezone(UTC).replace(microsecond=0)


def sequence(session: Session) -> int:
    """SEQUENCE: 0 when created (RFC 5545), +1 per move (a new revision), +1 once cancelled."""
    cancelled = session.status is SessionStatus.CANCELLED
    return max(session.revision - 1, 0) + int(cancelled)


def _stated(moment: datetime) -> datetime:
    """`moment` in the group's zone, or in UTC when its wall time is ambiguous (see
    `vtimezone.ambiguous`): every reader places a UTC time alike."""
    return moment.astimezone(UTC) if ambiguous(moment) else moment


def session_event(entry: FeedEntry, source: FeedSource) -> Event:
    """One session as a VEVENT in the group's zone."""
    session, lang = entry.session, source.lang
    title = event_title(entry, lang)
    start = session.starts_at.astimezone(source.zone)
    changed = modified_at(entry, source.built_at)
    event = Event()
    event.add("uid", event_uid(source.guild_id, session.id))
    event.add("sequence", sequence(session))
    event.add("dtstamp", changed)
    event.add("last-modified", changed)
    event.add("dtstart", _stated(start))
    event.add("dtend", _stated(start + timedelta(minutes=SESSION_MINUTES)))
    event.add("summary", title)
    event.add("description", _description(entry, lang))
    event.add("status", _STATUS[session.status])
    event.add("url", thread_link(session))
    if link := place_link(session):
        event.add("location", link)
    if session.status is SessionStatus.SCHEDULED:
        for minutes in source.reminders:
            event.add_component(_alarm(minutes, title, lang))
    return event


def _zone_component(source: FeedSource) -> Timezone | None:
    """The group's VTIMEZONE, covering the sessions' dates (None for UTC: times end in Z)."""
    if source.zone.key == "UTC":
        return None
    starts = [e.session.starts_at for e in source.entries] or [source.built_at]
    first: date = (min(starts) - _ZONE_MARGIN).date()
    last: date = (max(starts) + _ZONE_MARGIN).date()
    return zone_component(source.zone, first, last)


def last_modified(source: FeedSource) -> datetime:
    """When the calendar last changed: its latest session change (`built_at` when empty)."""
    changes = [modified_at(entry, source.built_at) for entry in source.entries]
    return max(changes, default=source.built_at.astimezone(UTC).replace(microsecond=0))


def build_calendar(source: FeedSource) -> Calendar:
    """The server's calendar: its zone, then every session, soonest first."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    name = t(source.lang, "calendar.name", server=source.server_name)
    # TEXT, escaped and said to be TEXT (icalendar writes these two raw unless told their
    # type; ical.js unescapes them only with VALUE=TEXT)
    for key in ("x-wr-calname", "name"):
        calendar.add(key, vText(name), parameters={"VALUE": "TEXT"})
    calendar.add("x-wr-timezone", source.zone.key)
    if (zone := _zone_component(source)) is not None:
        calendar.add_component(zone)
    for entry in sorted(source.entries, key=lambda e: (e.session.starts_at, e.session.id)):
        calendar.add_component(session_event(entry, source))
    return calendar


def calendar_bytes(source: FeedSource) -> bytes:
    """`build_calendar` as the file a client downloads (CRLF lines, folded at 75 octets)."""
    data: bytes = build_calendar(source).to_ical()
    return data
