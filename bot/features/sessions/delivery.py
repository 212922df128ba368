"""What sessions need from Discord: scheduled events, the announcement, notices, reminders.

`bot.features.sessions.poster` implements `SessionPoster`; the services only see this.
Every method raises `DeliveryFailed` when Discord refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from bot.shared.delivery import DeliveryFailed
from domain.paper import Paper
from domain.sessions import Session

__all__ = ["Announced", "DeliveryFailed", "EventGone", "NoticeKind", "Reminder",
           "SessionPoster"]


class EventGone(DeliveryFailed):
    """The session's scheduled event was deleted or ended in Discord: it cannot be edited,
    and a new one stands in for it."""


class NoticeKind(StrEnum):
    """What a notice in a session's thread says."""

    MOVED = "moved"
    CANCELLED = "cancelled"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Announced:
    """The announcement message and the discussion thread opened on it (None if refused)."""

    message_id: int
    thread_id: int | None


@dataclass(frozen=True, slots=True)
class Reminder:
    """One reminder to post: the session, its paper, how long before, and its marker."""

    session: Session
    paper: Paper
    offset_minutes: int
    late: bool
    marker: str


class SessionPoster(Protocol):
    """The Discord operations sessions need."""

    async def create_event(self, session: Session, paper: Paper) -> int:
        """A guild scheduled event for the session; returns its id."""
        ...

    async def update_event(self, session: Session, paper: Paper) -> None:
        """Move the event to the session's (new) start."""
        ...

    async def delete_event(self, session: Session) -> None:
        """Remove the event (one already deleted is not an error)."""
        ...

    async def announce(self, session: Session, paper: Paper) -> Announced:
        """Post the announcement in the session's channel and open its thread."""
        ...

    async def notice(self, session: Session, paper: Paper, kind: NoticeKind) -> None:
        """Tell the session's thread (or channel) that it moved, was cancelled or is done."""
        ...

    async def remind(self, reminder: Reminder, nonce: str) -> int:
        """Post a reminder in the session's thread (or channel); returns the message id."""
        ...

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """The id of our post sent after `since` carrying `nonce` or `marker`, if any (the
        whole history since then is searched, as for the digest)."""
        ...
