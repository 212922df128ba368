"""Subscriptions storage: duplicates, the 25-topic limit, DM pauses, forgetting (the
notification ledger is written by the outbox: tests/storage/test_outbox.py)."""

from __future__ import annotations

from domain.reasons import Reason, ReasonCode
from domain.subscriptions import AddResult, Delivery, Subscription
from tests.backends import Backend

_TOLD = ("INSERT INTO notifications (guild_id, user_id, paper_id, via, notified_at) "
         "VALUES (?, ?, ?, ?, ?)")


def _sub(topic: str, user: int = 1, guild: int = 10,
         delivery: Delivery = Delivery.DM) -> Subscription:
    return Subscription(guild, user, topic, topic.casefold(), delivery)


async def test_add_refuses_duplicates_and_the_26th_topic(backend: Backend) -> None:
    store = backend.subscriptions()
    assert await store.add(_sub("Grokking")) is AddResult.ADDED
    assert await store.add(_sub("grokking")) is AddResult.DUPLICATE
    for n in range(24):
        assert await store.add(_sub(f"t{n}")) is AddResult.ADDED
    assert await store.add(_sub("one too many")) is AddResult.LIMIT
    assert await store.add(_sub("one too many", guild=11)) is AddResult.ADDED
    assert len(await store.of_member(10, 1)) == 25


async def test_dm_pause_resume_and_forget_everywhere(backend: Backend) -> None:
    store = backend.subscriptions()
    await store.add(_sub("a"))
    await store.add(_sub("b", guild=11))
    await store.add(_sub("a", user=2))
    await backend.execute(_TOLD, 10, 1, "p", "dm", "2026-12-01T00:00:00+00:00")
    await store.pause_dms(1, Reason(ReasonCode.DMS_CLOSED))
    assert await store.paused_dm_users([1, 2]) == {1}
    assert await store.dm_pause(1) == Reason(ReasonCode.DMS_CLOSED)
    gone = await store.forget(1)
    assert (gone.subscriptions, gone.notifications) == (2, 1)
    assert await store.dm_pause(1) is None
    again = await store.forget(1)
    assert (again.subscriptions, again.notifications) == (0, 0)
    assert [s.user_id for s in await store.in_guild(10)] == [2]
    assert await store.resume_dms(2) is False


async def test_topic_counts_and_followers(backend: Backend) -> None:
    store = backend.subscriptions()
    for user in (1, 2, 3):
        await store.add(_sub("grokking", user=user))
    await store.add(_sub("distillation", user=1))
    assert await store.topic_counts(10) == [("grokking", 3), ("distillation", 1)]
    assert await store.followers(10, "grokking") == [1, 2, 3]
    assert sorted(await store.guilds_with_subscriptions()) == [10]


async def test_adding_a_followed_topic_with_another_delivery_changes_it(backend: Backend) -> None:
    store = backend.subscriptions()
    assert await store.add(_sub("Grokking")) is AddResult.ADDED
    assert await store.add(_sub("grokking", delivery=Delivery.MENTION)) \
        is AddResult.DELIVERY_CHANGED
    assert await store.add(_sub("grokking", delivery=Delivery.MENTION)) is AddResult.DUPLICATE
    (followed,) = await store.of_member(10, 1)
    assert (followed.topic, followed.delivery) == ("Grokking", Delivery.MENTION)


async def test_remove_takes_one_topic_of_one_member_in_one_server(backend: Backend) -> None:
    store = backend.subscriptions()
    await store.add(_sub("Grokking"))
    await store.add(_sub("Distillation"))
    await store.add(_sub("Grokking", user=2))
    await store.add(_sub("Grokking", guild=11))
    assert await store.remove(10, 1, "grokking") is True
    assert [s.topic for s in await store.of_member(10, 1)] == ["Distillation"]
    assert await store.followers(10, "grokking") == [2]  # the other member keeps it
    assert [s.topic for s in await store.of_member(11, 1)] == ["Grokking"]  # other server too
    assert await store.remove(10, 1, "grokking") is False  # removed already
    assert await store.remove(10, 1, "never followed") is False
    assert await store.remove(12, 1, "distillation") is False  # not in that server
    assert await store.remove(10, 3, "distillation") is False  # not that member's


async def test_a_removed_topic_frees_its_place_under_the_limit(backend: Backend) -> None:
    store = backend.subscriptions()
    for n in range(25):
        await store.add(_sub(f"t{n}"))
    assert await store.add(_sub("one more")) is AddResult.LIMIT
    assert await store.remove(10, 1, "t0")
    assert await store.add(_sub("one more")) is AddResult.ADDED
    assert await store.add(_sub("t0")) is AddResult.LIMIT
