"""Sessions: schedule (event, announcement, thread), list, move, cancel, and mark done."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from bot.features.group.service import GroupService
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.store import PaperStore
from bot.features.presenters.rotation import Proposal
from bot.features.queue.service import QueueService
from bot.features.reading.store import HistoryStore
from bot.features.sessions.delivery import DeliveryFailed, EventGone, NoticeKind, SessionPoster
from bot.features.sessions.plan import parse_when
from bot.features.sessions.store import SessionStore
from bot.shared.clock import Clock
from bot.shared.messages import Refusal
from bot.shared.noticed import Noticed
from bot.shared.server_view import ServerView, seen
from domain.paper import Paper
from domain.sessions import Place, Session, SessionStatus

log = logging.getLogger(__name__)

NOTES_LIMIT = 4000


@dataclass(frozen=True, slots=True)
class Scheduled:
    """A scheduled session, its paper, and the rotation's proposal when none was named."""

    session: Session
    paper: Paper
    proposal: Proposal | None
    zone: ZoneInfo
    """The zone the time was read in (the server's)."""


@dataclass(frozen=True, slots=True)
class Agenda:
    """The server's upcoming sessions with their papers, soonest first, and its zone."""

    sessions: list[tuple[Session, Paper | None]]
    zone: ZoneInfo


