"""Paper-of-the-day planning: settings parsing, DST-correct due instants, a fake-clock scheduler."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.digest.plan import (
    MAX_SKIPS,
    Plan,
    Skip,
    due_instant,
    local_date_of,
    next_due,
    parse_local_time,
    plan,
    resolve_zone,
    suggest_zones,
)
from bot.shared.lang import Lang
from bot.shared.messages import render_reason
from domain.reasons import Reason, ReasonCode

DAY = timedelta(days=1)
GRACE = timedelta(hours=6)
OFFLINE = Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 360})
DST_ZONES = ("Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe",
             "America/Santiago")
ZONES = (*DST_ZONES, "Asia/Kolkata")
SLOTS = [time(h, m) for h in range(24) for m in (0, 15, 30, 45)]
# normal (non-transition) windows, every zone: a summer day, a year boundary, a leap day
NORMAL_DAYS = (date(2025, 6, 15), date(2026, 12, 31), date(2028, 2, 29))
BERLIN = ZoneInfo("Europe/Berlin")


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0,
        second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def offset(instant: datetime, zone: ZoneInfo) -> timedelta:
    result = instant.astimezone(zone).utcoffset()
    assert result is not None
    return result


def wall(instant: datetime, zone: ZoneInfo) -> datetime:
    """The naive local wall time of an aware instant (UTC → local is never ambiguous)."""
    return instant.astimezone(zone).replace(tzinfo=None)


# --- an independent oracle and the transitions ------------------------------------------------


def oracle_due(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The expected due instant, by brute force over the offsets seen around the date.

    Existing wall time: its earliest occurrence. Gap: the wall time shifted forward by the gap.
    """
    target = datetime.combine(day, at)
    probes = [target.replace(tzinfo=UTC) + timedelta(hours=h) for h in range(-16, 17)]
    offsets = sorted({offset(p, zone) for p in probes})

    def occurrences(local: datetime) -> list[datetime]:
        candidates = [(local - o).replace(tzinfo=UTC) for o in offsets]
        return sorted(u for u in candidates if wall(u, zone) == local)

    hits = occurrences(target)
    if hits:
        return hits[0]
    gap = offsets[-1] - offsets[0]
    assert len(offsets) == 2 and timedelta(0) < gap <= timedelta(hours=1)
    return occurrences(target + gap)[0]


@cache
def transitions(zone_name: str) -> tuple[datetime, ...]:
    """Every UTC instant in 2025–2027 at which the zone's offset changes (to the minute)."""
    zone = ZoneInfo(zone_name)
    found: list[datetime] = []
    day = utc(2025, 1, 1)
    while day < utc(2028, 1, 1):
        nxt = day + DAY
        if offset(day, zone) != offset(nxt, zone):
            lo, hi = day, nxt
            while hi - lo > timedelta(minutes=1):
                mid = (lo + (hi - lo) / 2).replace(second=0, microsecond=0)
                if offset(mid, zone) == offset(lo, zone):
                    lo = mid
                else:
                    hi = mid
            found.append(hi)
        day = nxt
    return tuple(found)


def windows(zone_name: str) -> list[list[date]]:
    """Consecutive local dates to simulate: around each transition, plus some normal days."""
    zone = ZoneInfo(zone_name)
    result = []
    for instant in transitions(zone_name):
        around = {local_date_of(instant - timedelta(seconds=1), zone), local_date_of(instant, zone)}
        first, last = min(around) - DAY, max(around) + DAY
        result.append([first + DAY * k for k in range((last - first).days + 1)])
    result += [[d - DAY, d, d + DAY] for d in NORMAL_DAYS]
    return result


