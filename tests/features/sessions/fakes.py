"""An in-memory fake of the session poster."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.features.sessions.delivery import (
    Announced,
    DeliveryFailed,
    NoticeKind,
    Reminder,
    SessionPoster,
)
from domain.paper import Paper
from domain.sessions import Session
from tests.fakes import FakeChannels


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice posted in a session's thread (or channel)."""

    session: Session
    kind: NoticeKind


class FakeSessionPoster:
    """Scheduled events in `events` (operations "create_event", "update_event",
    "delete_event"); the announcement, notices and reminders in `channels` (operations
    "announce", "notice", "remind"); a thread on each announcement unless the "thread"
    operation is refused."""

    def __init__(self, channels: FakeChannels) -> None:
        self.channels = channels
        self.events: dict[int, Session] = {}

    async def create_event(self, session: Session, paper: Paper) -> int:
        await self.channels.call("create_event", session.channel_id)
        event_id = self.channels.new_id()
        self.events[event_id] = session
        return event_id

    async def update_event(self, session: Session, paper: Paper) -> None:
        await self.channels.call("update_event", session.channel_id)
        self.events[session.event_id or 0] = session

    async def delete_event(self, session: Session) -> None:
        await self.channels.call("delete_event", session.channel_id)
        self.events.pop(session.event_id or 0, None)

    async def announce(self, session: Session, paper: Paper) -> Announced:
        message_id = await self.channels.send("announce", session.channel_id, "",
                                              f"session {session.id}", (session, paper))
        try:
            await self.channels.call("thread", session.channel_id)
        except DeliveryFailed:
            return Announced(message_id, None)
        return Announced(message_id, self.channels.new_id())

    async def notice(self, session: Session, paper: Paper, kind: NoticeKind) -> None:
        await self.channels.send("notice", session.thread_id or session.channel_id, "", "",
                                 Notice(session, kind))

    async def remind(self, reminder: Reminder, nonce: str) -> int:
        session = reminder.session
        return await self.channels.send("remind", session.thread_id or session.channel_id,
                                        nonce, reminder.marker, reminder)

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        return await self.channels.find(channel_id, marker, nonce, since)

    def reminders(self, channel_id: int) -> list[Reminder]:
        """Reminders posted in a thread or channel, oldest first."""
        return [p.body for p in self.channels.in_channel(channel_id)
                if isinstance(p.body, Reminder)]

    def notices(self, channel_id: int) -> list[NoticeKind]:
        """Notices posted in a thread or channel, oldest first."""
        return [p.body.kind for p in self.channels.in_channel(channel_id)
                if isinstance(p.body, Notice)]


def _conforms(poster: FakeSessionPoster) -> SessionPoster:
    """mypy checks here that the fake satisfies its protocol."""
    return poster
