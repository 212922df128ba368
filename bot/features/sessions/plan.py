"""Sessions, pure: reading a local date and time, reminder offsets, and which reminders are due.

Nothing here reads the clock; every instant is passed in and timezone-aware.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.features.digest.plan import due_instant
from bot.shared.messages import Refusal
from domain.reasons import Reason, ReasonCode
from domain.sessions import MAX_REMINDERS
from domain.text import unquoted

DEFAULT_REMINDER_GRACE = timedelta(hours=2)
"""A reminder missed while the bot was down is posted this late at most (and never after the
session has started)."""
MAX_OFFSET_MINUTES = 14 * 24 * 60

_WHEN = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})[ T]+(\d{1,2}):(\d{2})")
_OFFSET = re.compile(r"(\d{1,4})\s*(d|h|m|min)?", re.IGNORECASE)
_UNITS = {"d": 24 * 60, "h": 60, "m": 1, "min": 1}


def parse_when(text: str, zone: ZoneInfo, now: datetime) -> datetime:
    """`YYYY-MM-DD HH:MM` in `zone` as a UTC instant; `Refusal` if malformed or not after `now`.

    Full-width digits and punctuation are accepted. A time in a daylight-saving gap moves forward
    by the gap; a repeated time means its first occurrence (as for the paper of the day).
    """
    match = _WHEN.fullmatch(unquoted(unicodedata.normalize("NFKC", text)))
    if not match:
        raise Refusal("session.when.format")
    year, month, day, hour, minute = (int(g) for g in match.groups())
    try:
        local_day = date(year, month, day)
        at = time(hour, minute)
    except ValueError:
        raise Refusal("session.when.format") from None
    instant = due_instant(local_day, at, zone)
    if instant <= now:
        raise Refusal("session.when.past")
    return instant


def parse_offsets(text: str) -> tuple[int, ...]:
    """`24h 1h`, `1d, 30m` or `90` (minutes) as distinct minute offsets, largest first."""
    parts = [p for p in re.split(r"[\s,，、]+", unquoted(unicodedata.normalize("NFKC", text)))
             if p]
    if not parts or len(parts) > MAX_REMINDERS:
        raise Refusal("session.reminders.format", most=MAX_REMINDERS)
    minutes: set[int] = set()
    for part in parts:
        match = _OFFSET.fullmatch(part)
        if not match:
            raise Refusal("session.reminders.format", most=MAX_REMINDERS)
        value = int(match.group(1)) * _UNITS[(match.group(2) or "m").lower()]
        if not 1 <= value <= MAX_OFFSET_MINUTES:
            raise Refusal("session.reminders.format", most=MAX_REMINDERS)
        minutes.add(value)
    return tuple(sorted(minutes, reverse=True))


def describe_offsets(offsets: Iterable[int]) -> str:
    """`24h 1h 30m`: the compact form `parse_offsets` reads back."""
    def one(minutes: int) -> str:
        if minutes % (24 * 60) == 0:
            return f"{minutes // (24 * 60)}d"
        return f"{minutes // 60}h" if minutes % 60 == 0 else f"{minutes}m"
    return " ".join(one(m) for m in offsets)


@dataclass(frozen=True, slots=True)
class ReminderPlan:
    """What to do now for one session: at most one reminder to post, and offsets to skip."""

    post: int | None = None
    late: bool = False
    skip: tuple[tuple[int, Reason], ...] = ()


def plan_reminders(now: datetime, starts_at: datetime, offsets: Sequence[int], *,
                   handled: Iterable[int], grace: timedelta = DEFAULT_REMINDER_GRACE,
                   tolerance: timedelta = timedelta(minutes=2)) -> ReminderPlan:
    """Which of a session's reminders are due at `now`, given the offsets already handled.

    Of the due ones, only the latest-due is posted (the others are skipped: a later reminder is
    due), and only if it is at most `grace` late and the session has not started; otherwise it
    is skipped too, with the reason.
    """
    done = set(handled)
    due = sorted((m for m in offsets if m not in done
                  and starts_at - timedelta(minutes=m) <= now), reverse=True)
    if not due:
        return ReminderPlan()
    latest = due[-1]
    skips = [(m, Reason(ReasonCode.LATER_REMINDER_DUE)) for m in due[:-1]]
    due_at = starts_at - timedelta(minutes=latest)
    if now >= starts_at:
        skips.append((latest, Reason(ReasonCode.SESSION_STARTED)))
        return ReminderPlan(skip=tuple(skips))
    if now - due_at > grace:
        skips.append((latest, Reason(ReasonCode.OFFLINE_PAST_GRACE,
                                     {"grace_minutes": int(grace.total_seconds() // 60)})))
        return ReminderPlan(skip=tuple(skips))
    return ReminderPlan(post=latest, late=now - due_at > tolerance, skip=tuple(skips))


def local_text(instant: datetime, zone: ZoneInfo) -> str:
    """`2026-12-03 18:00` in `zone`."""
    return f"{instant.astimezone(zone):%Y-%m-%d %H:%M}"


def unix(instant: datetime) -> int:
    """Seconds since the epoch, for Discord's `<t:…>` timestamps."""
    return int(instant.astimezone(UTC).timestamp())
