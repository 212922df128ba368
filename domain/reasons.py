"""Why something was skipped, failed or paused: stored as a code with parameters, never as prose.

The message catalogue renders a `Reason` in the reader's language at read time (key
`reason.<code>`, the parameters as format fields). Rows written before codes existed hold an
English sentence; they decode as `ReasonCode.TEXT` and are shown as they are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

ParamValue = str | int


class ReasonCode(StrEnum):
    """Every stored reason. Parameters named in the comments."""

    OFFLINE_PAST_GRACE = "offline_past_grace"  # grace_minutes
    LATER_DAY_DUE = "later_day_due"
    NO_ELIGIBLE_PAPER = "no_eligible_paper"
    PAPER_LEFT_CATALOG = "paper_left_catalog"
    CHANNEL_MISSING = "channel_missing"  # Discord 10003
    NO_ACCESS = "no_access"  # Discord 50001
    NO_PERMISSION = "no_permission"  # Discord 50013
    DISCORD_ERROR = "discord_error"  # status, code
    EVENT_GONE = "event_gone"  # Discord 10070 or 180000 on a session's event
    NO_EVENT_PERMISSION = "no_event_permission"  # Discord 50013 on a scheduled event
    NO_THREAD = "no_thread"  # cause: a nested Reason
    THREADS_OFF = "threads_off"
    PAUSED_AFTER_FAILURES = "paused_after_failures"  # count, cause: a nested Reason
    DMS_CLOSED = "dms_closed"
    LATER_REMINDER_DUE = "later_reminder_due"
    SESSION_STARTED = "session_started"
    ARXIV_BUSY = "arxiv_busy"  # arXiv throttled or could not be reached: try later
    ARXIV_REJECTED = "arxiv_rejected"  # text: arXiv's own reason
    TEXT = "text"  # text: a sentence stored before codes existed


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason code and its parameters; `cause` nests the reason behind this one."""

    code: ReasonCode
    params: Mapping[str, ParamValue] = field(default_factory=dict)
    cause: Reason | None = None

    def __hash__(self) -> int:  # params is a mapping: hash the stored form instead
        return hash(self.encode())

    def encode(self) -> str:
        """Compact JSON for a database column."""
        return json.dumps(self._as_dict(), ensure_ascii=False, separators=(",", ":"),
                          sort_keys=True)

    def _as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code.value}
        if self.params:
            data["params"] = dict(self.params)
        if self.cause is not None:
            data["cause"] = self.cause._as_dict()
        return data

    @classmethod
    def decode(cls, stored: str) -> Reason:
        """The reason in a column; a legacy English sentence becomes `ReasonCode.TEXT`."""
        try:
            data = json.loads(stored)
            return cls._from_dict(data)
        except (ValueError, TypeError, KeyError):
            return cls(ReasonCode.TEXT, {"text": stored})

    @classmethod
    def _from_dict(cls, data: Any) -> Reason:
        if not isinstance(data, dict):
            raise TypeError("not a reason object")
        params = data.get("params") or {}
        if not isinstance(params, dict):
            raise TypeError("params must be an object")
        cause = data.get("cause")
        return cls(ReasonCode(data["code"]), params,
                   cls._from_dict(cause) if cause is not None else None)


def decode_optional(stored: str | None) -> Reason | None:
    """`Reason.decode` for a nullable column."""
    return None if stored is None else Reason.decode(stored)


DISCORD_CODES = {
    10003: ReasonCode.CHANNEL_MISSING,
    50001: ReasonCode.NO_ACCESS,
    50013: ReasonCode.NO_PERMISSION,
}


def from_discord(status: int, code: int) -> Reason:
    """The reason for a Discord HTTP error (`code` 0 when Discord gave none)."""
    known = DISCORD_CODES.get(code)
    if known is not None:
        return Reason(known)
    return Reason(ReasonCode.DISCORD_ERROR, {"status": status, "code": code} if code
                  else {"status": status})


def text_reason(text: str) -> Reason:
    """A reason that is only a sentence (legacy rows, unexpected errors)."""
    return Reason(ReasonCode.TEXT, {"text": text})

