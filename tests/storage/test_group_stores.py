"""The reading group's stores on both backends: queue order and support, votes claimed once,
the presenter rotation, sessions and their reminder ledger, reading lists, history, forgetting."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from domain.group import Bookmark, SuggestOutcome
from domain.leases import Lease
from domain.reasons import Reason, ReasonCode
from domain.sessions import GroupSettings, Place, ReminderStatus, SessionStatus
from domain.votes import VoteOption, VoteStatus
from tests.backends import Backend

T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def _lease(owner: str, until: datetime = T0 + MINUTE) -> Lease:
    return Lease(owner, until)


async def test_queue_orders_by_support_then_age_and_counts_each_member_once(
        backend: Backend) -> None:
    queue = backend.queue()
    assert await queue.suggest(1, "aaa", 10, "first", T0) == "added"
    assert await queue.suggest(1, "bbb", 11, "", T0 + timedelta(minutes=1)) == "added"
    assert await queue.suggest(1, "ccc", 12, "", T0 + timedelta(minutes=2)) == "added"
    assert await queue.suggest(1, "ccc", 10, "", T0 + timedelta(minutes=3)) == "supported"
    assert await queue.suggest(1, "ccc", 10, "", T0 + timedelta(minutes=4)) == "already"
    assert await queue.suggest(2, "bbb", 10, "", T0) == "added"
    order = [item.paper_id for item in await queue.queue(1)]
    assert order == ["ccc", "aaa", "bbb"]
    (top, *_) = await queue.queue(1)
    assert top.suggested_by == 12 and top.support == 2
    assert [i.paper_id for i in await queue.queue(2)] == ["bbb"]


async def test_members_suggesting_one_paper_at_once_add_it_once(backend: Backend) -> None:
    queue = backend.queue()
    outcomes = await asyncio.gather(*(queue.suggest(1, "aaa", user, "", T0)
                                      for user in range(10, 18)))
    assert sorted(outcomes) == [SuggestOutcome.ADDED] + [SuggestOutcome.SUPPORTED] * 7
    item = await queue.item(1, "aaa")
    assert item is not None and item.support == 8


async def test_forget_anonymises_suggestions_and_keeps_the_paper_queued(
        backend: Backend) -> None:
    queue = backend.queue()
    await queue.suggest(1, "aaa", 10, "my reason", T0)
    await queue.suggest(1, "aaa", 11, "", T0 + timedelta(minutes=1))
    assert await queue.forget(10) == 1
    item = await queue.item(1, "aaa")
    assert item is not None and item.support == 2
    assert item.suggested_by is None and item.supporters[0].note == ""
    assert await queue.withdraw(1, "aaa", 11)
    assert not await queue.withdraw(1, "aaa", 11)
    assert await queue.remove(1, "aaa") and await queue.item(1, "aaa") is None
    assert not await queue.remove(1, "aaa")


async def test_a_vote_is_claimed_once_and_one_live_vote_per_server(backend: Backend) -> None:
    votes = backend.votes()
    options = [VoteOption(1, "aaa", 1, T0), VoteOption(2, "bbb", 2, T0)]
    vote = await votes.open(1, 5, 10, T0, T0 + timedelta(hours=1), options)
    assert vote is not None and vote.options == tuple(options)
    assert await votes.open(1, 5, 10, T0, T0, options) is None
    assert await votes.open(2, 6, 10, T0, T0 + timedelta(hours=2), options) is not None
    await votes.set_message(vote.id, 77)
    assert (await votes.live(1)) == (await votes.get(vote.id)) != vote  # message id now set
    assert await votes.cast(vote.id, 11, "aaa", T0) == "cast"
    assert await votes.cast(vote.id, 11, "aaa", T0) == "same"
    assert await votes.cast(vote.id, 11, "bbb", T0) == "changed"
    assert await votes.cast(vote.id, 11, "zzz", T0) == "unknown"
    assert await votes.ballots(vote.id) == {11: "bbb"}
    assert await votes.due(T0) == [] and len(await votes.due(T0 + timedelta(hours=1))) == 1
    assert (await votes.get(vote.id)).claimed_at is None  # type: ignore[union-attr]
    claimed_at = T0 + timedelta(hours=1, seconds=3)
    assert await votes.claim(vote.id, "bbb", "n", claimed_at, early=False, lease=_lease("a"))
    assert not await votes.claim(vote.id, "bbb", "n", T0, early=False, lease=_lease("b"))
    assert await votes.cast(vote.id, 12, "aaa", T0) == "closed"
    assert [(v.id, v.claimed_at) for v in await votes.unfinished()] == [(vote.id, claimed_at)]
    await votes.mark_announced(vote.id, 99, T0)
    assert await votes.unfinished() == [] and await votes.live(1) is None
    latest = await votes.latest(1)
    assert latest is not None and (latest.status, latest.winner, latest.announcement_id) == (
        VoteStatus.ANNOUNCED, "bbb", 99)
    assert await votes.forget(11) == 1 and await votes.ballots(vote.id) == {}
    assert (await votes.get(vote.id)).created_by == 10  # type: ignore[union-attr]
    await votes.forget(10)
    assert (await votes.get(vote.id)).created_by is None  # type: ignore[union-attr]


async def test_concurrent_closes_claim_a_vote_once(backend: Backend) -> None:
    votes = backend.votes()
    options = [VoteOption(1, "aaa", 1, T0), VoteOption(2, "bbb", 2, T0)]
    vote = await votes.open(1, 5, 10, T0, T0, options)
    assert vote is not None
    wins = await asyncio.gather(*(votes.claim(vote.id, "aaa", f"n{n}", T0, early=True,
                                              lease=_lease(f"p{n}")) for n in range(8)))
    assert wins.count(True) == 1
    await votes.mark_failed(vote.id, Reason(ReasonCode.CHANNEL_MISSING), T0)
    failed = await votes.get(vote.id)
    assert failed is not None and failed.status == VoteStatus.FAILED
    assert failed.reason == Reason(ReasonCode.CHANNEL_MISSING) and failed.closed_early


async def test_settings_default_and_round_trip(backend: Backend) -> None:
    groups = backend.groups()
    assert await groups.settings(1) == GroupSettings(1)
    await groups.set_organiser_role(1, 555)
    await groups.set_timezone(1, "Asia/Taipei")
    await groups.set_reminders(1, (1440, 30))
    assert await groups.settings(1) == GroupSettings(1, 555, "Asia/Taipei", (1440, 30))
    await groups.set_organiser_role(1, None)
    assert (await groups.settings(1)).organiser_role_id is None
    assert await groups.settings(2) == GroupSettings(2)


async def test_the_rotation_turns_skips_and_swaps(backend: Backend) -> None:
    groups = backend.groups()
    for user in (7, 8, 9):
        assert await groups.volunteer(1, user)
    assert not await groups.volunteer(1, 7)
    assert await groups.rotation(1) == (0, None)
    assert await groups.take_turn(1, 7) == 1
    assert await groups.take_turn(1, 8) == 2
    assert await groups.rotation(1) == (2, 8)
    places = {v.user_id: (v.joined, v.last_turn, v.presented) for v in await groups.volunteers(1)}
    assert places == {7: (1, 1, 1), 8: (2, 2, 1), 9: (3, None, 0)}
    assert await groups.skip_turn(1, 9) and not await groups.skip_turn(1, 99)
    assert await groups.swap(1, 7, 9)
    assert not await groups.swap(1, 7, 99) and not await groups.swap(1, 7, 7)
    turns = {v.user_id: v.last_turn for v in await groups.volunteers(1)}
    assert turns == {7: 2, 8: 2, 9: 1}
    assert await groups.withdraw(1, 8) and not await groups.withdraw(1, 8)
    assert [v.user_id for v in await groups.volunteers(1)] == [7, 9]


async def test_forget_takes_a_member_out_of_every_rotation(backend: Backend) -> None:
    groups = backend.groups()
    for guild in (1, 2):
        assert await groups.volunteer(guild, 7)
        assert await groups.volunteer(guild, 8)
    assert await groups.forget(7) == 2
    assert await groups.forget(7) == 0  # safe to repeat
    for guild in (1, 2):
        assert [v.user_id for v in await groups.volunteers(guild)] == [8]


async def test_sessions_round_trip_move_finish_and_problems(backend: Backend) -> None:
    sessions = backend.sessions()
    first = await sessions.create(1, "aaa", T0 + timedelta(days=2), 7, Place(55, None), 9)
    second = await sessions.create(1, "bbb", T0 + timedelta(days=1), None,
                                   Place(None, "https://meet.example/x"), 9)
    other = await sessions.create(2, "ccc", T0 + timedelta(hours=1), None, Place(), 9)
    assert (first.status, first.revision, first.presenter_id) == (SessionStatus.SCHEDULED, 1, 7)
    assert await sessions.get(1, first.id) == first and await sessions.get(2, first.id) is None
    assert [s.id for s in await sessions.of_guild(1, SessionStatus.SCHEDULED)] == [
        second.id, first.id]
    await sessions.set_discord(first.id, event_id=1, message_id=2, thread_id=3)
    await sessions.move(first.id, T0 + timedelta(hours=2))
    moved = await sessions.get(1, first.id)
    assert moved is not None and (moved.revision, moved.event_id, moved.thread_id) == (2, 1, 3)
    assert moved.starts_at == T0 + timedelta(hours=2)
    assert [s.id for s in await sessions.scheduled_before(T0 + timedelta(hours=3))] == [
        first.id, other.id]
    await sessions.finish(second.id, SessionStatus.DONE, "good talk")
    done = await sessions.of_guild(1, SessionStatus.DONE)
    assert [(s.id, s.notes) for s in done] == [(second.id, "good talk")]
    await sessions.delete(2, other.id)
    assert await sessions.get(2, other.id) is None
    assert await sessions.report_problem(first.id, Reason(ReasonCode.CHANNEL_MISSING))
    assert not await sessions.report_problem(first.id, Reason(ReasonCode.NO_PERMISSION))
    told = await asyncio.gather(*(sessions.take_problems(1) for _ in range(4)))
    assert sorted(len(t) for t in told) == [0, 0, 0, 1]
    assert [s.problem for t in told for s in t] == [Reason(ReasonCode.CHANNEL_MISSING)]


async def test_a_reminder_is_claimed_once_even_concurrently(backend: Backend) -> None:
    sessions = backend.sessions()
    session = await sessions.create(1, "aaa", T0, None, Place(), 9)
    claims = await asyncio.gather(*(sessions.claim_reminder(session.id, 1, 30, f"n{n}",
                                                            lease=_lease(f"p{n}"))
                                     for n in range(8)))
    won = [c for c in claims if c is not None]
    assert len(won) == 1 and won[0].status == ReminderStatus.CLAIMED
    await sessions.finish_reminder(won[0], ReminderStatus.POSTED, message_id=123)
    skipped = Reason(ReasonCode.CHANNEL_MISSING)
    assert await sessions.skip_reminders(session.id, 1, [(30, skipped), (1440, skipped)]) == 1
    assert await sessions.skip_reminders(session.id, 1, []) == 0
    rows = await sessions.reminders(session.id, 1)
    assert [(r.offset_minutes, r.status, r.message_id, r.reason) for r in rows] == [
        (1440, ReminderStatus.SKIPPED, None, skipped), (30, ReminderStatus.POSTED, 123, None)]
    assert await sessions.reminders(session.id, 2) == []


async def test_a_claimed_reminder_is_resumed_only_under_a_lease(backend: Backend) -> None:
    """The claimer's lease keeps others off until it expires; then one taker wins it; a
    finished reminder is nobody's to resume."""
    sessions = backend.sessions()
    session = await sessions.create(1, "aaa", T0, None, Place(), 9)
    entry = await sessions.claim_reminder(session.id, 1, 30, "n", lease=_lease("a"))
    assert entry is not None
    assert not await sessions.hold_reminder(entry, _lease("b", T0 + 2 * MINUTE), T0)
    assert await sessions.hold_reminder(entry, _lease("a", T0 + 2 * MINUTE), T0)  # renewed
    expired = T0 + 2 * MINUTE
    takers = await asyncio.gather(*(
        sessions.hold_reminder(entry, _lease(f"p{n}", expired + MINUTE), expired)
        for n in range(6)))
    assert takers.count(True) == 1
    await sessions.finish_reminder(entry, ReminderStatus.POSTED, message_id=5)
    assert not await sessions.hold_reminder(entry, _lease("z", expired + 9 * MINUTE),
                                            expired + MINUTE)
    await sessions.finish_reminder(entry, ReminderStatus.FAILED,  # a's late answer
                                   reason=Reason(ReasonCode.NO_ACCESS))
    [posted] = await sessions.reminders(session.id, 1)
    assert (posted.status, posted.message_id, posted.reason) == (ReminderStatus.POSTED, 5, None)


