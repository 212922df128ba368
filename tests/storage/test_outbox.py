"""The outbox: leases keep a unit to one process, an expired lease is taken over, completing
records the members as told, and nobody is queued twice; on both backends."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from pathlib import Path

from domain.digest import Claim
from domain.leases import Lease
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from domain.shards import Shards
from storage.backend import OUTBOX
from storage.sqlite.database import Database
from tests.backends import Backend, enqueue, queued


def _dm(user: int, paper: str = "p", guild: int = 10) -> OutboxUnit:
    return OutboxUnit(f"dm:{guild}:{paper}:{user}", OutboxKind.DIGEST_DM,
                      (OutboxEntry(guild, user, paper, ("grokking",), link="https://x"),))


def _mention(guild: int, paper: str, users: range) -> OutboxUnit:
    return OutboxUnit(f"mention:{guild}:{paper}", OutboxKind.MENTION,
                      tuple(OutboxEntry(guild, user, paper, channel_id=5) for user in users))


async def test_a_unit_is_leased_to_one_owner_until_its_lease_expires(backend: Backend) -> None:
    store = backend.outbox()
    assert await enqueue(backend.db, [_dm(1), _dm(2)]) == 2
    first = await store.claim("a", now=100, lease_until=160)
    second = await store.claim("b", now=100, lease_until=160)
    assert first is not None and second is not None and first.key != second.key
    assert await store.claim("c", now=150, lease_until=210) is None
    taken_over = await store.claim("c", now=161, lease_until=221)
    assert taken_over is not None and taken_over.key == first.key and taken_over.attempts == 2
    assert await store.complete(first.key, "a") == 0  # "a" lost its lease: it records nothing
    assert await store.complete(first.key, "c") == 1
    assert await queued(backend.db) == 1


async def test_completing_records_the_members_and_they_are_never_queued_again(
        backend: Backend) -> None:
    store, subscriptions = backend.outbox(), backend.subscriptions()
    mention = OutboxUnit("mention:10:p:t:0", OutboxKind.MENTION,
                         tuple(OutboxEntry(10, user, "p", channel_id=5) for user in (3, 4)))
    assert await enqueue(backend.db, [mention, _dm(1)]) == 3
    assert await enqueue(backend.db, [_dm(1)]) == 0  # already queued
    claimed = []
    while (unit := await store.claim("a", now=0, lease_until=60)) is not None:
        claimed.append(unit)
        await store.complete(unit.key, "a")
    assert claimed[0] == OutboxUnit(mention.key, mention.kind, mention.entries)  # oldest first
    assert await subscriptions.notified(10, "p") == {1, 3, 4}
    assert await enqueue(backend.db, [_dm(1), _dm(3)]) == 0  # already told
    assert await enqueue(backend.db, [_dm(1, guild=11)]) == 1  # another server


async def test_release_retry_drop_and_forget(backend: Backend) -> None:
    store = backend.outbox()
    await enqueue(backend.db, [_dm(1), _dm(2), _dm(1, paper="q")])
    unit = await store.claim("a", now=0, lease_until=60)
    assert unit is not None
    await store.retry_later(unit.key, "a", not_before=30)
    assert (await store.claim("b", now=10, lease_until=70)).key != unit.key  # type: ignore[union-attr]
    assert await store.release("b") == 1
    assert await store.drop_dms(1) == 2
    await backend.subscriptions().forget(2)
    assert await queued(backend.db) == 0
    assert await backend.subscriptions().notified(10, "p") == set()


async def test_a_dropped_unit_records_nobody_and_only_its_holder_drops_it(
        backend: Backend) -> None:
    store = backend.outbox()
    await enqueue(backend.db, [_mention(10, "p", range(1, 4))])
    unit = await store.claim("a", now=0, lease_until=60)
    assert unit is not None and len(unit.entries) == 3
    assert await store.drop(unit.key, "b") == 0
    assert await store.drop(unit.key, "a") == 3
    assert await queued(backend.db) == 0
    assert await backend.subscriptions().notified(10, "p") == set()


async def test_concurrent_claims_take_whole_units_each_once(backend: Backend) -> None:
    """Many claims at once (a pool of connections on PostgreSQL): every unit is claimed by
    exactly one claimer, whole, and nobody waits on anybody else's unit."""
    store = backend.outbox()
    units = [_mention(10 + n, "p", range(1, 2 + n % 4)) for n in range(40)]
    await enqueue(backend.db, units)
    claims = await asyncio.gather(*(store.claim(f"w{n}", now=0, lease_until=60)
                                    for n in range(60)))
    won = [unit for unit in claims if unit is not None]
    assert len({unit.key for unit in won}) == len(won) >= 1
    while (unit := await store.claim("late", now=0, lease_until=60)) is not None:
        won.append(unit)
    assert sorted(u.key for u in won) == sorted(u.key for u in units)
    assert {u.key: len(u.entries) for u in won} == {u.key: len(u.entries) for u in units}


async def test_a_claim_takes_only_units_of_servers_on_its_shards(backend: Backend) -> None:
    store = backend.outbox()
    guilds = [(n << 22) | 99 for n in range(6)]  # shard n % 3 of 3
    await enqueue(backend.db, [_dm(1, guild=g) for g in guilds])
    shards = Shards(3, (1,))
    keys = []
    while (unit := await store.claim("a", 100, 160, shards)) is not None:
        keys.append(unit.key)
    assert keys == [_dm(1, guild=g).key for g in guilds if shards.owns(g)] == \
        [_dm(1, guild=guilds[1]).key, _dm(1, guild=guilds[4]).key]
    assert await queued(backend.db) == 6


async def test_two_connections_never_claim_the_same_unit(tmp_path: Path) -> None:
    """SQLite: two processes' connections on one file."""
    one = await Database.open(tmp_path / "shared.db")
    two = await Database.open(tmp_path / "shared.db")
    try:
        await enqueue(one, [_dm(n) for n in range(30)])
        claimed: list[str] = []
        for _ in range(15):
            for db, owner in ((one, "one"), (two, "two")):
                unit = await OUTBOX.open(db).claim(owner, now=0, lease_until=60)
                assert unit is not None
                claimed.append(unit.key)
        assert len(set(claimed)) == 30
    finally:
        await one.close()
        await two.close()


async def test_a_posts_followers_are_queued_once_with_its_pings_recorded(
        backend: Backend) -> None:
    """One transaction marks the ledger row, records the post's pings and queues the rest: of
    concurrent tries one writes, later tries write nothing, a row not posted is refused."""
    digests, store, subscriptions = backend.digests(), backend.outbox(), backend.subscriptions()
    day = date(2026, 11, 30)
    lease = Lease("host:1:start", datetime(2026, 11, 30, 8, 5, tzinfo=UTC))
    await digests.claim(10, day, Claim("p", 1, 1, 30, "n", 5, late=False, lease=lease))
    units = [_mention(10, "p", range(3, 5)), _dm(1)]
    assert await store.queue_followers(10, day, "p", [7, 8], units) is None  # only claimed
    await digests.mark_posted(10, day, message_id=99)
    entry = await digests.entry(10, day)
    assert entry is not None and not entry.followers_queued
    results = await asyncio.gather(*(store.queue_followers(10, day, "p", [7, 8], units)
                                     for _ in range(4)))
    assert sorted(results, key=str) == [3, None, None, None]
    assert await subscriptions.notified(10, "p") == {7, 8}
    assert await queued(backend.db) == 3
    entry = await digests.entry(10, day)
    assert entry is not None and entry.followers_queued
