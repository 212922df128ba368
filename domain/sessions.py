"""Reading-group sessions: server settings, sessions, reminder ledger rows, volunteers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from domain.reasons import Reason

DEFAULT_REMINDERS = (24 * 60, 60)
"""Minutes before a session that reminders go out, unless a server sets its own."""
MAX_REMINDERS = 5
SESSION_MINUTES = 60
"""How long a session's scheduled event lasts (Discord needs an end for external events)."""


class SessionStatus(StrEnum):
    """Where a session stands."""

    SCHEDULED = "scheduled"
    CANCELLED = "cancelled"
    DONE = "done"


class ReminderStatus(StrEnum):
    """A reminder's ledger row: claimed before sending, then posted, skipped or failed."""

    CLAIMED = "claimed"
    POSTED = "posted"
    SKIPPED = "skipped"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class GroupSettings:
    """A server's reading-group settings (defaults when never set)."""

    guild_id: int
    organiser_role_id: int | None = None
    timezone: str | None = None
    reminders: tuple[int, ...] = DEFAULT_REMINDERS
    prep_sheets: bool = True
    """Whether sessions get a prep sheet a day before (where the operator enabled `[llm]`)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where a session happens: a voice channel, a link, or nowhere in particular."""

    voice_channel_id: int | None = None
    link: str | None = None


@dataclass(frozen=True, slots=True)
class Session:
    """One scheduled reading-group meeting about one paper."""

    id: int
    guild_id: int
    paper_id: str
    starts_at: datetime
    presenter_id: int | None
    place: Place
    channel_id: int
    status: SessionStatus = SessionStatus.SCHEDULED
    revision: int = 1
    event_id: int | None = None
    message_id: int | None = None
    thread_id: int | None = None
    notes: str | None = None
    problem: Reason | None = None
    updated_at: datetime | None = None
    """When the session last changed (as stored; None where a store keeps no time)."""


@dataclass(frozen=True, slots=True)
class ReminderEntry:
    """One reminder of one session revision in the ledger."""

    session_id: int
    revision: int
    offset_minutes: int
    status: ReminderStatus
    nonce: str
    message_id: int | None = None
    reason: Reason | None = None


@dataclass(frozen=True, slots=True)
class Volunteer:
    """A member in the presenter rotation; `last_turn` is the rotation turn they last took."""

    user_id: int
    joined: int
    last_turn: int | None = None
    presented: int = 0
