"""The feed store on both backends: feeds per server, one poll per due query, seen ids, and
the (feed, poll) announcement ledger claimed exactly once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from domain.feeds import FeedAddStatus
from domain.leases import Lease
from domain.reasons import Reason, ReasonCode
from tests.backends import Backend

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=3)
GUILD, OTHER = 10, 20
QUERY = "cat:cs.LG AND abs:grokking"


def lease(owner: str = "a", minutes: int = 5) -> Lease:
    return Lease(owner, NOW + timedelta(minutes=minutes))


async def test_feeds_are_per_server_limited_and_never_duplicated(backend: Backend) -> None:
    store = backend.feeds()
    first = await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=2)
    assert first.status is FeedAddStatus.ADDED and first.feed is not None
    assert (first.feed.query, first.feed.channel_id, first.feed.created_by) == (QUERY, 1, 7)
    again = await store.add_feed(GUILD, QUERY, 2, 7, NOW, limit=2)
    assert again.status is FeedAddStatus.DUPLICATE and again.feed == first.feed
    await store.add_feed(GUILD, "cat:math.GT", None, 7, NOW, limit=2)
    assert (await store.add_feed(GUILD, "cat:hep-th", None, 7, NOW, limit=2)).status \
        is FeedAddStatus.LIMIT
    assert (await store.add_feed(OTHER, QUERY, None, 8, NOW, limit=2)).status \
        is FeedAddStatus.ADDED
    assert [f.query for f in await store.feeds(GUILD)] == [QUERY, "cat:math.GT"]
    assert await store.remove_feed(OTHER, first.feed.id) is None  # not that server's
    removed = await store.remove_feed(GUILD, first.feed.id)
    assert removed is not None and removed.id == first.feed.id
    assert [f.query for f in await store.feeds(GUILD)] == ["cat:math.GT"]


async def test_a_distinct_query_is_polled_once_per_interval(backend: Backend) -> None:
    store = backend.feeds()
    await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)
    await store.add_feed(OTHER, QUERY, 2, 8, NOW, limit=10)
    assert await store.due_queries(NOW) == [QUERY]
    claims = await asyncio.gather(*(store.claim_poll(QUERY, NOW, LATER) for _ in range(4)))
    won = [c for c in claims if c is not None]
    assert len(won) == 1 and won[0].number == 1 and won[0].first
    assert await store.due_queries(NOW) == []
    assert await store.claim_poll(QUERY, NOW + timedelta(hours=1), LATER) is None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    second = await store.claim_poll(QUERY, LATER, LATER + timedelta(hours=3))
    assert second is not None and second.number == 2 and not second.first


async def test_a_poll_owes_each_feed_one_announcement_of_what_is_new(backend: Backend) -> None:
    store = backend.feeds()
    one = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    two = (await store.add_feed(OTHER, QUERY, 2, 8, NOW, limit=10)).feed
    await store.add_feed(GUILD + 1, QUERY, None, 9, NOW, limit=10)  # no channel: no post
    assert one is not None and two is not None
    found = [("2401.00002", "p2"), ("2401.00001", "p1")]
    assert await store.record_poll(QUERY, 1, found, NOW) == 2
    assert await store.record_poll(QUERY, 1, found, NOW) == 0  # a duplicate record: nothing
    assert await store.seen_ids(QUERY, ["2401.00001", "2401.99999"]) == {"2401.00001"}
    assert await store.seen_ids("cat:other", ["2401.00001"]) == set()
    assert await store.record_poll(QUERY, 2, [("2401.00003", "p3"), *found], NOW) == 2
    opened = await store.open_announcements(NOW)
    assert sorted(opened) == sorted([(one.id, 1, GUILD), (two.id, 1, OTHER),
                                     (one.id, 2, GUILD), (two.id, 2, OTHER)])
    claimed = await store.claim_announcement(one.id, 2, lease(), NOW)
    assert claimed is not None and claimed.paper_ids == ("p3",) and not claimed.resumed
    assert (claimed.query, claimed.channel_id, claimed.guild_id) == (QUERY, 1, GUILD)


async def test_an_announcement_is_claimed_once_and_resumed_after_its_lease(
        backend: Backend) -> None:
    store = backend.feeds()
    feed = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    assert feed is not None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    claims = await asyncio.gather(*(store.claim_announcement(feed.id, 1, lease(owner), NOW)
                                    for owner in "abcd"))
    assert len([c for c in claims if c is not None]) == 1
    assert await store.open_announcements(NOW) == []  # the lease is live
    expired = NOW + timedelta(minutes=6)
    assert await store.open_announcements(expired) == [(feed.id, 1, GUILD)]
    resumed = await store.claim_announcement(feed.id, 1, lease("e", 20), expired)
    assert resumed is not None and resumed.resumed and resumed.claimed_at == NOW
    await store.mark_announced(feed.id, 1, 555, expired)
    assert await store.open_announcements(expired + timedelta(hours=1)) == []
    assert await store.claim_announcement(feed.id, 1, lease("f", 90), expired) is None


async def test_a_claimed_announcement_is_renewed_by_its_owner_and_taken_only_after_its_lease(
        backend: Backend) -> None:
    store = backend.feeds()
    feed = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    assert feed is not None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    assert not await store.hold_announcement(feed.id, 1, lease("a"), NOW)  # not claimed yet
    assert await store.claim_announcement(feed.id, 1, lease("a"), NOW) is not None
    soon = NOW + timedelta(minutes=4)
    assert await store.hold_announcement(feed.id, 1, lease("a", 10), soon)  # renewed
    assert not await store.hold_announcement(feed.id, 1, lease("b", 20), soon)  # a's is live
    lapsed = NOW + timedelta(minutes=11)
    assert await store.hold_announcement(feed.id, 1, lease("b", 20), lapsed)  # taken over
    assert not await store.hold_announcement(feed.id, 1, lease("a", 30), lapsed)
    await store.mark_announced(feed.id, 1, 555, lapsed)
    assert not await store.hold_announcement(feed.id, 1, lease("b", 30), lapsed)  # done


async def test_a_late_failure_leaves_another_process_post_standing(backend: Backend) -> None:
    store = backend.feeds()
    feed = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    assert feed is not None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    assert await store.claim_announcement(feed.id, 1, lease("a"), NOW) is not None
    lapsed = NOW + timedelta(minutes=11)
    assert await store.claim_announcement(feed.id, 1, lease("b", 20), lapsed) is not None
    await store.mark_announced(feed.id, 1, 555, lapsed)
    gone = Reason(ReasonCode.CHANNEL_MISSING)
    assert not await store.mark_announce_failed(feed.id, 1, gone, lapsed, pause=True)
    [still] = await store.feeds(GUILD)
    assert still.active and still.paused_reason is None
    assert await store.take_notices(GUILD) == []
    assert await store.claim_announcement(feed.id, 1, lease("c", 30), LATER) is None


async def test_a_gone_channel_pauses_the_feed_and_tells_once(backend: Backend) -> None:
    store = backend.feeds()
    feed = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    assert feed is not None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    assert await store.claim_announcement(feed.id, 1, lease(), NOW) is not None
    gone = Reason(ReasonCode.CHANNEL_MISSING)
    assert await store.mark_announce_failed(feed.id, 1, gone, NOW, pause=True)
    assert await store.open_announcements(NOW + timedelta(days=1)) == []
    assert await store.due_queries(LATER) == []  # nobody active follows it: not polled
    [paused] = await store.feeds(GUILD)
    assert paused.paused_reason == gone and not paused.active
    notices = await asyncio.gather(store.take_notices(GUILD), store.take_notices(GUILD))
    assert sorted(len(n) for n in notices) == [0, 1]
    assert next(n for n in notices if n)[0].reason == gone
    resumed = await store.add_feed(GUILD, QUERY, 3, 7, LATER, limit=10)
    assert resumed.status is FeedAddStatus.RESUMED and resumed.feed is not None
    assert resumed.feed.channel_id == 3 and resumed.feed.active
    assert await store.record_poll(QUERY, 2, [("2401.00002", "p2")], LATER) == 1


async def test_a_failed_poll_is_recorded_for_the_list(backend: Backend) -> None:
    store = backend.feeds()
    await store.add_feed(GUILD, QUERY, None, 7, NOW, limit=10)
    await store.poll_failed(QUERY, Reason(ReasonCode.ARXIV_BUSY), NOW)
    [feed] = await store.feeds(GUILD)
    assert feed.last_error == Reason(ReasonCode.ARXIV_BUSY) and feed.last_polled_at == NOW
    await store.record_poll(QUERY, 2, [], LATER)
    [feed] = await store.feeds(GUILD)
    assert feed.last_error is None and feed.last_polled_at == LATER


async def test_a_released_claim_is_open_again_and_resumed_by_the_next_claim(
        backend: Backend) -> None:
    store = backend.feeds()
    feed = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    assert feed is not None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    first = await store.claim_announcement(feed.id, 1, lease("a"), NOW)
    assert first is not None and first.attempt == 1
    await store.release_announcement(feed.id, 1, "a")
    assert await store.open_announcements(NOW) == [(feed.id, 1, GUILD)]  # at once, lease or not
    assert not await store.hold_announcement(feed.id, 1, lease("a"), NOW)  # not claimed now
    again = await store.claim_announcement(feed.id, 1, lease("b"), NOW)
    assert again is not None and again.attempt == 2 and again.resumed
    assert again.claimed_at == NOW


async def test_releasing_what_is_not_a_live_claim_changes_nothing(backend: Backend) -> None:
    store = backend.feeds()
    feed = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    assert feed is not None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    await store.record_poll(QUERY, 2, [("2401.00002", "p2")], NOW)
    await store.release_announcement(feed.id, 1, "a")  # pending: stays pending, unclaimed
    await store.release_announcement(feed.id, 9, "a")  # no such poll
    await store.release_announcement(feed.id + 1, 1, "a")  # no such feed
    first = await store.claim_announcement(feed.id, 1, lease("a"), NOW)
    assert first is not None and first.attempt == 1
    await store.mark_announced(feed.id, 1, 555, NOW)
    await store.release_announcement(feed.id, 1, "a")  # posted: stays posted
    assert await store.claim_announcement(feed.id, 2, lease("a"), NOW) is not None
    await store.mark_announce_failed(feed.id, 2, Reason(ReasonCode.ARXIV_BUSY), NOW,
                                     pause=False)
    await store.release_announcement(feed.id, 2, "a")  # failed: stays failed
    assert await store.open_announcements(NOW + timedelta(days=1)) == []
    assert await store.claim_announcement(feed.id, 1, lease("b"), NOW) is None
    assert await store.claim_announcement(feed.id, 2, lease("b"), NOW) is None


async def test_a_stale_owner_cannot_release_the_claim_another_took_over(
        backend: Backend) -> None:
    store = backend.feeds()
    feed = (await store.add_feed(GUILD, QUERY, 1, 7, NOW, limit=10)).feed
    assert feed is not None
    await store.record_poll(QUERY, 1, [("2401.00001", "p1")], NOW)
    assert await store.claim_announcement(feed.id, 1, lease("a"), NOW) is not None
    lapsed = NOW + timedelta(minutes=6)  # a's lease ran out: b takes the claim over
    assert await store.claim_announcement(feed.id, 1, lease("b", 20), lapsed) is not None
    await store.release_announcement(feed.id, 1, "a")  # a's send failed late: not a's now
    assert await store.open_announcements(lapsed) == []  # b's claim stands
    assert await store.hold_announcement(feed.id, 1, lease("b", 25), lapsed)
    assert await store.claim_announcement(feed.id, 1, lease("c", 25), lapsed) is None