def test_the_transitions_found_are_the_known_ones() -> None:
    assert {z: len(transitions(z)) for z in ZONES} == {
        "Europe/Berlin": 6, "America/New_York": 6, "Australia/Sydney": 6,
        "Australia/Lord_Howe": 6, "America/Santiago": 6, "Asia/Kolkata": 0}
    assert transitions("Europe/Berlin")[0] == utc(2025, 3, 30, 1)
    assert transitions("America/Santiago")[0] == utc(2025, 4, 6, 3)  # Saturday 24:00 → 23:00
    lord_howe = ZoneInfo("Australia/Lord_Howe")
    shifts = {offset(t, lord_howe) - offset(t - timedelta(minutes=1), lord_howe)
              for t in transitions("Australia/Lord_Howe")}
    assert shifts == {timedelta(minutes=30), timedelta(minutes=-30)}


# --- the fake-clock scheduler -------------------------------------------------------------------


def simulate(zone: ZoneInfo, at: time, dates: list[date], step: timedelta,
             jitter: timedelta) -> list[tuple[date, datetime, datetime, Plan]]:
    """Wake every `step` (+`jitter`) from before the first date's due to after the last's.

    The ledger starts with the day before handled; each post moves it on, as storage would.
    Returns (posted date, due_at, wake instant, plan) for every wake that posted.
    """
    first_due = due_instant(dates[0], at, zone)
    now = first_due - timedelta(minutes=30) + jitter
    end = due_instant(dates[-1], at, zone) + timedelta(minutes=30)
    handled = dates[0] - DAY
    posts = []
    while now < end:
        result = plan(now, at, zone, last_handled=handled, enabled_since=None, grace=GRACE)
        assert not result.skip and not result.omitted, (now, result)
        if result.post is not None:
            assert result.due_at is not None
            posts.append((result.post, result.due_at, now, result))
            handled = result.post
        now += step
    return posts


def check_posts(zone: ZoneInfo, at: time, dates: list[date], step: timedelta,
                posts: list[tuple[date, datetime, datetime, Plan]]) -> None:
    assert [p[0] for p in posts] == dates, (zone, at)  # one post per date, none skipped
    for day, due_at, woke, result in posts:
        assert due_at == due_instant(day, at, zone) == oracle_due(day, at, zone), (zone, day, at)
        assert due_at.tzinfo is UTC
        assert timedelta(0) <= woke - due_at < step  # the first wake at or after the due instant
        assert not result.late
    dues = [p[1] for p in posts]
    assert all(a < b for a, b in pairwise(dues))


@pytest.mark.parametrize("zone_name", ZONES)
def test_every_slot_posts_once_a_day_across_dst_changes(zone_name: str) -> None:
    """96 slots × every DST change of 2025–2027 (± a day) and some normal days, 5-minute wakes."""
    zone = ZoneInfo(zone_name)
    step = timedelta(minutes=5)
    for dates in windows(zone_name):
        for at in SLOTS:
            posts = simulate(zone, at, dates, step, jitter=timedelta(seconds=17))
            check_posts(zone, at, dates, step, posts)


@pytest.mark.parametrize("zone_name", DST_ZONES)
def test_minute_wakes_for_the_tricky_slots(zone_name: str) -> None:
    """The slots that fall into gaps, repeats or the midnight changes, with a wake every minute."""
    zone = ZoneInfo(zone_name)
    step = timedelta(minutes=1)
    for dates in windows(zone_name):
        for at in (time(0, 0), time(1, 45), time(2, 15), time(2, 30), time(23, 30)):
            posts = simulate(zone, at, dates, step, jitter=timedelta(seconds=41))
            check_posts(zone, at, dates, step, posts)


@settings(max_examples=150, deadline=None)
@given(zone_name=st.sampled_from(ZONES), slot=st.sampled_from(SLOTS),
       start=st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2027, 12, 1)),
       gaps=st.lists(st.integers(min_value=1, max_value=3 * 3600), min_size=50, max_size=200))
