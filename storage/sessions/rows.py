"""Session and reminder columns, row decoding and the stored start."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from domain.reasons import decode_optional
from domain.sessions import (
    Place,
    ReminderEntry,
    ReminderStatus,
    Session,
    SessionStatus,
)
from storage.times import loaded

SESSION_COLUMNS = ("id, guild_id, paper_id, starts_at, presenter_id, voice_channel_id, link, "
                   "channel_id, status, revision, event_id, message_id, thread_id, notes, problem, "
                   "updated_at")


REMINDER_COLUMNS = "session_id, revision, offset_minutes, status, nonce, message_id, reason"


def stored_start(instant: datetime) -> str:
    """A session start as stored (to the second, with its offset)."""
    return instant.isoformat(timespec="seconds")


def session_from_row(row: Sequence[Any]) -> Session:
    return Session(
        id=row[0], guild_id=row[1], paper_id=row[2], starts_at=datetime.fromisoformat(row[3]),
        presenter_id=row[4], place=Place(row[5], row[6]), channel_id=row[7],
        status=SessionStatus(row[8]), revision=row[9], event_id=row[10], message_id=row[11],
        thread_id=row[12], notes=row[13], problem=decode_optional(row[14]),
        updated_at=loaded(row[15]))


def reminder_from_row(row: Sequence[Any]) -> ReminderEntry:
    return ReminderEntry(session_id=row[0], revision=row[1], offset_minutes=row[2],
                         status=ReminderStatus(row[3]), nonce=row[4], message_id=row[5],
                         reason=decode_optional(row[6]))
