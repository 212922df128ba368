"""The reading group's stores: queue order and support, per-server isolation, forgetting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from storage.database import Database
from storage.groups import SqliteGroupStore
from storage.queue import SqliteQueueStore

T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


async def test_queue_orders_by_support_then_age_and_counts_each_member_once(
        db: Database) -> None:
    queue = SqliteQueueStore(db)
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


async def test_forget_anonymises_suggestions_and_keeps_the_paper_queued(db: Database) -> None:
    queue = SqliteQueueStore(db)
    await queue.suggest(1, "aaa", 10, "my reason", T0)
    await queue.suggest(1, "aaa", 11, "", T0 + timedelta(minutes=1))
    assert await queue.forget(10) == 1
    item = await queue.item(1, "aaa")
    assert item is not None and item.support == 2
    assert item.suggested_by is None and item.supporters[0].note == ""
    assert await queue.withdraw(1, "aaa", 11)
    assert await queue.remove(1, "aaa") and await queue.item(1, "aaa") is None


async def test_a_vote_is_claimed_once_and_one_live_vote_per_server(db: Database) -> None:
    from bot.core.vote_types import VoteOption
    from storage.votes import SqliteVoteStore

    votes = SqliteVoteStore(db)
    options = [VoteOption(1, "aaa", 1, T0), VoteOption(2, "bbb", 2, T0)]
    vote = await votes.open(1, 5, 10, T0, T0 + timedelta(hours=1), options)
    assert vote is not None and vote.options == tuple(options)
    assert await votes.open(1, 5, 10, T0, T0, options) is None
    assert await votes.open(2, 6, 10, T0, T0 + timedelta(hours=2), options) is not None
    assert await votes.cast(vote.id, 11, "aaa", T0) == "cast"
    assert await votes.cast(vote.id, 11, "bbb", T0) == "changed"
    assert await votes.cast(vote.id, 11, "zzz", T0) == "unknown"
    assert await votes.due(T0) == [] and len(await votes.due(T0 + timedelta(hours=1))) == 1
    assert await votes.claim(vote.id, "bbb", "n", T0, early=False)
    assert not await votes.claim(vote.id, "bbb", "n", T0, early=False)
    assert await votes.cast(vote.id, 12, "aaa", T0) == "closed"
    assert [v.id for v in await votes.unfinished()] == [vote.id]
    await votes.mark_announced(vote.id, 99, T0)
    assert await votes.unfinished() == [] and await votes.live(1) is None
    assert await votes.forget(11) == 1 and await votes.ballots(vote.id) == {}


async def test_forget_takes_a_member_out_of_every_rotation(db: Database) -> None:
    groups = SqliteGroupStore(db)
    for guild in (1, 2):
        assert await groups.volunteer(guild, 7)
        assert await groups.volunteer(guild, 8)
    assert await groups.forget(7) == 2
    assert await groups.forget(7) == 0  # safe to repeat
    for guild in (1, 2):
        assert [v.user_id for v in await groups.volunteers(guild)] == [8]
