"""Reminders before each session, posted exactly once each (the digest's ledger discipline).

A reminder is claimed in a transaction before it is sent; the message carries a nonce derived
from (session, revision, offset) and a footer marker; the message id is recorded after. A claim
left unfinished by a crash is finished on the next tick: the thread is searched for the marker
first. A reminder missed while the bot was down is posted late only within the grace period and
before the session starts; otherwise it is recorded as skipped with a `Reason`. A deleted thread,
channel or paper stops that session's reminders and is reported to the organisers once.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import partial

from bot.features.digest.scheduler import HISTORY_MARGIN
from bot.features.group.store import GroupStore
from bot.features.papers.store import PaperStore
from bot.features.sessions.delivery import DeliveryFailed, Reminder, SessionPoster
from bot.features.sessions.plan import DEFAULT_REMINDER_GRACE, MAX_OFFSET_MINUTES, plan_reminders
from bot.features.sessions.store import SessionStore
from bot.shared.clock import Clock
from bot.shared.fanout import each_isolated
from bot.shared.leases import Leaser, process_owner
from bot.shared.pacing import discord_pace
from bot.shared.server_view import ServerView, seen
from domain.nonce import nonce_of
from domain.reasons import Reason, ReasonCode, text_reason
from domain.sessions import ReminderEntry, ReminderStatus, Session
from domain.shards import ALL_SHARDS, Shards

log = logging.getLogger(__name__)

GONE = frozenset({ReasonCode.CHANNEL_MISSING, ReasonCode.NO_ACCESS, ReasonCode.NO_PERMISSION,
                  ReasonCode.PAPER_LEFT_CATALOG})
"""Failures that will not fix themselves: the session's reminders stop and organisers hear."""


class ReminderOutcome(StrEnum):
    """What one reminder turn did."""

    POSTED = "posted"
    SKIPPED = "skipped"
    FAILED = "failed"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Sent:
    """One reminder handled in a tick."""

    guild_id: int
    session_id: int
    offset_minutes: int
    outcome: ReminderOutcome
    reason: Reason | None = None


def reminder_nonce(session_id: int, revision: int, offset_minutes: int) -> str:
    """A nonce unique to (session, revision, offset), at most 25 characters."""
    return nonce_of(f"session:{session_id}:{revision}:{offset_minutes}")


def reminder_marker(session: Session, offset_minutes: int) -> str:
    """The footer that finds a reminder again in the thread's history: short and in no
    language, as members read it too: `⏰ #3 −60′` (session 3, an hour before), `⏰ #3.2 −60′`
    once the session moved (its second revision has reminders of its own)."""
    revision = f".{session.revision}" if session.revision > 1 else ""
    return f"⏰ #{session.id}{revision} −{offset_minutes}′"


