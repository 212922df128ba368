"""In-memory fakes of the session store (with its reminder ledger) and the session poster."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot.features.sessions.delivery import (
    Announced,
    DeliveryFailed,
    NoticeKind,
    Reminder,
    SessionPoster,
)
from bot.features.sessions.store import SessionStore
from domain.digest import Lease
from domain.paper import Paper
from domain.reasons import Reason
from domain.sessions import Place, ReminderEntry, ReminderStatus, Session, SessionStatus
from tests.fakes import FakeChannels, lease_free

Key = tuple[int, int, int]
"""A reminder's ledger key: session, revision, offset in minutes."""


def key_of(entry: ReminderEntry) -> Key:
    return entry.session_id, entry.revision, entry.offset_minutes


class FakeSessionStore:
    """Sessions and the (session, revision, offset) reminder ledger, claimed once each, as
    the SQLite store keeps them; `leases` keeps who holds each claimed reminder."""

    def __init__(self) -> None:
        self.sessions: dict[int, Session] = {}
        self.pending_notice: set[int] = set()
        self.ledger: dict[Key, ReminderEntry] = {}
        self.leases: dict[Key, Lease] = {}
        self._next_id = 0

    def _update(self, session_id: int, **changes: Any) -> None:
        if session_id in self.sessions:
            self.sessions[session_id] = replace(self.sessions[session_id], **changes)

    async def create(self, guild_id: int, paper_id: str, starts_at: datetime,
                     presenter_id: int | None, place: Place, channel_id: int) -> Session:
        self._next_id += 1
        session = Session(self._next_id, guild_id, paper_id, starts_at, presenter_id, place,
                          channel_id)
        self.sessions[session.id] = session
        return session

    async def get(self, guild_id: int, session_id: int) -> Session | None:
        session = self.sessions.get(session_id)
        return session if session is not None and session.guild_id == guild_id else None

    async def of_guild(self, guild_id: int, status: SessionStatus,
                       limit: int = 25) -> list[Session]:
        found = [s for s in self.sessions.values()
                 if s.guild_id == guild_id and s.status is status]
        return sorted(found, key=lambda s: (s.starts_at, s.id))[:limit]

    async def scheduled_before(self, until: datetime) -> list[Session]:
        found = [s for s in self.sessions.values()
                 if s.status is SessionStatus.SCHEDULED and s.starts_at < until]
        return sorted(found, key=lambda s: (s.guild_id, s.starts_at))

    async def delete(self, guild_id: int, session_id: int) -> None:
        if await self.get(guild_id, session_id) is not None:
            del self.sessions[session_id]

    async def forget(self, user_id: int) -> int:
        mine = [s.id for s in self.sessions.values() if s.presenter_id == user_id]
        for session_id in mine:
            self._update(session_id, presenter_id=None)
        return len(mine)

    async def set_discord(self, session_id: int, *, event_id: int | None,
                          message_id: int | None, thread_id: int | None) -> None:
        self._update(session_id, event_id=event_id, message_id=message_id, thread_id=thread_id)

    async def move(self, session_id: int, starts_at: datetime) -> None:
        self._update(session_id, starts_at=starts_at,
                     revision=self.sessions[session_id].revision + 1)

    async def finish(self, session_id: int, status: SessionStatus,
                     notes: str | None = None) -> None:
        self._update(session_id, status=status,
                     notes=notes if notes is not None else self.sessions[session_id].notes)

    async def report_problem(self, session_id: int, reason: Reason) -> bool:
        session = self.sessions.get(session_id)
        if session is None or session.problem is not None:
            return False
        self._update(session_id, problem=reason)
        self.pending_notice.add(session_id)
        return True

    async def take_problems(self, guild_id: int) -> list[Session]:
        taken = sorted(i for i in self.pending_notice if self.sessions[i].guild_id == guild_id)
        self.pending_notice -= set(taken)
        return [self.sessions[i] for i in taken]

    async def reminders(self, session_id: int, revision: int) -> list[ReminderEntry]:
        return sorted((e for (s, r, _), e in self.ledger.items()
                       if (s, r) == (session_id, revision)),
                      key=lambda e: e.offset_minutes, reverse=True)

    async def claim_reminder(self, session_id: int, revision: int, offset_minutes: int,
                             nonce: str, *, lease: Lease) -> ReminderEntry | None:
        key = (session_id, revision, offset_minutes)
        if key in self.ledger:
            return None
        entry = ReminderEntry(session_id, revision, offset_minutes, ReminderStatus.CLAIMED,
                              nonce)
        self.ledger[key] = entry
        self.leases[key] = lease
        return entry

    async def hold_reminder(self, entry: ReminderEntry, lease: Lease, now: datetime) -> bool:
        key = key_of(entry)
        row = self.ledger.get(key)
        if row is None or row.status is not ReminderStatus.CLAIMED \
                or not lease_free(self.leases.get(key), lease, now):
            return False
        self.leases[key] = lease
        return True

    async def finish_reminder(self, entry: ReminderEntry, status: ReminderStatus, *,
                              message_id: int | None = None,
                              reason: Reason | None = None) -> None:
        key = key_of(entry)
        if key in self.ledger:
            self.ledger[key] = replace(self.ledger[key], status=status, message_id=message_id,
                                       reason=reason)

    async def skip_reminders(self, session_id: int, revision: int,
                             skips: Iterable[tuple[int, Reason]]) -> int:
        added = 0
        for offset, reason in skips:
            key = (session_id, revision, offset)
            if key not in self.ledger:
                self.ledger[key] = ReminderEntry(session_id, revision, offset,
                                                 ReminderStatus.SKIPPED, "", reason=reason)
                added += 1
        return added


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


def _conforms(store: FakeSessionStore,
              poster: FakeSessionPoster) -> tuple[SessionStore, SessionPoster]:
    """mypy checks here that the fakes satisfy the protocols."""
    return store, poster
