"""The prep-sheet store on both backends: one generation claim and one posting claim at a
time, leases that run out, a lapsed post taken over as resumed, and the server's switch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.prep import PrepStatus
from domain.sessions import Place
from tests.backends import Backend

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)


def _at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


async def _session(backend: Backend) -> int:
    session = await backend.sessions().create(1, "p1", T0 + timedelta(days=1), None, Place(), 9)
    return session.id


async def test_generation_is_claimed_by_one_owner_until_its_lease_runs_out(
        backend: Backend) -> None:
    store, sid = backend.prep_sheets(), await _session(backend)
    assert await store.get(sid) is None
    assert (await store.claim_generation(sid, "a", _at(0), _at(5))) is not None
    assert await store.claim_generation(sid, "b", _at(1), _at(6)) is None  # a's lease is live
    taken = await store.claim_generation(sid, "b", _at(5), _at(10))  # a's ran out
    assert taken is not None and taken.status is PrepStatus.CLAIMED
    assert not await store.ready(sid, "a", ["Why?"], lang="en", model="m", now=_at(6))
    assert await store.retry(sid, "b", attempts=1, reason="language", next_try=_at(20),
                             now=_at(6))
    assert await store.claim_generation(sid, "a", _at(19), _at(24)) is None  # not yet due
    again = await store.claim_generation(sid, "a", _at(20), _at(25))
    assert again is not None and again.attempts == 1
    assert await store.ready(sid, "a", ["为什么？", "How?", "What?"], lang="zh-CN",
                             model="m1", now=_at(21))
    sheet = await store.get(sid)
    assert sheet is not None and sheet.status is PrepStatus.READY
    assert (sheet.questions, sheet.lang, sheet.model) == (("为什么？", "How?", "What?"),
                                                          "zh-CN", "m1")
    assert await store.claim_generation(sid, "b", _at(90), _at(95)) is None  # ready: done


async def test_a_sheet_that_failed_is_never_claimed_again(backend: Backend) -> None:
    store, sid = backend.prep_sheets(), await _session(backend)
    await store.claim_generation(sid, "a", _at(0), _at(5))
    assert await store.retry(sid, "a", attempts=3, reason="refusal", next_try=None, now=_at(1))
    assert await store.claim_generation(sid, "b", _at(10_000), _at(10_005)) is None
    assert await store.claim_post(sid, "n", "b", _at(10_000), _at(10_005)) is None
    sheet = await store.get(sid)
    assert sheet is not None and (sheet.status, sheet.reason) == (PrepStatus.FAILED, "refusal")


async def test_a_post_is_claimed_once_and_a_lapsed_claim_is_resumed(backend: Backend) -> None:
    store, sid = backend.prep_sheets(), await _session(backend)
    assert await store.claim_post(sid, "n", "a", _at(0), _at(5)) is None  # nothing ready
    await store.claim_generation(sid, "a", _at(0), _at(5))
    await store.ready(sid, "a", ["A?", "B?", "C?"], lang="en", model="m", now=_at(1))
    first = await store.claim_post(sid, "nonce1", "a", _at(2), _at(7))
    assert first is not None and not first.resumed and first.nonce == "nonce1"
    assert first.post_claimed_at == _at(2)
    assert await store.claim_post(sid, "nonce1", "b", _at(3), _at(8)) is None
    assert not await store.hold_post(sid, "b", _at(3), _at(8))
    resumed = await store.claim_post(sid, "nonce2", "b", _at(8), _at(13))  # a crashed
    assert resumed is not None and resumed.resumed and resumed.post_claimed_at == _at(2)
    assert resumed.nonce == "nonce1"  # the post is searched for by its first nonce
    assert not await store.finish_post(sid, "a", message_id=77, reason="", now=_at(9))
    assert await store.finish_post(sid, "b", message_id=77, reason="", now=_at(9))
    assert await store.claim_post(sid, "nonce1", "c", _at(100), _at(105)) is None
    sheet = await store.get(sid)
    assert sheet is not None and (sheet.status, sheet.message_id) == (PrepStatus.POSTED, 77)


async def test_the_servers_switch_is_on_by_default_and_kept(backend: Backend) -> None:
    groups = backend.groups()
    assert (await groups.settings(5)).prep_sheets
    await groups.set_prep_sheets(5, False)
    await groups.set_reminders(5, (60,))
    settings = await groups.settings(5)
    assert not settings.prep_sheets and settings.reminders == (60,)
    await groups.set_prep_sheets(5, True)
    assert (await groups.settings(5)).prep_sheets
