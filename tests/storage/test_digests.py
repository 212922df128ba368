"""The paper-of-the-day ledger: claimed once, failures pause, skips recorded."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from bot.shared.lang import Lang
from bot.shared.messages import render_reason
from domain.digest import Claim, DigestConfig, DigestPick
from domain.leases import Lease
from domain.reasons import Reason, ReasonCode
from tests.backends import Backend

GUILD = 42
DAY = date(2026, 11, 30)
NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
LEASE = Lease("host:1:2026-11-30T07:00:00+00:00", NOW + timedelta(minutes=5))
OTHER = "host:2:2026-11-30T07:30:00+00:00"


def _claim(paper: str = "p1", cycle: int = 1) -> Claim:
    return Claim(paper_id=paper, cycle=cycle, position=1, cycle_size=30, nonce="n", channel_id=7,
                 late=False, lease=LEASE)


async def test_config_round_trip_and_disable(backend: Backend) -> None:
    store = backend.digests()
    await store.save_config(DigestConfig(GUILD, 7, "09:30", "Europe/Berlin", track="workshop"))
    config = await store.config(GUILD)
    assert config is not None
    assert (config.local_time, config.timezone, config.track, config.thread) == (
        "09:30", "Europe/Berlin", "workshop", True)
    assert [c.guild_id for c in await store.active_configs()] == [GUILD]
    assert await store.disable(GUILD)
    assert await store.active_configs() == []
    assert not await store.disable(999)


async def test_a_date_is_claimed_exactly_once_even_concurrently(backend: Backend) -> None:
    store = backend.digests()
    results = await asyncio.gather(*(store.claim(GUILD, DAY, _claim(f"p{i}")) for i in range(8)))
    winners = [r for r in results if r is not None]
    assert len(winners) == 1
    entry = await store.entry(GUILD, DAY)
    assert entry is not None and entry.status == "claimed"
    assert entry.paper_id == winners[0].paper_id
    assert await store.unfinished(GUILD) == [entry]
    await store.mark_posted(GUILD, DAY, message_id=1234)
    posted = await store.entry(GUILD, DAY)
    assert posted is not None and (posted.status, posted.message_id) == ("posted", 1234)
    assert await store.unfinished(GUILD) == []
    assert await store.last_handled(GUILD) == DAY
    assert await store.claimed_in_cycle(GUILD, 1) == {winners[0].paper_id}


async def test_three_failures_in_a_row_pause_and_notify_once(backend: Backend) -> None:
    store = backend.digests()
    await store.save_config(DigestConfig(GUILD, 7, "09:30", "UTC"))
    paused = []
    for offset in range(3):
        day = date(2026, 11, 1 + offset)
        await store.claim(GUILD, day, _claim(f"p{offset}"))
        paused.append(await store.mark_failed(GUILD, day, Reason(ReasonCode.NO_PERMISSION)))
    assert paused == [False, False, True]
    assert await store.active_configs() == []
    notice = await store.claim_failure_notice(GUILD, LEASE, NOW)
    assert notice == Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": 3},
                            Reason(ReasonCode.NO_PERMISSION))
    assert "50013" in render_reason(Lang.EN, notice)
    other = Lease("other", NOW + timedelta(minutes=20))
    assert await store.claim_failure_notice(GUILD, other, NOW) is None  # being given
    # the answer carrying it was lost: once its lease ends, another answer gives it
    later = NOW + timedelta(minutes=6)
    assert await store.claim_failure_notice(GUILD, other, later) == notice
    await store.failure_notice_given(GUILD, LEASE.owner)  # the first one's owner: too late
    await store.failure_notice_given(GUILD, other.owner)
    assert await store.claim_failure_notice(GUILD, LEASE, NOW + timedelta(hours=1)) is None


async def test_a_late_failure_leaves_another_process_post_standing(backend: Backend) -> None:
    store = backend.digests()
    await store.save_config(DigestConfig(GUILD, 7, "09:30", "UTC"))
    await store.claim(GUILD, DAY, _claim())
    later = NOW + timedelta(minutes=6)  # LEASE has run out: another process takes the row over
    assert await store.hold(GUILD, DAY, Lease(OTHER, later + timedelta(minutes=5)), later)
    await store.mark_posted(GUILD, DAY, message_id=1234)
    for _ in range(3):  # the first process's send fails late, and again on its next tries
        assert not await store.mark_failed(GUILD, DAY, Reason(ReasonCode.NO_ACCESS))
    posted = await store.entry(GUILD, DAY)
    assert posted is not None and (posted.status, posted.message_id) == ("posted", 1234)
    assert await store.claim(GUILD, DAY, _claim("p2")) is None  # never claimed again
    config = await store.config(GUILD)
    assert config is not None and config.consecutive_failures == 0
    assert [c.guild_id for c in await store.active_configs()] == [GUILD]


async def test_a_success_resets_the_failure_count(backend: Backend) -> None:
    store = backend.digests()
    await store.save_config(DigestConfig(GUILD, 7, "09:30", "UTC"))
    for offset, ok in enumerate([False, False, True, False, False]):
        day = date(2026, 11, 1 + offset)
        await store.claim(GUILD, day, _claim(f"p{offset}"))
        if ok:
            await store.mark_posted(GUILD, day, 1)
        else:
            assert not await store.mark_failed(GUILD, day, Reason(ReasonCode.NO_ACCESS))
    config = await store.config(GUILD)
    assert config is not None and config.consecutive_failures == 2


async def test_skips_are_recorded_once_and_never_overwrite(backend: Backend) -> None:
    store = backend.digests()
    await store.claim(GUILD, DAY, _claim())
    days = [date(2026, 11, 28), date(2026, 11, 29), DAY]
    offline = Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 360})
    assert await store.record_skips(GUILD, days, offline) == 2
    assert await store.record_skips(GUILD, days, offline) == 0
    assert (await store.recent(GUILD))[-1].reason == offline
    statuses = {e.local_date: e.status for e in await store.recent(GUILD)}
    assert statuses == {date(2026, 11, 28): "skipped", date(2026, 11, 29): "skipped",
                        DAY: "claimed"}
    assert await store.current_cycle(GUILD) == 1


async def test_a_reason_stored_as_a_sentence_reads_back_as_text(backend: Backend) -> None:
    store = backend.digests()
    await store.record_skips(GUILD, [DAY], Reason(ReasonCode.LATER_DAY_DUE))
    await backend.execute("UPDATE digest_ledger SET reason = 'bot was offline'")
    (entry,) = await store.recent(GUILD)
    assert entry.reason == Reason(ReasonCode.TEXT, {"text": "bot was offline"})
    assert render_reason(Lang.EN, entry.reason) == "bot was offline"


async def test_only_a_failed_date_is_claimed_again_and_only_once(backend: Backend) -> None:
    store = backend.digests()
    assert await store.reclaim_failed(GUILD, DAY, _claim()) is None  # no row
    await store.claim(GUILD, DAY, _claim())
    assert await store.reclaim_failed(GUILD, DAY, _claim()) is None  # in progress
    await store.mark_failed(GUILD, DAY, Reason(ReasonCode.CHANNEL_MISSING))
    moved = Claim(paper_id="p1", cycle=1, position=1, cycle_size=30, nonce="n", channel_id=8,
                  late=False, lease=LEASE)
    results = await asyncio.gather(*(store.reclaim_failed(GUILD, DAY, moved) for _ in range(4)))
    (entry,) = [r for r in results if r is not None]
    assert (entry.status, entry.channel_id, entry.reason) == ("claimed", 8, None)
    await store.mark_posted(GUILD, DAY, message_id=99)
    assert await store.reclaim_failed(GUILD, DAY, moved) is None  # posted: never again


async def test_a_claim_is_dated_by_its_claimer_s_clock(backend: Backend) -> None:
    """A resume looks for the post from a little before the claim: the claimer's instant, not
    the store's."""
    store = backend.digests()
    claimed = await store.claim(GUILD, DAY, replace(_claim(), at=NOW))
    assert claimed is not None and claimed.claimed_at == NOW
    await store.mark_failed(GUILD, DAY, Reason(ReasonCode.NO_ELIGIBLE_PAPER))
    later = NOW + timedelta(hours=1)
    again = await store.reclaim_failed(GUILD, DAY, replace(_claim(), at=later))
    assert again is not None and again.claimed_at == later


