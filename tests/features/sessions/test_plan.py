"""Session times, reminder offsets and which reminders are due."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.features.digest.plan import parse_local_time, resolve_zone
from bot.features.sessions.plan import (
    describe_offsets,
    parse_offsets,
    parse_when,
    plan_reminders,
)
from bot.shared.messages import Refusal
from domain.reasons import ReasonCode

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")


def test_parse_when_reads_local_time_in_the_zone() -> None:
    assert parse_when("2026-12-03 18:00", BERLIN, NOW) == datetime(2026, 12, 3, 17, 0,
                                                                    tzinfo=UTC)
    assert parse_when("２０２６-１２-０３　１８：３０", ZoneInfo("UTC"), NOW).hour == 18


def test_parse_when_moves_a_time_in_the_spring_gap_forward() -> None:
    at = parse_when("2027-03-28 02:30", BERLIN, NOW)
    assert at.astimezone(BERLIN).hour == 3 and at.astimezone(BERLIN).minute == 30


@pytest.mark.parametrize(("text", "key"), [("tomorrow", "session.when.format"),
                                           ("2026-02-30 10:00", "session.when.format"),
                                           ("2026-11-30 07:59", "session.when.past")])
def test_parse_when_refuses(text: str, key: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_when(text, ZoneInfo("UTC"), NOW)
    assert refused.value.key == key


def test_offsets_round_trip() -> None:
    assert parse_offsets("1h, 24h 1h") == (1440, 60)
    assert parse_offsets("1d 30m 90") == (1440, 90, 30)
    assert describe_offsets(parse_offsets("2d 90m 3h")) == "2d 3h 90m"
    for bad in ("", "soon", "0m", "1 2 3 4 5 6", "15d"):
        with pytest.raises(Refusal):
            parse_offsets(bad)


def test_nothing_due_before_the_first_offset() -> None:
    assert plan_reminders(NOW, START, (1440, 60), handled=()).post is None


def test_the_due_reminder_is_posted_once_handled_it_is_not() -> None:
    at = START - timedelta(hours=24)
    assert plan_reminders(at, START, (1440, 60), handled=()).post == 1440
    assert plan_reminders(at + timedelta(minutes=5), START, (1440, 60), handled=[1440]).post \
        is None


def test_when_two_are_due_the_earlier_is_skipped() -> None:
    plan = plan_reminders(START - timedelta(minutes=30), START, (1440, 60), handled=(),
                          grace=timedelta(hours=48))
    assert plan.post == 60 and plan.late
    assert [(m, r.code) for m, r in plan.skip] == [(1440, ReasonCode.LATER_REMINDER_DUE)]


def test_past_the_grace_or_after_the_start_is_skipped() -> None:
    late = plan_reminders(START - timedelta(hours=20), START, (1440,), handled=(),
                          grace=timedelta(hours=2))
    assert late.post is None and late.skip[0][1].code is ReasonCode.OFFLINE_PAST_GRACE
    started = plan_reminders(START + timedelta(minutes=1), START, (60,), handled=(),
                             grace=timedelta(hours=5))
    assert started.post is None and started.skip[0][1].code is ReasonCode.SESSION_STARTED


@pytest.mark.parametrize("quote", ['"{}"', "'{}'", "“{}”", "「{}」"])
def test_values_are_read_as_written_with_quotes_around_them(quote: str) -> None:
    """The README writes `before:"24h 1h"`: a pair of quotes around a value is not part of it."""
    assert parse_offsets(quote.format("24h 1h")) == (1440, 60)
    assert parse_when(quote.format("2026-12-03 18:00"), BERLIN, NOW) == datetime(
        2026, 12, 3, 17, 0, tzinfo=UTC)
    assert parse_local_time(quote.format("09:30")) == time(9, 30)
    assert resolve_zone(quote.format("Europe/Berlin")) == BERLIN
    with pytest.raises(Refusal):
        parse_offsets('"24h 1h')  # one quote is not a pair
