"""The outbox: leases keep a unit to one process, an expired lease is taken over, completing
records the members as told, and nobody is queued twice."""

from __future__ import annotations

from pathlib import Path

from bot.core.outbox_types import OutboxEntry, OutboxKind, OutboxUnit
from storage.database import Database
from storage.outbox import SqliteOutboxStore
from storage.subscriptions import SqliteSubscriptionStore


def _dm(user: int, paper: str = "p", guild: int = 10) -> OutboxUnit:
    return OutboxUnit(f"dm:{guild}:{paper}:{user}", OutboxKind.DIGEST_DM,
                      (OutboxEntry(guild, user, paper, ("grokking",), link="https://x"),))


async def test_a_unit_is_leased_to_one_owner_until_its_lease_expires(db: Database) -> None:
    store = SqliteOutboxStore(db)
    assert await store.enqueue([_dm(1), _dm(2)]) == 2
    first = await store.claim("a", now=100, lease_until=160)
    second = await store.claim("b", now=100, lease_until=160)
    assert first is not None and second is not None and first.key != second.key
    assert await store.claim("c", now=150, lease_until=210) is None
    taken_over = await store.claim("c", now=161, lease_until=221)
    assert taken_over is not None and taken_over.key == first.key and taken_over.attempts == 2
    assert await store.complete(first.key, "a") == 0  # "a" lost its lease: it records nothing
    assert await store.complete(first.key, "c") == 1
    assert await store.pending() == 1


async def test_completing_records_the_members_and_they_are_never_queued_again(
        db: Database) -> None:
    store = SqliteOutboxStore(db)
    subscriptions = SqliteSubscriptionStore(db)
    mention = OutboxUnit("mention:10:p:t:0", OutboxKind.MENTION,
                         tuple(OutboxEntry(10, user, "p", channel_id=5) for user in (3, 4)))
    assert await store.enqueue([mention, _dm(1)]) == 3
    assert await store.enqueue([_dm(1)]) == 0  # already queued
    while (unit := await store.claim("a", now=0, lease_until=60)) is not None:
        await store.complete(unit.key, "a")
    assert await subscriptions.notified(10, "p") == {1, 3, 4}
    assert await store.enqueue([_dm(1), _dm(3)]) == 0  # already told
    assert await store.enqueue([_dm(1, guild=11)]) == 1  # another server


async def test_release_retry_drop_and_forget(db: Database) -> None:
    store = SqliteOutboxStore(db)
    await store.enqueue([_dm(1), _dm(2), _dm(1, paper="q")])
    unit = await store.claim("a", now=0, lease_until=60)
    assert unit is not None
    await store.retry_later(unit.key, "a", not_before=30)
    assert (await store.claim("b", now=10, lease_until=70)).key != unit.key  # type: ignore[union-attr]
    assert await store.release("b") == 1
    assert await store.drop_dms(1) == 2
    await SqliteSubscriptionStore(db).forget(2)
    assert await store.pending() == 0
    assert await SqliteSubscriptionStore(db).notified(10, "p") == set()


async def test_two_connections_never_claim_the_same_unit(tmp_path: Path) -> None:
    one = await Database.open(tmp_path / "shared.db")
    two = await Database.open(tmp_path / "shared.db")
    try:
        await SqliteOutboxStore(one).enqueue([_dm(n) for n in range(30)])
        claimed: list[str] = []
        for _ in range(15):
            for db, owner in ((one, "one"), (two, "two")):
                unit = await SqliteOutboxStore(db).claim(owner, now=0, lease_until=60)
                assert unit is not None
                claimed.append(unit.key)
        assert len(set(claimed)) == 30
    finally:
        await one.close()
        await two.close()