async def test_a_live_claim_of_another_owner_is_never_taken_over_an_expired_one_is(
        backend: Backend) -> None:
    store = backend.digests()
    await store.claim(GUILD, DAY, _claim())
    (entry,) = await store.unfinished(GUILD)
    assert entry.lease == LEASE and entry.claimed_at is not None
    assert entry.held_by_other(OTHER, NOW) and not entry.held_by_other(LEASE.owner, NOW)
    theirs = Lease(OTHER, NOW + timedelta(minutes=10))
    # Live: the other process is refused, however often it asks, until the lease runs out.
    assert not await store.hold(GUILD, DAY, theirs, NOW)
    assert not await store.hold(GUILD, DAY, theirs, LEASE.until - timedelta(microseconds=1))
    assert (await store.entry(GUILD, DAY)).lease == LEASE  # type: ignore[union-attr]
    # The owner renews its own lease at any time.
    renewed = Lease(LEASE.owner, NOW + timedelta(minutes=7))
    assert await store.hold(GUILD, DAY, renewed, NOW + timedelta(minutes=2))
    assert not await store.hold(GUILD, DAY, theirs, LEASE.until)
    # Expired: taken over, and then the first owner is the one refused.
    assert await store.hold(GUILD, DAY, theirs, renewed.until)
    assert (await store.entry(GUILD, DAY)).lease == theirs  # type: ignore[union-attr]
    assert not await store.hold(GUILD, DAY, renewed, renewed.until)