def test_irregular_wakes_never_double_post_or_skip(zone_name: str, slot: time, start: datetime,
                                                   gaps: list[int]) -> None:
    """Wakes at random intervals (1 s to 3 h): every date posted once, in order, none skipped."""
    zone = ZoneInfo(zone_name)
    now = start.replace(tzinfo=UTC)
    # the ledger is up to date at the start: the next date to post is the next one due
    first = local_date_of(next_due(now, slot, zone, None), zone)
    handled = first - DAY
    posted: list[date] = []
    for gap in gaps:
        now += timedelta(seconds=gap)
        result = plan(now, slot, zone, last_handled=handled, enabled_since=None, grace=GRACE)
        assert not result.skip
        if result.post is not None:
            assert result.due_at == due_instant(result.post, slot, zone)
            assert timedelta(0) <= now - result.due_at <= timedelta(hours=3)
            posted.append(result.post)
            handled = result.post
    # consecutive dates, in order, and nothing due by the last wake is left over
    assert posted == [first + DAY * k for k in range(len(posted))]
    assert due_instant(handled + DAY, slot, zone) > now


# --- due_instant and local_date_of: worked examples ---------------------------------------------


@pytest.mark.parametrize(("zone_name", "day", "at", "expected_utc", "expected_local"), [
    # spring forward: shifted by the gap
    ("Europe/Berlin", date(2025, 3, 30), time(2, 30), utc(2025, 3, 30, 1, 30), "03:30"),
    ("America/New_York", date(2025, 3, 9), time(2, 0), utc(2025, 3, 9, 7), "03:00"),
    ("Australia/Lord_Howe", date(2025, 10, 5), time(2, 15), utc(2025, 10, 4, 15, 45), "02:45"),
    ("America/Santiago", date(2025, 9, 7), time(0, 0), utc(2025, 9, 7, 4), "01:00"),
    ("America/Santiago", date(2025, 9, 7), time(0, 45), utc(2025, 9, 7, 4, 45), "01:45"),
    # fall back: the first occurrence
    ("Europe/Berlin", date(2025, 10, 26), time(2, 30), utc(2025, 10, 26, 0, 30), "02:30"),
    ("America/New_York", date(2025, 11, 2), time(1, 30), utc(2025, 11, 2, 5, 30), "01:30"),
    ("Australia/Lord_Howe", date(2026, 4, 5), time(1, 45), utc(2026, 4, 4, 14, 45), "01:45"),
    ("America/Santiago", date(2026, 4, 4), time(23, 30), utc(2026, 4, 5, 2, 30), "23:30"),
    # ordinary
    ("Asia/Kolkata", date(2026, 1, 1), time(0, 15), utc(2025, 12, 31, 18, 45), "00:15"),
])
def test_due_instant_examples(zone_name: str, day: date, at: time, expected_utc: datetime,
                              expected_local: str) -> None:
    zone = ZoneInfo(zone_name)
    due = due_instant(day, at, zone)
    assert due == expected_utc and due.tzinfo is UTC
    assert due.astimezone(zone).strftime("%H:%M") == expected_local
    assert local_date_of(due, zone) == day


def test_fall_back_first_occurrence_is_the_earlier_offset() -> None:
    due = due_instant(date(2025, 10, 26), time(2, 30), BERLIN)
    assert due.astimezone(BERLIN).utcoffset() == timedelta(hours=2)  # CEST, not CET


def test_local_date_of_uses_the_zone_not_utc() -> None:
    assert local_date_of(utc(2025, 6, 1, 23, 30), BERLIN) == date(2025, 6, 2)
    assert local_date_of(utc(2025, 6, 1, 3), ZoneInfo("America/New_York")) == date(2025, 5, 31)
    with pytest.raises(ValueError, match="aware"):
        local_date_of(datetime(2025, 6, 1, 12), BERLIN)


# --- the planner: catch-up, skips, enabling -----------------------------------------------------


def berlin_plan(now: datetime, at: time = time(9, 0), *, last_handled: date | None,
                enabled_since: datetime | None = None, grace: timedelta = GRACE) -> Plan:
    return plan(now, at, BERLIN, last_handled=last_handled, enabled_since=enabled_since,
                grace=grace)


