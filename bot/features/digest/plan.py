"""When the paper of the day is due: settings parsing and a pure, clock-free planner.

The scheduler only wakes the bot; `plan` decides, from the ledger's last handled local date and the
current instant, which local date (if any) to post now and which missed dates to record as
skipped. Nothing here reads the clock: every instant is passed in and must be timezone-aware.

DST rules (the ones discord.py's `ext.tasks` documents): a local time that does not exist on a
date (spring-forward gap) is due shifted forward by the gap, e.g. 02:30 in Berlin on the change
day is due at 03:30; a local time that occurs twice (fall-back) is due once, at its first
occurrence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from bot.shared.messages import Refusal
from domain.reasons import Reason, ReasonCode
from domain.text import unquoted

ONE_DAY = timedelta(days=1)
DEFAULT_GRACE = timedelta(hours=6)
"""A suggested catch-up window: a post up to this late is still made."""
LATE_TOLERANCE = timedelta(minutes=2)
"""A post this close to its due instant is on time (the scheduler wakes every minute)."""
MAX_SKIPS = 31
"""At most this many missed dates are listed in a plan; older ones are only counted."""

_TIME = re.compile(r"(\d{1,2})[:.：](\d{2})|(\d{2})(\d{2})")
_OFFSET = re.compile(r"(?:utc|gmt|z)?\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?", re.IGNORECASE)
_ETC_OFFSET = re.compile(r"etc/gmt([+-])0*([1-9]\d*)", re.IGNORECASE)
_AREAS = frozenset({"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia",
                    "Europe", "Indian", "Pacific"})
_REFUSED = frozenset({"localtime", "Factory"})
_WORDS = re.compile(r"[/_\-]")
_SHOWN = re.compile(r"[^A-Za-z0-9_/+\-:. ]")
_POPULAR = ("UTC", "Europe/London", "Europe/Berlin", "Europe/Paris", "America/New_York",
            "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo",
            "Asia/Kolkata", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Singapore", "Asia/Tokyo",
            "Asia/Seoul", "Australia/Sydney", "Pacific/Auckland")
# Abbreviations people type for a zone. Those that are not zone names, and the two that are but
# are fixed offsets (EST, MST: no daylight saving), are refused with a hint.
_ABBREVIATIONS = {
    "EST": "America/New_York", "EDT": "America/New_York", "CST": "America/Chicago",
    "CDT": "America/Chicago", "MST": "America/Denver or America/Phoenix",
    "MDT": "America/Denver", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
    "AKST": "America/Anchorage", "AKDT": "America/Anchorage", "BST": "Europe/London",
    "CEST": "Europe/Berlin", "EEST": "Europe/Athens", "WEST": "Europe/Lisbon",
    "IST": "Asia/Kolkata (India), Europe/Dublin (Ireland) or Asia/Jerusalem (Israel)",
    "JST": "Asia/Tokyo", "KST": "Asia/Seoul", "HKT": "Asia/Hong_Kong", "SGT": "Asia/Singapore",
    "AEST": "Australia/Sydney or Australia/Brisbane", "AEDT": "Australia/Sydney",
    "ACST": "Australia/Adelaide or Australia/Darwin", "AWST": "Australia/Perth",
    "NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland",
}


# --- settings -------------------------------------------------------------------------------


def parse_local_time(text: str) -> time:
    """A 24-hour local time from `HH:MM`, `H:MM`, `HH.MM` or `HHMM`; `Refusal` otherwise.

    Full-width digits and colon (`０９：３０`, as Chinese input methods type them) are accepted.
    The message is safe to show the user (it never echoes the input).
    """
    match = _TIME.fullmatch(unquoted(text))
    if not match:
        raise Refusal("time.format")
    hour = int(match.group(1) or match.group(3))
    minute = int(match.group(2) or match.group(4))
    if hour > 23 or minute > 59:
        raise Refusal("time.range")
    return time(hour, minute)


def resolve_zone(text: str) -> ZoneInfo:
    """The IANA zone named by `text`, matched case-insensitively (spaces may stand for `_`).

    Refused with a user-safe `ValueError` and a hint: empty input, unknown names, fixed offsets
    (`UTC+3`, `+03:00`, `Etc/GMT+3`, whose POSIX sign is inverted) and abbreviations such as
    `PST` or `EST`, none of which follow daylight saving. Zero offsets (`UTC+0`) mean UTC.
    """
    raw = unquoted(text)
    if not raw:
        raise Refusal("zone.empty")
    offset = _OFFSET.fullmatch(raw)
    if offset:
        if int(offset.group(2)) == 0 and int(offset.group(3) or 0) == 0:
            return ZoneInfo("UTC")
        raise Refusal("zone.offset", zone=_shown(raw))
    etc = _ETC_OFFSET.fullmatch(raw)
    if etc:
        sign = "−" if etc.group(1) == "+" else "+"
        raise Refusal("zone.etc", zone=_shown(raw), sign=sign, hours=etc.group(2))
    hint = _ABBREVIATIONS.get(raw.upper())
    if hint:
        raise Refusal("zone.abbreviation", zone=_shown(raw), hint=hint)
    name = _zone_names().get(_key(raw))
    if name is None or name in _REFUSED:
        suggestions = suggest_zones(raw, limit=3)
        if suggestions:
            raise Refusal("zone.unknown_suggest", zone=_shown(raw),
                          suggestions=", ".join(suggestions))
        raise Refusal("zone.unknown", zone=_shown(raw))
    return ZoneInfo(name)


def suggest_zones(prefix: str, limit: int = 25) -> list[str]:
    """Up to `limit` city zone names matching `prefix`, best first, for autocomplete.

    Matching ignores case and treats spaces as `_`. Ranking: the city part starts with the text
    (`ber` → Europe/Berlin), then the whole name does (`europe/b`), then any word does (`york` →
    America/New_York), then a plain substring; ties by city, then name. Only `Area/City` names
    and UTC are offered (no legacy aliases such as `US/Eastern` or `Etc/GMT+3`); empty text
    gives a short list of popular zones.
    """
    if limit <= 0:
        return []
    query = _key(prefix)
    if not query:
        names = _zone_names()
        return [n for n in _POPULAR if n in names.values()][:limit]
    ranked: list[tuple[int, str, str]] = []
    for name in _suggestible():
        lowered = name.lower()
        city = lowered.rsplit("/", 1)[-1]
        if city.startswith(query):
            rank = 0
        elif lowered.startswith(query):
            rank = 1
        elif any(word.startswith(query) for word in _WORDS.split(lowered)):
            rank = 2
        elif query in lowered:
            rank = 3
        else:
            continue
        ranked.append((rank, city, name))
    ranked.sort()
    return [name for _, _, name in ranked[:limit]]


def _key(text: str) -> str:
    return "_".join(text.strip().split()).lower()


def _shown(text: str) -> str:
    """The user's input made harmless for an error message: plain characters, 40 at most."""
    cleaned = _SHOWN.sub("", text)
    return cleaned if len(cleaned) <= 40 else cleaned[:39] + "…"


@lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


@lru_cache(maxsize=1)
def _suggestible() -> tuple[str, ...]:
    return tuple(sorted(n for n in _zone_names().values()
                        if n == "UTC" or n.split("/", 1)[0] in _AREAS))


# --- instants -------------------------------------------------------------------------------


def due_instant(local_date: date, at: time, zone: ZoneInfo) -> datetime:
    """The UTC instant the post for `local_date` is due at local time `at` in `zone`.

    A time in a spring-forward gap is shifted forward by the gap (02:30 → 03:30 for a one-hour
    gap, 02:15 → 02:45 for Lord Howe's half hour); a repeated fall-back time is due at its first
    occurrence. Both follow from PEP 495's `fold=0`, which uses the offset in effect before the
    transition.
    """
    wall = datetime.combine(local_date, at.replace(tzinfo=None, fold=0))
    return wall.replace(tzinfo=zone).astimezone(UTC)


def local_date_of(instant: datetime, zone: ZoneInfo) -> date:
    """The calendar date in `zone` at the aware `instant`."""
    return _aware(instant, "instant").astimezone(zone).date()


def _aware(instant: datetime, what: str) -> datetime:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware")
    return instant


# --- the planner ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Skip:
    """A local date to record as skipped, and why."""

    local_date: date
    reason: Reason