class ReminderService:
    """Every server's session reminders; one server's failure never delays another's."""

    def __init__(self, sessions: SessionStore, groups: GroupStore, papers: PaperStore,
                 poster: SessionPoster, *, clock: Clock,
                 grace: timedelta = DEFAULT_REMINDER_GRACE, concurrency: int = 50,
                 requests_per_second: float = 45.0, shards: Shards = ALL_SHARDS,
                 leases: Leaser | None = None, view: ServerView | None = None) -> None:
        """The scheduled turn covers only servers on `shards`; `requests_per_second` is this
        process's budget; `leases` names this process in its claims (default: this process,
        timed by `clock`); `view` shows each server its corrections of the papers."""
        self.sessions = sessions
        self.view = view
        self.groups = groups
        self.papers = papers
        self.poster = poster
        self.clock = clock
        self.grace = grace
        self._concurrency = concurrency
        self.shards = shards
        self.leases = leases or Leaser(process_owner(), clock=clock)
        self._pace = discord_pace(requests_per_second)
        self._locks: dict[int, asyncio.Lock] = {}

    async def tick(self) -> list[Sent]:
        """Give every server with a session soon its turn, concurrently (bounded), isolated."""
        now = self.clock()
        candidates = await self.sessions.scheduled_before(
            now + timedelta(minutes=MAX_OFFSET_MINUTES))
        by_guild: dict[int, list[Session]] = {}
        for session in filter(lambda s: self.shards.owns(s.guild_id), candidates):
            by_guild.setdefault(session.guild_id, []).append(session)

        def failed(server: tuple[int, list[Session]], exc: Exception) -> list[Sent]:
            log.exception("reminders for guild %s failed", server[0])
            return [Sent(server[0], 0, 0, ReminderOutcome.ERROR, text_reason(str(exc)))]

        results = await each_isolated(
            by_guild.items(), self._concurrency,
            lambda server: self.run_guild(server[0], server[1], now), failed)
        return [sent for group in results for sent in group]

    async def run_guild(self, guild_id: int, sessions: list[Session],
                        now: datetime) -> list[Sent]:
        """One server's due reminders, session by session."""
        offsets = (await self.groups.settings(guild_id)).reminders
        done: list[Sent] = []
        async with self._locks.setdefault(guild_id, asyncio.Lock()):
            for session in sessions:
                if session.problem is not None:
                    continue
                done += await self._session(session, offsets, now)
        return done

    async def _session(self, session: Session, offsets: tuple[int, ...],
                       now: datetime) -> list[Sent]:
        ledger = await self.sessions.reminders(session.id, session.revision)
        done: list[Sent] = []
        for entry in ledger:
            # A crash between claim and record: resumed unless another process holds it.
            if entry.status is ReminderStatus.CLAIMED and await self._hold(entry) \
                    and (sent := await self._deliver(session, entry, late=True, resumed=True)):
                done.append(sent)
        plan = plan_reminders(now, session.starts_at, offsets,
                              handled=[e.offset_minutes for e in ledger], grace=self.grace)
        if plan.skip:
            await self.sessions.skip_reminders(session.id, session.revision, plan.skip)
            done += [Sent(session.guild_id, session.id, offset, ReminderOutcome.SKIPPED, reason)
                     for offset, reason in plan.skip]
        if plan.post is not None:
            claimed = await self.sessions.claim_reminder(
                session.id, session.revision, plan.post,
                reminder_nonce(session.id, session.revision, plan.post),
                lease=self.leases.fresh())
            if claimed is not None and (sent := await self._deliver(
                    session, claimed, late=plan.late, resumed=False)):
                done.append(sent)
        return done

    async def _hold(self, entry: ReminderEntry) -> bool:
        """Take or renew this process's lease on a claimed reminder; False once it is not
        claimed any more or another process's lease on it is live."""
        return await self.leases.hold(partial(self.sessions.hold_reminder, entry))

    async def _deliver(self, session: Session, entry: ReminderEntry, *, late: bool,
                       resumed: bool) -> Sent | None:
        """Find or send the reminder, renewing the lease before each Discord call (a slow
        answer must not let another process take the claim over while this one still sends);
        None when the claim stopped being ours (the other process finishes it)."""
        paper = await seen(self.view, session.guild_id, await self.papers.get(session.paper_id))
        if paper is None:
            return await self._failed(session, entry, Reason(ReasonCode.PAPER_LEFT_CATALOG))
        marker = reminder_marker(session, entry.offset_minutes)
        reminder = Reminder(session, paper, entry.offset_minutes, late, marker)
        try:
            message_id = None
            if resumed:
                async with self._pace:
                    if not await self._hold(entry):
                        return None
                    message_id = await self.poster.find(
                        session.thread_id or session.channel_id, marker, entry.nonce,
                        session.starts_at - timedelta(minutes=entry.offset_minutes)
                        - HISTORY_MARGIN)
            if message_id is None:
                async with self._pace:
                    if not await self._hold(entry):
                        log.info("session %s's reminder was taken over by another process",
                                 session.id)
                        return None
                    message_id = await self.poster.remind(reminder, entry.nonce)
        except DeliveryFailed as exc:
            log.warning("reminder for session %s failed: %s", session.id, exc.reason)
            return await self._failed(session, entry, exc.reason)
        await self.sessions.finish_reminder(entry, ReminderStatus.POSTED, message_id=message_id)
        return Sent(session.guild_id, session.id, entry.offset_minutes, ReminderOutcome.POSTED)

    async def _failed(self, session: Session, entry: ReminderEntry, reason: Reason) -> Sent:
        """Recorded as failed (never retried); a lasting cause stops the session's reminders."""
        await self.sessions.finish_reminder(entry, ReminderStatus.FAILED, reason=reason)
        if reason.code in GONE:
            await self.sessions.report_problem(session.id, reason)
        return Sent(session.guild_id, session.id, entry.offset_minutes, ReminderOutcome.FAILED,
                    reason)