def test_on_time_late_and_too_late() -> None:
    # 09:00 Berlin in June is 07:00 UTC
    yesterday, today = date(2025, 6, 9), date(2025, 6, 10)
    assert berlin_plan(utc(2025, 6, 10, 6, 59, 59), last_handled=yesterday).idle
    on_time = berlin_plan(utc(2025, 6, 10, 7, 0, 30), last_handled=yesterday)
    assert on_time == Plan(post=today, due_at=utc(2025, 6, 10, 7), late=False)
    late = berlin_plan(utc(2025, 6, 10, 9, 30), last_handled=yesterday)
    assert (late.post, late.late, late.skip) == (today, True, ())
    at_edge = berlin_plan(utc(2025, 6, 10, 13), last_handled=yesterday)
    assert at_edge.post == today and at_edge.late
    too_late = berlin_plan(utc(2025, 6, 10, 13, 0, 1), last_handled=yesterday)
    assert too_late == Plan(skip=(Skip(today, OFFLINE),))
    assert too_late.handled_through == today
    assert berlin_plan(utc(2025, 6, 10, 13, 0, 1), last_handled=today).idle


def test_late_means_more_than_the_tolerance() -> None:
    yesterday = date(2025, 6, 9)
    assert not berlin_plan(utc(2025, 6, 10, 7, 2), last_handled=yesterday).late
    assert berlin_plan(utc(2025, 6, 10, 7, 2, 1), last_handled=yesterday).late
    strict = plan(utc(2025, 6, 10, 7, 0, 30), time(9, 0), BERLIN, last_handled=yesterday,
                  enabled_since=None, grace=GRACE, tolerance=timedelta(0))
    assert strict.late


def test_a_multi_day_outage_skips_the_missed_days_and_posts_today() -> None:
    result = berlin_plan(utc(2025, 6, 10, 8), last_handled=date(2025, 6, 6))
    assert result.post == date(2025, 6, 10) and result.late
    assert result.skip == tuple(Skip(date(2025, 6, d), OFFLINE) for d in (7, 8, 9))
    assert result.omitted == 0 and result.handled_through == date(2025, 6, 10)


def test_an_outage_past_the_grace_window_records_today_as_well() -> None:
    result = berlin_plan(utc(2025, 6, 10, 20), last_handled=date(2025, 6, 8))
    assert result.post is None
    assert result.skip == (Skip(date(2025, 6, 9), OFFLINE), Skip(date(2025, 6, 10), OFFLINE))


def test_a_year_long_outage_lists_at_most_max_skips() -> None:
    now = utc(2026, 6, 10, 8)
    result = berlin_plan(now, last_handled=date(2025, 6, 10))
    assert result.post == date(2026, 6, 10)
    assert len(result.skip) == MAX_SKIPS == 31
    assert result.skip[-1].local_date == date(2026, 6, 9)
    assert [s.local_date for s in result.skip] == [date(2026, 6, 9) - DAY * k
                                                   for k in range(30, -1, -1)]
    assert result.omitted == 364 - MAX_SKIPS
    # the same outage, found after today's grace: today is among the 31 listed
    later = berlin_plan(utc(2026, 6, 10, 20), last_handled=date(2025, 6, 10))
    assert later.post is None and len(later.skip) == MAX_SKIPS
    assert later.skip[-1].local_date == date(2026, 6, 10) and later.omitted == 365 - MAX_SKIPS


def test_a_grace_longer_than_a_day_still_posts_only_the_latest() -> None:
    result = berlin_plan(utc(2025, 6, 10, 8), last_handled=date(2025, 6, 8),
                         grace=timedelta(hours=30))
    assert result.post == date(2025, 6, 10)
    (skipped,) = result.skip
    assert skipped == Skip(date(2025, 6, 9), Reason(ReasonCode.LATER_DAY_DUE))
    assert "later day" in render_reason(Lang.EN, skipped.reason)