@dataclass(frozen=True, slots=True)
class Plan:
    """What to do now for one server.

    `post` is the local date to post now (due at `due_at`, `late` if noticeably after it);
    `skip` lists missed dates to record, oldest first, at most `MAX_SKIPS` of them; `omitted`
    counts older missed dates left out of `skip` (recording the listed ones moves the ledger past
    them all, since the ledger's last handled date is its latest row).
    """

    post: date | None = None
    due_at: datetime | None = None
    late: bool = False
    skip: tuple[Skip, ...] = ()
    omitted: int = 0

    @property
    def idle(self) -> bool:
        """Nothing to post and nothing to record."""
        return self.post is None and not self.skip

    @property
    def handled_through(self) -> date | None:
        """The ledger's last handled date once this plan is carried out (None if idle)."""
        dates = [s.local_date for s in self.skip]
        if self.post is not None:
            dates.append(self.post)
        return max(dates, default=None)


IDLE = Plan()


def plan(now: datetime, at: time, zone: ZoneInfo, *, last_handled: date | None,
         enabled_since: datetime | None, grace: timedelta,
         tolerance: timedelta = LATE_TOLERANCE) -> Plan:
    """Decide what is due at `now` for a digest posting daily at `at` in `zone`.

    Candidates are the local dates after `last_handled` whose due instant is at or before `now`
    and not before `enabled_since` (enabled at 10:00 for 09:00: the first post is tomorrow's;
    callers may also pass the instant the time or zone last changed). Only the most recent
    candidate is posted, and only if `now` is at most `grace` after its due instant (`late` when
    more than `tolerance` after it); every other candidate is skipped. With neither
    `last_handled` nor `enabled_since`, only the most recent due date is considered.
    """
    _aware(now, "now")
    if grace < timedelta(0) or tolerance < timedelta(0):
        raise ValueError("grace and tolerance must not be negative")
    latest = local_date_of(now, zone)
    for _ in range(4):  # the latest due date is today or, at worst, a day or two earlier
        if last_handled is not None and latest <= last_handled:
            return IDLE
        due = due_instant(latest, at, zone)
        if due <= now:
            break
        latest -= ONE_DAY
    else:  # pragma: no cover - needs a zone skipping several days
        raise ValueError("no due date found near now")
    if last_handled is not None:
        first = last_handled + ONE_DAY
    elif enabled_since is None:
        first = latest
    else:
        first = date.min
    if enabled_since is not None:
        first = max(first, _first_date_due_since(_aware(enabled_since, "enabled_since"), at, zone))
    if latest < first:
        return IDLE

    post_ok = now - due <= grace
    older = (latest - first).days  # candidates before `latest`, all missed
    listed = min(older, MAX_SKIPS if post_ok else MAX_SKIPS - 1)
    skips = [_skip(latest - ONE_DAY * k, now, at, zone, grace) for k in range(listed, 0, -1)]
    if post_ok:
        return Plan(post=latest, due_at=due, late=now - due > tolerance, skip=tuple(skips),
                    omitted=older - listed)
    skips.append(Skip(latest, offline_reason(grace)))
    return Plan(skip=tuple(skips), omitted=older - listed)


def next_due(now: datetime, at: time, zone: ZoneInfo, last_handled: date | None) -> datetime:
    """The next due instant strictly after `now` of a date after `last_handled` (for status).

    A date that is already due but not yet handled is left to `plan`, not reported here.
    """
    day = local_date_of(now, zone) - ONE_DAY
    if last_handled is not None:
        day = max(day, last_handled + ONE_DAY)
    while (due := due_instant(day, at, zone)) <= now:
        day += ONE_DAY
    return due


def _first_date_due_since(since: datetime, at: time, zone: ZoneInfo) -> date:
    day = local_date_of(since, zone)
    return day if due_instant(day, at, zone) >= since else day + ONE_DAY


def _skip(day: date, now: datetime, at: time, zone: ZoneInfo, grace: timedelta) -> Skip:
    if now - due_instant(day, at, zone) > grace:
        return Skip(day, offline_reason(grace))
    return Skip(day, Reason(ReasonCode.LATER_DAY_DUE))


def offline_reason(grace: timedelta) -> Reason:
    """Why a date is skipped once it is more than `grace` past its due instant."""
    return Reason(ReasonCode.OFFLINE_PAST_GRACE,
                  {"grace_minutes": int(grace.total_seconds() // 60)})
