"""`SessionService` and `ReminderService` on in-memory fakes: scheduling makes the event, the
announcement and its thread through the poster (or nothing stays), move, cancel, done with
its history; reminders due, posted once each, skipped with a reason, a poster failure
recorded with its reason. The end-to-end tests (tests/e2e/test_sessions.py) run the same
rules through Discord."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from bot.features.digest.store import DigestStore
from bot.features.group.service import GroupService
from bot.features.group.store import GroupStore
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.search import SearchService
from bot.features.papers.store import PaperStore
from bot.features.queue.service import QueueService
from bot.features.reading.store import HistoryStore
from bot.features.sessions.delivery import DeliveryFailed, NoticeKind
from bot.features.sessions.reminders import (
    ReminderOutcome,
    ReminderService,
    reminder_marker,
    reminder_nonce,
)
from bot.features.sessions.service import SessionService
from bot.features.sessions.store import SessionStore
from bot.shared.leases import Leaser
from bot.shared.messages import Refusal
from domain.digest import DigestConfig
from domain.leases import Lease
from domain.reasons import Reason, ReasonCode
from domain.sessions import Place, ReminderStatus, Session, SessionStatus
from storage.backend import DIGESTS, GROUPS, HISTORY, QUEUE, SESSIONS
from storage.sqlite.database import Database
from tests.clocks import FakeClock
from tests.fakes import (
    FakeChannels,
    Refuse,
    catalog_paper,
    catalog_store,
    drop_paper,
    refused,
)
from tests.features.sessions.fakes import FakeSessionPoster

GUILD, CHANNEL, VOICE = 100, 10, 20
ORGANISER, ALICE, BOB = 1, 2, 3
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
WHEN = "2026-12-03 18:00"
STARTS = datetime(2026, 12, 3, 17, 0, tzinfo=UTC)  # 18:00 in Berlin, the server's zone
PAPER, OTHER = catalog_paper("Grokking Modular Addition"), catalog_paper("Ridge Regression")


@dataclass
class World:
    """The services under test and the fakes around them."""

    clock: FakeClock
    sessions: SessionStore
    papers: PaperStore
    groups: GroupStore
    digests: DigestStore
    history: HistoryStore
    queue: QueueService
    channels: FakeChannels
    poster: FakeSessionPoster
    service: SessionService
    reminders: ReminderService

    async def schedule(self, presenter: int | None = ALICE, when: str = WHEN) -> Session:
        scheduled = await self.service.schedule(GUILD, PAPER.id, when, presenter_id=presenter,
                                                place=Place(VOICE), channel_id=CHANNEL)
        return scheduled.result.session


@pytest.fixture
async def world(memory_db: Database) -> World:
    clock = FakeClock(NOW)
    sessions, papers = SESSIONS.open(memory_db), await catalog_store(memory_db, [PAPER, OTHER])
    groups, digests = GROUPS.open(memory_db), DIGESTS.open(memory_db)
    history = HISTORY.open(memory_db)
    await groups.set_timezone(GUILD, "Europe/Berlin")
    lookup = PaperLookup(SearchService(papers))
    queue = QueueService(QUEUE.open(memory_db), lookup, clock)
    channels = FakeChannels(clock)
    poster = FakeSessionPoster(channels)
    service = SessionService(sessions, papers, history, GroupService(groups, digests), poster,
                             clock, lookup, queue)
    reminders = ReminderService(sessions, groups, papers, poster, clock=clock,
                                leases=Leaser("here", clock=clock))
    return World(clock, sessions, papers, groups, digests, history, queue, channels, poster,
                 service, reminders)


# -- scheduling, moving, cancelling, done ------------------------------------------------------


async def test_schedule_makes_the_event_the_announcement_and_its_thread(world: World) -> None:
    scheduled = await world.service.schedule(GUILD, PAPER.id, WHEN, presenter_id=BOB,
                                             place=Place(VOICE), channel_id=CHANNEL)
    session = scheduled.result.session
    assert scheduled.result.zone.key == "Europe/Berlin" and scheduled.result.proposal is None
    assert (session.starts_at, session.presenter_id, session.place) == (STARTS, BOB,
                                                                        Place(VOICE))
    assert session.event_id in world.poster.events
    [announcement] = world.channels.in_channel(CHANNEL)
    assert session.message_id == announcement.message_id and session.thread_id is not None
    assert await world.sessions.get(GUILD, session.id) == session
    assert await world.groups.rotation(GUILD) == (1, BOB)
    assert await world.service.upcoming(GUILD) == [(session, PAPER)]


async def test_without_a_presenter_the_rotation_proposes_one(world: World) -> None:
    for member in (ALICE, BOB):
        await world.groups.volunteer(GUILD, member)
    await world.digests.save_config(DigestConfig(GUILD, CHANNEL, "09:00", "Asia/Tokyo"))
    scheduled = await world.service.schedule(GUILD, PAPER.id, WHEN, presenter_id=None,
                                             place=Place(), channel_id=CHANNEL)
    assert scheduled.result.proposal is not None and scheduled.result.proposal.user_id == ALICE
    assert scheduled.result.session.presenter_id == ALICE
    assert scheduled.result.zone.key == "Europe/Berlin"  # the group's, not the digest's
    assert scheduled.result.session.starts_at == STARTS
    second = await world.service.schedule(GUILD, OTHER.id, "2026-12-10 18:00",
                                          presenter_id=None, place=Place(), channel_id=CHANNEL)
    assert second.result.session.presenter_id == BOB


async def test_a_refused_schedule_keeps_nothing(world: World) -> None:
    for text, when, key in (("0" * 16, WHEN, "lookup.not_in_catalog"),
                            (PAPER.id, "2026-11-30 10:00", "session.when.past"),
                            (PAPER.id, "tomorrow", "session.when.format")):
        with pytest.raises(Refusal) as refusal:
            await world.service.schedule(GUILD, text, when, presenter_id=ALICE, place=Place(),
                                         channel_id=CHANNEL)
        assert refusal.value.key == key
    world.channels.script("create_event", Refuse(refused(ReasonCode.NO_PERMISSION, 50013)))
    with pytest.raises(DeliveryFailed):
        await world.schedule()
    world.channels.script("announce", Refuse(refused(ReasonCode.NO_ACCESS, 50001)))
    with pytest.raises(DeliveryFailed):
        await world.schedule()
    assert await world.sessions.of_guild(GUILD, SessionStatus.SCHEDULED) == []
    assert world.poster.events == {}
    assert world.channels.in_channel(CHANNEL) == []
    assert await world.groups.rotation(GUILD) == (0, None)


async def test_a_refused_thread_keeps_the_session_without_one(world: World) -> None:
    world.channels.script("thread", Refuse(refused(ReasonCode.NO_PERMISSION, 50013)))
    session = await world.schedule()
    assert session.thread_id is None and session.message_id is not None


async def test_move_updates_the_event_tells_the_thread_and_starts_a_new_revision(
        world: World) -> None:
    session = await world.schedule()
    moved = await world.service.move(GUILD, session.id, "2026-12-04 19:30")
    later = datetime(2026, 12, 4, 18, 30, tzinfo=UTC)
    assert (moved.result.starts_at, moved.result.revision) == (later, 2)
    assert world.poster.events[session.event_id or 0].starts_at == later
    assert world.poster.notices(session.thread_id or 0) == [NoticeKind.MOVED]


async def test_cancel_removes_the_event_and_the_session_is_gone(world: World) -> None:
    session = await world.schedule()
    world.channels.script("notice", Refuse(refused(ReasonCode.CHANNEL_MISSING, 10003)))
    cancelled = await world.service.cancel(GUILD, session.id)
    assert cancelled.result.id == session.id and world.poster.events == {}
    stored = await world.sessions.get(GUILD, session.id)
    assert stored is not None and stored.status is SessionStatus.CANCELLED
    assert await world.service.upcoming(GUILD) == []
    with pytest.raises(Refusal) as gone:
        await world.service.move(GUILD, session.id, "2026-12-05 10:00")
    assert gone.value.key == "session.unknown"


async def test_done_by_the_presenter_records_history_and_leaves_the_queue(
        world: World) -> None:
    await world.queue.suggest(GUILD, BOB, PAPER.id, "")
    session = await world.schedule(presenter=ALICE)
    with pytest.raises(Refusal) as who:
        await world.service.done(GUILD, session.id, user_id=BOB, organiser=False, notes="x")
    assert who.value.key == "session.done.who"
    done = await world.service.done(GUILD, session.id, user_id=ALICE, organiser=False,
                                    notes="  we read it  ")
    assert (done.status, done.notes) == (SessionStatus.DONE, "we read it")
    [discussed] = await world.history.history(GUILD)
    assert STARTS > NOW  # marked done before its time: discussed when it was marked, so
    # the history (and the web page's past sessions) never shows a date to come
    assert (discussed.paper_id, discussed.when, discussed.presenter_id, discussed.notes,
            discussed.thread_id) == (PAPER.id, NOW, ALICE, "we read it", session.thread_id)
    assert await world.queue.items(GUILD) == []
    assert world.poster.notices(session.thread_id or 0) == [NoticeKind.DONE]
    again = await world.schedule(when="2026-12-10 18:00")
    world.clock.advance(days=10)  # after its time: discussed at its start
    finished = await world.service.done(GUILD, again.id, user_id=ORGANISER, organiser=True,
                                        notes="   ")
    latest = (await world.history.history(GUILD))[0]
    assert finished.notes is None and latest.notes == ""
    assert latest.when == again.starts_at


async def test_stopped_reminders_are_told_to_organisers_once(world: World) -> None:
    session = await world.schedule()
    assert await world.sessions.report_problem(session.id, Reason(ReasonCode.CHANNEL_MISSING))
    member = await world.service.listing(GUILD, organiser=False)
    assert member.notices == ()
    organiser = await world.service.listing(GUILD, organiser=True)
    assert [s.id for s in organiser.notices] == [session.id]
    assert (await world.service.listing(GUILD, organiser=True)).notices == ()


# -- reminders ---------------------------------------------------------------------------------


async def test_each_reminder_is_posted_once_when_due(world: World) -> None:
    session = await world.schedule()
    assert await world.reminders.tick() == []
    world.clock.now = STARTS - timedelta(hours=24)
    [day] = await world.reminders.tick()
    assert (day.session_id, day.offset_minutes, day.outcome) == (session.id, 1440,
                                                                 ReminderOutcome.POSTED)
    world.clock.advance(minutes=30)
    assert await world.reminders.tick() == []
    world.clock.now = STARTS - timedelta(minutes=59)
    assert [s.offset_minutes for s in await world.reminders.tick()] == [60]
    assert await world.reminders.tick() == []
    thread = session.thread_id or 0
    assert [(r.offset_minutes, r.late) for r in world.poster.reminders(thread)] == [
        (1440, False), (60, False)]
    posts = world.channels.in_channel(thread)
    assert [(p.nonce, p.marker) for p in posts] == [
        (reminder_nonce(session.id, 1, m), reminder_marker(session, m)) for m in (1440, 60)]
    ledger = await world.sessions.reminders(session.id, 1)
    assert [(e.offset_minutes, e.status, e.message_id) for e in ledger] == [
        (1440, ReminderStatus.POSTED, posts[0].message_id),
        (60, ReminderStatus.POSTED, posts[1].message_id)]


async def test_missed_reminders_are_skipped_with_the_reason_or_posted_late(
        world: World) -> None:
    session = await world.schedule()
    world.clock.now = STARTS - timedelta(hours=3)  # the day-before reminder is 21 h late
    [skipped] = await world.reminders.tick()
    assert skipped.outcome is ReminderOutcome.SKIPPED
    assert skipped.reason == Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 120})
    world.clock.now = STARTS - timedelta(minutes=30)
    [late] = await world.reminders.tick()
    assert (late.offset_minutes, late.outcome) == (60, ReminderOutcome.POSTED)
    assert [r.late for r in world.poster.reminders(session.thread_id or 0)] == [True]
    other = await world.schedule(when="2026-12-10 18:00")
    world.clock.now = other.starts_at + timedelta(minutes=1)
    outcomes = {(s.offset_minutes, s.reason.code if s.reason else None)
                for s in await world.reminders.tick() if s.session_id == other.id}
    assert outcomes == {(1440, ReasonCode.LATER_REMINDER_DUE),
                        (60, ReasonCode.SESSION_STARTED)}


async def test_a_deleted_thread_fails_the_reminder_with_its_reason_and_stops_the_rest(
        world: World) -> None:
    session = await world.schedule()
    world.channels.gone.add(session.thread_id or 0)
    world.clock.now = STARTS - timedelta(hours=24)
    [failed] = await world.reminders.tick()
    assert (failed.outcome, failed.reason) == (ReminderOutcome.FAILED,
                                               Reason(ReasonCode.CHANNEL_MISSING))
    [entry] = await world.sessions.reminders(session.id, 1)
    assert (entry.status, entry.reason) == (ReminderStatus.FAILED,
                                            Reason(ReasonCode.CHANNEL_MISSING))
    world.clock.now = STARTS - timedelta(minutes=59)
    assert await world.reminders.tick() == []
    assert [s.id for s in await world.service.take_problems(GUILD)] == [session.id]
    assert await world.service.take_problems(GUILD) == []


async def test_a_passing_failure_is_recorded_and_the_next_reminder_still_goes(
        world: World) -> None:
    session = await world.schedule()
    world.channels.script("remind", Refuse(refused(ReasonCode.DISCORD_ERROR)))
    world.clock.now = STARTS - timedelta(hours=24)
    [failed] = await world.reminders.tick()
    assert (failed.outcome, failed.reason) == (ReminderOutcome.FAILED,
                                               Reason(ReasonCode.DISCORD_ERROR))
    assert await world.reminders.tick() == []  # recorded as failed: never retried
    [entry] = await world.sessions.reminders(session.id, 1)
    assert (entry.status, entry.reason) == (ReminderStatus.FAILED,
                                            Reason(ReasonCode.DISCORD_ERROR))
    world.clock.now = STARTS - timedelta(minutes=59)
    assert [s.outcome for s in await world.reminders.tick()] == [ReminderOutcome.POSTED]
    assert await world.service.take_problems(GUILD) == []


async def test_a_paper_gone_from_the_catalog_stops_the_reminders(world: World) -> None:
    session = await world.schedule()
    await drop_paper(world.papers, PAPER.id)
    world.clock.now = STARTS - timedelta(hours=24)
    [failed] = await world.reminders.tick()
    assert failed.reason == Reason(ReasonCode.PAPER_LEFT_CATALOG)
    assert world.channels.in_channel(session.thread_id or 0) == []
    [problem] = await world.service.take_problems(GUILD)
    assert problem.problem == Reason(ReasonCode.PAPER_LEFT_CATALOG)


async def test_a_crashed_claim_is_found_in_the_thread_not_posted_again(world: World) -> None:
    session = await world.schedule()
    world.clock.now = STARTS - timedelta(hours=24)
    nonce = reminder_nonce(session.id, 1, 1440)
    entry = await world.sessions.claim_reminder(session.id, 1, 1440, nonce,
                                                lease=Lease("crashed", world.clock()))
    assert entry is not None  # claimed and sent by a process that died before recording it
    thread = session.thread_id or 0
    sent = await world.channels.send("remind", thread, nonce, reminder_marker(session, 1440),
                                     "sent before the crash")
    world.clock.advance(seconds=1)
    [resumed] = await world.reminders.tick()
    assert resumed.outcome is ReminderOutcome.POSTED
    assert [p.message_id for p in world.channels.in_channel(thread)] == [sent]
    [row] = await world.sessions.reminders(session.id, 1)
    assert (row.status, row.message_id) == (ReminderStatus.POSTED, sent)


async def test_a_claim_another_process_holds_is_left_alone(world: World) -> None:
    session = await world.schedule()
    world.clock.now = STARTS - timedelta(hours=24)
    nonce = reminder_nonce(session.id, 1, 1440)
    await world.sessions.claim_reminder(
        session.id, 1, 1440, nonce, lease=Lease("there", world.clock() + timedelta(minutes=5)))
    assert await world.reminders.tick() == []
    assert world.channels.in_channel(session.thread_id or 0) == []
    world.clock.advance(minutes=6)  # its owner died: the lease expired
    [taken] = await world.reminders.tick()
    assert taken.outcome is ReminderOutcome.POSTED
    assert len(world.poster.reminders(session.thread_id or 0)) == 1


async def test_a_moved_session_gets_its_reminders_again(world: World) -> None:
    session = await world.schedule()
    world.clock.now = STARTS - timedelta(minutes=59)
    await world.reminders.tick()
    await world.service.move(GUILD, session.id, "2026-12-03 19:00")
    world.clock.now = STARTS  # an hour before the new start
    posted_now = [s for s in await world.reminders.tick()
                  if s.outcome is ReminderOutcome.POSTED]
    assert [(s.session_id, s.offset_minutes) for s in posted_now] == [(session.id, 60)]
    posted = world.poster.reminders(session.thread_id or 0)
    assert [(r.session.revision, r.offset_minutes) for r in posted] == [(1, 60), (2, 60)]