def test_the_skip_reason_names_the_grace() -> None:
    result = berlin_plan(utc(2025, 6, 10, 8), last_handled=date(2025, 6, 9),
                         grace=timedelta(minutes=30))
    (skipped,) = result.skip
    assert skipped.reason == Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 30})
    assert render_reason(Lang.EN, skipped.reason) == (
        "bot was offline at the due time (more than 30 minutes late)")
    one_hour = berlin_plan(utc(2025, 6, 10, 8, 1), last_handled=date(2025, 6, 9),
                           grace=timedelta(hours=1))
    assert render_reason(Lang.EN, one_hour.skip[0].reason).endswith("(more than 1 hour late)")
    assert render_reason(Lang.EN, OFFLINE).endswith("(more than 6 hours late)")


def test_enabled_after_todays_time_first_posts_tomorrow() -> None:
    enabled = utc(2025, 6, 10, 8)  # 10:00 Berlin, digest at 09:00
    assert berlin_plan(utc(2025, 6, 10, 8, 1), last_handled=None, enabled_since=enabled).idle
    assert berlin_plan(utc(2025, 6, 11, 6, 59), last_handled=None, enabled_since=enabled).idle
    first = berlin_plan(utc(2025, 6, 11, 7), last_handled=None, enabled_since=enabled)
    assert first == Plan(post=date(2025, 6, 11), due_at=utc(2025, 6, 11, 7))
    assert next_due(utc(2025, 6, 10, 8, 1), time(9, 0), BERLIN, None) == utc(2025, 6, 11, 7)


def test_enabled_before_todays_time_posts_today() -> None:
    enabled = utc(2025, 6, 10, 6)  # 08:00 Berlin
    result = berlin_plan(utc(2025, 6, 10, 7), last_handled=None, enabled_since=enabled)
    assert result.post == date(2025, 6, 10) and not result.skip
    exactly = berlin_plan(utc(2025, 6, 10, 7), last_handled=None, enabled_since=utc(2025, 6, 10, 7))
    assert exactly.post == date(2025, 6, 10)


def test_enabled_then_offline_skips_only_from_the_enabling() -> None:
    enabled = utc(2025, 6, 7, 6)  # before the 7th's 09:00
    result = berlin_plan(utc(2025, 6, 10, 7), last_handled=None, enabled_since=enabled)
    assert result.post == date(2025, 6, 10)
    assert [s.local_date for s in result.skip] == [date(2025, 6, d) for d in (7, 8, 9)]
    # the ledger wins when it is further on than the enabling
    assert berlin_plan(utc(2025, 6, 10, 7), last_handled=date(2025, 6, 9),
                       enabled_since=enabled).skip == ()


def test_without_ledger_or_enabling_only_the_latest_date_counts() -> None:
    assert berlin_plan(utc(2025, 6, 10, 7, 1), last_handled=None).post == date(2025, 6, 10)
    assert berlin_plan(utc(2025, 6, 10, 20), last_handled=None).skip == (
        Skip(date(2025, 6, 10), OFFLINE),)


@pytest.mark.parametrize(("at", "due", "local_day"), [
    (time(0, 0), utc(2025, 6, 9, 22), date(2025, 6, 10)),
    (time(0, 15), utc(2025, 6, 9, 22, 15), date(2025, 6, 10)),
    (time(23, 45), utc(2025, 6, 10, 21, 45), date(2025, 6, 10)),
])
def test_times_around_midnight_belong_to_the_local_date(at: time, due: datetime,
                                                        local_day: date) -> None:
    handled = local_day - DAY
    assert berlin_plan(due - timedelta(seconds=1), at, last_handled=handled).idle
    result = berlin_plan(due + timedelta(seconds=5), at, last_handled=handled)
    assert (result.post, result.due_at, result.late) == (local_day, due, False)
    assert berlin_plan(due + timedelta(hours=1), at, last_handled=local_day).idle


