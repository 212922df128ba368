"""The calendar feed read back by two independent parsers (`icalendar` and ics.py), and built
from real stores on both backends."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import ics

from bot.features.calendar.feed import FeedEntry, FeedSource, calendar_bytes, event_uid
from bot.features.calendar.service import CalendarService
from bot.features.group.service import GroupService
from bot.shared.lang import Lang
from domain.paper import Links, Paper
from domain.sessions import Place, Session, SessionStatus
from tests.backends import Backend

GUILD = 7001
BERLIN = ZoneInfo("Europe/Berlin")
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
PAPER = Paper(title_en="Attention Is All You Need", title_zh="深度学习网络的注意力机制",
              authors=("Ashish Vaswani",), links=Links(arxiv_id="1706.03762"))


def _session(session_id: int, starts_at: datetime, **changes: object) -> Session:
    session = Session(session_id, GUILD, PAPER.id, starts_at, 42, Place(link="https://meet.example/x"),
                      channel_id=500, thread_id=600 + session_id, updated_at=T0)
    return replace(session, **changes)  # type: ignore[arg-type]


def _source(*entries: FeedEntry, lang: Lang = Lang.EN, zone: ZoneInfo = BERLIN) -> FeedSource:
    return FeedSource(guild_id=GUILD, server_name="Reading Club", zone=zone, lang=lang,
                      reminders=(24 * 60, 60), entries=entries, built_at=T0)


def _events(data: bytes) -> list[icalendar.Event]:
    return [e for e in icalendar.Calendar.from_ical(data).walk("VEVENT")
            if isinstance(e, icalendar.Event)]


def _ics_events(data: bytes) -> dict[str, ics.Event]:
    return {event.uid: event for event in ics.Calendar(data.decode()).events}


def test_both_parsers_read_the_same_events() -> None:
    # 19:00 in Berlin on both sides of the spring DST change (29 March 2026).
    before = datetime(2026, 3, 26, 19, 0, tzinfo=BERLIN)
    after = datetime(2026, 4, 2, 19, 0, tzinfo=BERLIN)
    cancelled = datetime(2026, 4, 9, 19, 0, tzinfo=BERLIN)
    data = calendar_bytes(_source(
        FeedEntry(_session(1, before), PAPER, "Ada Lovelace"),
        FeedEntry(_session(2, after, presenter_id=None), PAPER, None),
        FeedEntry(_session(3, cancelled, status=SessionStatus.CANCELLED), PAPER, "Ada Lovelace")))
    ours = _events(data)
    theirs = _ics_events(data)
    assert [str(e["uid"]) for e in ours] == [event_uid(GUILD, n) for n in (1, 2, 3)]
    assert set(theirs) == {str(e["uid"]) for e in ours}
    for event in ours:
        other = theirs[str(event["uid"])]
        start = event.decoded("dtstart")
        assert start == other.begin.datetime
        assert event.decoded("dtend") == other.end.datetime
        assert str(event["summary"]) == other.name == PAPER.title_en
        assert str(event["status"]) == other.status
        assert str(event["url"]) == other.url
        assert str(event["description"]) == other.description
        assert sorted(a.decoded("trigger") for a in event.walk("VALARM")) == \
            sorted(a.trigger for a in other.alarms)
        # Local time kept across the DST change, and the right instant in UTC.
        assert (start.astimezone(BERLIN).hour, start.astimezone(BERLIN).minute) == (19, 0)
        assert other.begin.to("Europe/Berlin").hour == 19
    assert [e.decoded("dtstart").astimezone(UTC).hour for e in ours] == [18, 17, 17]
    assert [str(e["status"]) for e in ours] == ["CONFIRMED", "CONFIRMED", "CANCELLED"]
    assert not list(ours[2].walk("VALARM"))  # a cancelled session rings no reminder
    assert [a.decoded("trigger") for a in ours[0].walk("VALARM")] == \
        [timedelta(days=-1), timedelta(hours=-1)]


def test_the_group_zone_is_a_vtimezone_and_times_name_it() -> None:
    data = calendar_bytes(_source(FeedEntry(_session(1, datetime(2026, 3, 26, 18, tzinfo=UTC)),
                                            PAPER, None)))
    calendar = icalendar.Calendar.from_ical(data)
    (zone,) = calendar.walk("VTIMEZONE")
    assert str(zone["tzid"]) == "Europe/Berlin"
    assert {c.name for c in zone.subcomponents} == {"STANDARD", "DAYLIGHT"}
    assert b"DTSTART;TZID=Europe/Berlin:20260326T190000" in data


def test_description_names_presenter_thread_and_paper_never_a_ping_or_id() -> None:
    session = _session(1, datetime(2026, 5, 1, 17, tzinfo=UTC), presenter_id=123456789012345678)
    data = calendar_bytes(_source(FeedEntry(session, PAPER, "Ada Lovelace")))
    (event,) = _events(data)
    description = str(event["description"])
    assert "Presenter: Ada Lovelace" in description
    assert f"https://discord.com/channels/{GUILD}/601" in description
    assert "https://arxiv.org/abs/1706.03762" in description
    assert "123456789012345678" not in data.decode()
    assert "<@" not in data.decode()


def test_zh_tw_title_is_traditional() -> None:
    session = _session(1, datetime(2026, 5, 1, 17, tzinfo=UTC))
    (tw,) = _events(calendar_bytes(_source(FeedEntry(session, PAPER, None), lang=Lang.ZH_HANT)))
    (cn,) = _events(calendar_bytes(_source(FeedEntry(session, PAPER, None), lang=Lang.ZH_HANS)))
    assert str(cn["summary"]) == "深度学习网络的注意力机制"
    assert str(tw["summary"]) == "深度學習網絡的注意力機制"
    assert str(tw["description"]).startswith(PAPER.title_en)


def test_same_sessions_same_bytes() -> None:
    entry = FeedEntry(_session(1, datetime(2026, 5, 1, 17, tzinfo=UTC)), PAPER, None)
    assert calendar_bytes(_source(entry)) == calendar_bytes(_source(entry))


async def test_a_moved_session_keeps_its_uid_with_a_higher_sequence_on_each_backend(
        backend: Backend) -> None:
    papers, sessions = backend.papers(), backend.sessions()
    await papers.add_papers([PAPER])
    await backend.groups().set_timezone(GUILD, "Europe/Berlin")
    service = CalendarService(sessions, papers, GroupService(backend.groups(), backend.digests()),
                              links=backend.calendar_links(), base_url="https://club.example",
                              clock=lambda: T0)
    created = await sessions.create(GUILD, PAPER.id, datetime(2026, 3, 26, 18, tzinfo=UTC), 42,
                                    Place(), 500)
    names = {42: "Ada Lovelace"}

    async def name_of(user_id: int) -> str | None:
        return names.get(user_id)

    async def feed() -> icalendar.Event:
        data = await service.feed(GUILD, server_name="Club", lang=Lang.EN, names=name_of)
        (event,) = _events(data)
        assert set(_ics_events(data)) == {str(event["uid"])}
        return event

    first = await feed()
    await sessions.move(created.id, datetime(2026, 4, 2, 17, tzinfo=UTC))
    moved = await feed()
    await sessions.finish(created.id, SessionStatus.CANCELLED)
    cancelled = await feed()
    assert str(first["uid"]) == str(moved["uid"]) == str(cancelled["uid"]) \
        == event_uid(GUILD, created.id)
    assert first.decoded("sequence") < moved.decoded("sequence") < cancelled.decoded("sequence")
    assert moved.decoded("last-modified") >= first.decoded("last-modified")
    assert moved.decoded("dtstart").astimezone(BERLIN).hour == 19 == \
        first.decoded("dtstart").astimezone(BERLIN).hour
    assert str(cancelled["status"]) == "CANCELLED"
    assert "Presenter: Ada Lovelace" in str(first["description"])
    assert str(first["summary"]) == PAPER.title_en