class SessionService:
    """Everything `/session` does, per server."""

    def __init__(self, sessions: SessionStore, papers: PaperStore, history: HistoryStore,
                 group: GroupService, poster: SessionPoster,
                 clock: Clock, lookup: PaperLookup,
                 queue: QueueService, view: ServerView | None = None) -> None:
        """`view` shows each server its corrections of the papers."""
        self.sessions = sessions
        self.view = view
        self.lookup = lookup
        self.queue = queue
        self.papers = papers
        self.history = history
        self.group = group
        self.poster = poster
        self.clock = clock

    async def schedule(self, guild_id: int, paper_id: str, when: str, *, presenter_id: int | None,
                       place: Place, channel_id: int) -> Noticed[Scheduled, Session]:
        """Create the session, its scheduled event, the announcement and the thread; with the
        sessions whose reminders stopped that the organisers have not heard about.

        Refused (nothing kept) when the paper is unknown, the time is malformed or past, or
        Discord refuses the event or the announcement."""
        # named exactly, or the only match: no guess
        paper = await self.lookup.resolve(paper_id, guild_id)
        if paper is None:
            raise Refusal("session.paper_unknown")
        zone = await self.group.zone(guild_id)
        starts_at = parse_when(when, zone, self.clock())
        proposal = None
        if presenter_id is None:
            proposal = await self.group.proposal(guild_id)
            presenter_id = proposal.user_id if proposal else None
        session = await self.sessions.create(guild_id, paper.id, starts_at, presenter_id, place,
                                             channel_id)
        try:
            event_id = await self.poster.create_event(session, paper)
        except DeliveryFailed:
            await self.sessions.delete(guild_id, session.id)
            raise
        session = replace(session, event_id=event_id)
        try:
            announced = await self.poster.announce(session, paper)
        except DeliveryFailed:
            await self._quietly_delete_event(session)
            await self.sessions.delete(guild_id, session.id)
            raise
        await self.sessions.set_discord(session.id, event_id=event_id,
                                        message_id=announced.message_id,
                                        thread_id=announced.thread_id)
        if presenter_id is not None:
            await self.group.presented(guild_id, presenter_id)
        stored = await self.sessions.get(guild_id, session.id)
        assert stored is not None
        return Noticed(Scheduled(stored, paper, proposal, zone), await self._problems(guild_id))

    async def _quietly_delete_event(self, session: Session) -> None:
        try:
            await self.poster.delete_event(session)
        except DeliveryFailed:
            log.warning("could not remove event %s of a failed session", session.event_id)

    async def upcoming(self, guild_id: int) -> list[tuple[Session, Paper | None]]:
        """The server's scheduled sessions, soonest first, with their papers."""
        found = await self.sessions.of_guild(guild_id, SessionStatus.SCHEDULED)
        return [(s, await seen(self.view, guild_id, await self.papers.get(s.paper_id)))
                for s in found]

    async def agenda(self, guild_id: int) -> Agenda:
        """`upcoming`, with the zone to show their times in."""
        return Agenda(await self.upcoming(guild_id), await self.group.zone(guild_id))

    async def listing(self, guild_id: int, *,
                      organiser: bool) -> Noticed[list[tuple[Session, Paper | None]], Session]:
        """`/session list`: `upcoming`, with the stopped reminders organisers have not heard
        about (only for an organiser)."""
        problems = await self._problems(guild_id) if organiser else ()
        return Noticed(await self.upcoming(guild_id), problems)

    async def session(self, guild_id: int, session_id: int) -> tuple[Session, Paper]:
        """A scheduled session of this server and its paper; `Refusal` otherwise."""
        session = await self.sessions.get(guild_id, session_id)
        if session is None or session.status is not SessionStatus.SCHEDULED:
            raise Refusal("session.unknown")
        paper = await seen(self.view, guild_id, await self.papers.get(session.paper_id))
        if paper is None:
            raise Refusal("session.paper_unknown")
        return session, paper

    async def move(self, guild_id: int, session_id: int, when: str) -> Noticed[Session, Session]:
        """A new start: the event moves, the thread hears of it, reminders start over; with
        the stopped reminders the organisers have not heard about."""
        session, paper = await self.session(guild_id, session_id)
        starts_at = parse_when(when, await self.group.zone(guild_id), self.clock())
        moved = replace(session, starts_at=starts_at)
        if session.event_id is not None:
            try:
                await self.poster.update_event(moved, paper)
            except EventGone:  # deleted or ended in Discord: a new event stands in for it
                moved = replace(moved, event_id=await self.poster.create_event(moved, paper))
                await self.sessions.set_discord(session.id, event_id=moved.event_id,
                                                message_id=session.message_id,
                                                thread_id=session.thread_id)
        await self.sessions.move(session.id, starts_at)
        await self._notice(moved, paper, NoticeKind.MOVED)
        stored = await self.sessions.get(guild_id, session.id)
        assert stored is not None
        return Noticed(stored, await self._problems(guild_id))

    async def cancel(self, guild_id: int, session_id: int) -> Noticed[Session, Session]:
        """Remove the event, tell the thread, stop the reminders; with the stopped reminders
        the organisers have not heard about."""
        session, paper = await self.session(guild_id, session_id)
        if session.event_id is not None:
            await self.poster.delete_event(session)
        await self.sessions.finish(session.id, SessionStatus.CANCELLED)
        await self._notice(session, paper, NoticeKind.CANCELLED)
        return Noticed(session, await self._problems(guild_id))

    async def may_finish(self, guild_id: int, session_id: int, *, user_id: int,
                         organiser: bool) -> tuple[Session, Paper]:
        """A scheduled session this member may mark done (organisers or its presenter) and
        its paper; `Refusal` otherwise."""
        session, paper = await self.session(guild_id, session_id)
        if not organiser and session.presenter_id != user_id:
            raise Refusal("session.done.who")
        return session, paper

    async def done(self, guild_id: int, session_id: int, *, user_id: int, organiser: bool,
                   notes: str | None) -> Session:
        """Mark the paper discussed (organisers or the presenter), store the notes, record it
        in the history and post the notes in the thread. It was discussed at its start, or
        when it was marked done if that is earlier (a history never shows a date to come)."""
        session, paper = await self.may_finish(guild_id, session_id, user_id=user_id,
                                               organiser=organiser)
        text = (notes or "").strip()[:NOTES_LIMIT] or None
        await self.sessions.finish(session.id, SessionStatus.DONE, text)
        await self.history.record_discussed(guild_id, session.paper_id,
                                            min(session.starts_at, self.clock()),
                                            session.presenter_id, text or "", session.thread_id)
        await self.queue.drop(guild_id, session.paper_id)  # read: no longer a suggestion
        finished = replace(session, status=SessionStatus.DONE, notes=text)
        await self._notice(finished, paper, NoticeKind.DONE)
        return finished

    async def _problems(self, guild_id: int) -> tuple[Session, ...]:
        """Sessions whose reminders stopped, taken (told once), with the problem set."""
        return tuple(s for s in await self.take_problems(guild_id) if s.problem is not None)

    async def take_problems(self, guild_id: int) -> list[Session]:
        """Sessions whose reminders stopped, not yet reported to the organisers (once)."""
        return await self.sessions.take_problems(guild_id)

    async def _notice(self, session: Session, paper: Paper, kind: NoticeKind) -> None:
        try:
            await self.poster.notice(session, paper, kind)
        except DeliveryFailed as exc:
            log.info("no %s notice for session %s: %s", kind, session.id, exc.reason)