def test_a_late_night_post_missed_is_caught_up_after_midnight() -> None:
    # 23:45 Berlin on the 10th; the bot is back at 00:30 on the 11th
    result = berlin_plan(utc(2025, 6, 10, 22, 30), time(23, 45), last_handled=date(2025, 6, 9))
    assert (result.post, result.late, result.skip) == (date(2025, 6, 10), True, ())


def test_a_sydney_midnight_post_is_due_on_the_previous_utc_day() -> None:
    sydney = ZoneInfo("Australia/Sydney")
    result = plan(utc(2025, 6, 9, 14, 0, 10), time(0, 0), sydney, last_handled=date(2025, 6, 9),
                  enabled_since=None, grace=GRACE)
    assert result.post == date(2025, 6, 10) and result.due_at == utc(2025, 6, 9, 14)


def test_plan_rejects_naive_times_and_negative_windows() -> None:
    with pytest.raises(ValueError, match="aware"):
        berlin_plan(datetime(2025, 6, 10, 7), last_handled=None)
    with pytest.raises(ValueError, match="aware"):
        berlin_plan(utc(2025, 6, 10, 7), last_handled=None, enabled_since=datetime(2025, 6, 1))
    with pytest.raises(ValueError, match="negative"):
        berlin_plan(utc(2025, 6, 10, 7), last_handled=None, grace=timedelta(hours=-1))


def test_a_plan_in_another_zone_is_the_same_instant() -> None:
    now = datetime(2025, 6, 10, 9, 0, 30, tzinfo=BERLIN)
    assert berlin_plan(now, last_handled=date(2025, 6, 9)).post == date(2025, 6, 10)


# --- next_due -------------------------------------------------------------------------------------


def test_next_due() -> None:
    at = time(9, 0)
    assert next_due(utc(2025, 6, 10, 6), at, BERLIN, date(2025, 6, 9)) == utc(2025, 6, 10, 7)
    assert next_due(utc(2025, 6, 10, 7, 1), at, BERLIN, date(2025, 6, 10)) == utc(2025, 6, 11, 7)
    # handled ahead (e.g. posted early by hand): the next unhandled date
    assert next_due(utc(2025, 6, 10, 6), at, BERLIN, date(2025, 6, 10)) == utc(2025, 6, 11, 7)
    # an overdue date is the planner's business: status shows the next future one
    assert next_due(utc(2025, 6, 10, 8), at, BERLIN, date(2025, 6, 1)) == utc(2025, 6, 11, 7)
    # across the spring-forward change, into the gap
    assert next_due(utc(2025, 3, 29, 12), time(2, 30), BERLIN, date(2025, 3, 29)) == utc(
        2025, 3, 30, 1, 30)


# --- parse_local_time -----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("09:30", time(9, 30)), ("9:30", time(9, 30)), (" 21:05 ", time(21, 5)),
    ("00:00", time(0, 0)), ("23:59", time(23, 59)), ("0930", time(9, 30)), ("9.30", time(9, 30)),
    ("０９：３０", time(9, 30)), ("１２:００", time(12, 0)),
])
def test_parse_local_time_accepts(text: str, expected: time) -> None:
    assert parse_local_time(text) == expected


@pytest.mark.parametrize("text", [
    "", "  ", "25:00", "24:00", "12:60", "9am", "9", "930", "09:3", "09:30:00", "-1:00",
    "12:30pm", "09:30 Europe/Berlin", "@everyone",
])
def test_parse_local_time_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="09:30") as error:
        parse_local_time(text)
    assert "@" not in str(error.value) and "am" not in str(error.value)  # input never echoed


# --- resolve_zone ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("Europe/Berlin", "Europe/Berlin"), ("europe/berlin", "Europe/Berlin"),
    ("  EUROPE/BERLIN ", "Europe/Berlin"), ("america/new york", "America/New_York"),
    ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
    ("utc", "UTC"), ("UTC+0", "UTC"), ("GMT-00:00", "UTC"), ("Etc/GMT+0", "Etc/GMT+0"),
    ("asia/calcutta", "Asia/Calcutta"), ("CET", "CET"), ("HST", "HST"),
])
def test_resolve_zone_accepts_and_normalises(text: str, expected: str) -> None:
    assert resolve_zone(text).key == expected