async def test_a_claimed_vote_close_is_resumed_only_under_a_lease(backend: Backend) -> None:
    votes = backend.votes()
    vote = await votes.open(1, 5, 10, T0, T0, [VoteOption(1, "aaa", 1, T0),
                                                VoteOption(2, "bbb", 2, T0)])
    assert vote is not None
    assert not await votes.hold(vote.id, _lease("a"), T0)  # open: nothing to resume
    assert await votes.claim(vote.id, "aaa", "n", T0, early=False, lease=_lease("a"))
    assert not await votes.hold(vote.id, _lease("b", T0 + 2 * MINUTE), T0)
    assert await votes.hold(vote.id, _lease("a", T0 + 2 * MINUTE), T0)
    expired = T0 + 2 * MINUTE
    takers = await asyncio.gather(*(votes.hold(vote.id, _lease(f"p{n}", expired + MINUTE),
                                               expired) for n in range(6)))
    assert takers.count(True) == 1
    await votes.mark_announced(vote.id, 99, expired)
    assert not await votes.hold(vote.id, _lease("z", expired + 9 * MINUTE), expired + MINUTE)


async def test_a_claimed_vote_close_is_renewed_by_its_owner_and_taken_only_after_its_lease(
        backend: Backend) -> None:
    """A renewal moves the lease on (the claim stays the owner's past its first expiry); once
    it lapses another process takes it and the former owner's renewal is refused; an
    announced close is nobody's, and a refusal answered late does not undo it."""
    votes = backend.votes()
    vote = await votes.open(1, 5, 10, T0, T0, [VoteOption(1, "aaa", 1, T0),
                                                VoteOption(2, "bbb", 2, T0)])
    assert vote is not None
    assert await votes.claim(vote.id, "aaa", "n", T0, early=False, lease=_lease("a"))
    assert await votes.hold(vote.id, _lease("a", T0 + 3 * MINUTE), T0 + MINUTE / 2)  # renewed
    assert not await votes.hold(vote.id, _lease("b", T0 + 5 * MINUTE), T0 + MINUTE)  # a's
    lapsed = T0 + 3 * MINUTE
    assert await votes.hold(vote.id, _lease("b", T0 + 5 * MINUTE), lapsed)  # taken over
    assert not await votes.hold(vote.id, _lease("a", T0 + 6 * MINUTE), lapsed)  # a gives up
    assert await votes.hold(vote.id, _lease("b", T0 + 6 * MINUTE), lapsed)  # b renews
    await votes.mark_announced(vote.id, 99, lapsed)
    assert not await votes.hold(vote.id, _lease("b", T0 + 9 * MINUTE), lapsed)  # done
    await votes.mark_failed(vote.id, Reason(ReasonCode.NO_ACCESS), lapsed)  # a's late answer
    announced = await votes.get(vote.id)
    assert announced is not None and announced.status is VoteStatus.ANNOUNCED
    assert (announced.announcement_id, announced.reason) == (99, None)