async def test_a_claim_without_a_lease_is_anyones(backend: Backend) -> None:
    """Rows claimed before leases existed (migrated databases) can be finished by anyone."""
    store = backend.digests()
    await store.claim(GUILD, DAY, _claim())
    await backend.execute("UPDATE digest_ledger SET owner = NULL, lease_until = NULL")
    (entry,) = await store.unfinished(GUILD)
    assert entry.lease is None and not entry.held_by_other(OTHER, NOW)
    assert await store.hold(GUILD, DAY, Lease(OTHER, NOW + timedelta(minutes=5)), NOW)


async def test_a_claim_too_late_to_post_is_recorded_as_skipped(backend: Backend) -> None:
    store = backend.digests()
    await store.claim(GUILD, DAY, _claim())
    offline = Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 360})
    await store.mark_skipped(GUILD, DAY, offline)
    entry = await store.entry(GUILD, DAY)
    assert entry is not None and (entry.status, entry.reason) == ("skipped", offline)
    assert await store.unfinished(GUILD) == []
    assert await store.claimed_in_cycle(GUILD, 1) == set()
    await store.mark_skipped(GUILD, DAY, Reason(ReasonCode.LATER_DAY_DUE))  # only a claim
    assert (await store.entry(GUILD, DAY)).reason == offline  # type: ignore[union-attr]


async def test_the_pick_is_stored_with_the_settings_and_with_each_claim(backend: Backend) -> None:
    """`pick` survives a round trip; a recommended claim records the liked paper it names,
    and every paper ever claimed (any cycle, not skipped) is known."""
    store = backend.digests()
    await store.save_config(DigestConfig(GUILD, 7, "09:30", "UTC", pick=DigestPick.RECOMMENDED))
    config = await store.config(GUILD)
    assert config is not None and config.pick is DigestPick.RECOMMENDED
    await store.save_config(DigestConfig(GUILD, 7, "09:30", "UTC"))
    config = await store.config(GUILD)
    assert config is not None and config.pick is DigestPick.CYCLE
    recommended = replace(_claim("p2", cycle=2), pick=DigestPick.RECOMMENDED, pick_like="p9")
    first = await store.claim(GUILD, DAY, _claim("p1"))
    second = await store.claim(GUILD, DAY + timedelta(days=1), recommended)
    assert first is not None and (first.pick, first.pick_like) == (DigestPick.CYCLE, None)
    assert second is not None and (second.pick, second.pick_like) == (
        DigestPick.RECOMMENDED, "p9")
    await store.record_skips(GUILD, [DAY + timedelta(days=2)], Reason(ReasonCode.LATER_DAY_DUE))
    assert await store.claimed_papers(GUILD) == {"p1", "p2"}
    assert await store.claimed_papers(GUILD + 1) == set()
    await store.mark_failed(GUILD, DAY, Reason(ReasonCode.NO_PERMISSION))
    assert await store.claimed_papers(GUILD) == {"p2"}
    again = await store.reclaim_failed(GUILD, DAY, recommended)
    assert again is not None and (again.paper_id, again.pick, again.pick_like) == (
        "p2", DigestPick.RECOMMENDED, "p9")