@pytest.mark.parametrize("text", ["UTC+3", "utc-5", "GMT+3", "+03:00", "-0500", "UTC−3",
                                  "UTC +5:30", "gmt+10"])
def test_fixed_offsets_are_refused_with_a_hint(text: str) -> None:
    with pytest.raises(ValueError, match="fixed offset") as error:
        resolve_zone(text)
    assert "daylight saving" in str(error.value) and "Europe/Moscow" in str(error.value)


def test_etc_gmt_sign_inversion_is_explained() -> None:
    with pytest.raises(ValueError, match="means UTC−3") as error:
        resolve_zone("Etc/GMT+3")
    assert "inverts the sign" in str(error.value)
    with pytest.raises(ValueError, match=r"means UTC\+5"):
        resolve_zone("etc/gmt-5")


@pytest.mark.parametrize(("text", "hint"), [
    ("PST", "America/Los_Angeles"), ("est", "America/New_York"), ("CEST", "Europe/Berlin"),
    ("IST", "Asia/Kolkata"), ("MST", "America/Phoenix"),
])
def test_abbreviations_are_refused_with_a_zone_to_use(text: str, hint: str) -> None:
    with pytest.raises(ValueError, match="abbreviation") as error:
        resolve_zone(text)
    assert hint in str(error.value)


def test_unknown_zones_suggest_close_names() -> None:
    with pytest.raises(ValueError, match="Unknown time zone") as error:
        resolve_zone("Berlin")
    assert "Did you mean Europe/Berlin" in str(error.value)
    for text in ("", "   ", "Mars/Olympus", "localtime", "Factory", "../../etc/passwd"):
        with pytest.raises(ValueError):
            resolve_zone(text)


def test_zone_errors_do_not_carry_mentions_or_markup() -> None:
    with pytest.raises(ValueError) as error:
        resolve_zone("@everyone <@123> **bold** " + "x" * 80)
    message = str(error.value)
    assert "@" not in message and "<" not in message and "*" not in message
    assert len(message) < 300


# --- suggest_zones --------------------------------------------------------------------------------


def test_suggest_zones_ranks_city_prefixes_first() -> None:
    assert suggest_zones("ber")[0] == "Europe/Berlin"
    assert suggest_zones("BERLIN") == ["Europe/Berlin"]
    assert suggest_zones("york")[0] == "America/New_York"
    assert suggest_zones("new york")[0] == "America/New_York"
    assert suggest_zones("kolk") == ["Asia/Kolkata"]
    assert suggest_zones("lord")[0] == "Australia/Lord_Howe"
    assert suggest_zones("par")[:2] == ["America/Paramaribo", "Europe/Paris"]


def test_suggest_zones_whole_name_prefix_and_limits() -> None:
    europe_b = suggest_zones("europe/b")
    assert europe_b and all(name.startswith("Europe/B") for name in europe_b)
    assert len(suggest_zones("a")) == 25
    assert len(suggest_zones("a", limit=5)) == 5
    assert suggest_zones("a", limit=0) == []
    assert suggest_zones("zzzz-no-such") == []


def test_suggest_zones_offers_only_city_names() -> None:
    everything = suggest_zones("/", limit=10_000) + suggest_zones("utc", limit=10_000)
    assert "UTC" in everything
    assert not any(name.startswith(("Etc/", "US/", "SystemV/", "posix/")) for name in everything)
    assert all(resolve_zone(name).key == name for name in everything)


def test_suggest_zones_with_no_text_gives_popular_zones() -> None:
    popular = suggest_zones("")
    assert popular[:3] == ["UTC", "Europe/London", "Europe/Berlin"]
    assert "Asia/Shanghai" in popular and len(suggest_zones("  ", limit=2)) == 2