async def test_bookmarks_per_member_and_server(backend: Backend) -> None:
    bookmarks = backend.bookmarks()
    assert await bookmarks.add(Bookmark(1, 7, "aaa", T0))
    assert not await bookmarks.add(Bookmark(1, 7, "aaa", T0 + timedelta(minutes=1)))
    assert await bookmarks.add(Bookmark(1, 7, "bbb", T0 + timedelta(minutes=2)))
    assert await bookmarks.add(Bookmark(2, 7, "ccc", T0))
    assert await bookmarks.add(Bookmark(1, 8, "aaa", T0))
    assert [(b.paper_id, b.at) for b in await bookmarks.of_member(1, 7)] == [
        ("bbb", T0 + timedelta(minutes=2)), ("aaa", T0)]
    assert await bookmarks.remove(1, 7, "bbb") and not await bookmarks.remove(1, 7, "bbb")
    assert await bookmarks.forget(7) == 2
    assert await bookmarks.of_member(1, 7) == [] and len(await bookmarks.of_member(1, 8)) == 1


async def test_history_newest_first_and_forgetting_keeps_the_record(backend: Backend) -> None:
    history = backend.history()
    await history.record_discussed(1, "aaa", T0, 7, "notes", 99)
    await history.record_discussed(1, "bbb", T0 + timedelta(days=7), None, "", None)
    await history.record_discussed(1, "aaa", T0 + timedelta(days=14), 8, "again", None)
    await history.record_discussed(2, "ccc", T0, 7, "", None)
    rows = await history.history(1)
    assert [(d.paper_id, d.when, d.presenter_id) for d in rows] == [
        ("aaa", T0 + timedelta(days=14), 8), ("bbb", T0 + timedelta(days=7), None),
        ("aaa", T0, 7)]
    assert await history.discussed_ids(1) == {"aaa", "bbb"}
    assert await history.discussed_ids(3) == set()
    assert await history.forget(7) == 2
    assert [d.presenter_id for d in await history.history(1)] == [8, None, None]
    assert len(await history.history(2)) == 1
