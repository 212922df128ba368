"""The source-change notices, the same on SQLite and PostgreSQL: queued once per approval
(however many reloads or processes), claimed by one process at a time and only where the
server has a review channel, decided once (keep: compared with the new value from then on;
drop: withdrawn), and corrections imported from a file."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from domain.corrections import Action, Field, NewProposal, ReviewSettings, Status, Target
from domain.leases import Lease
from storage import backend as stores
from tests.backends import Backend
from tests.storage.test_corrections_store import _second_process

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
GUILD, QUIET_GUILD, MEMBER, CURATOR = 2**63 - 1, 8, 111, 222
CHANNEL = 2**63 - 5
TITLE = Target("p1", Field.TITLE_ZH)


async def _approved(backend: Backend, *, guild: int = GUILD, value: str = "馆员的标题",
                    target: Target = TITLE) -> int:
    store = backend.corrections()
    made = await store.propose(NewProposal(guild, target, "旧标题", value, "", MEMBER, T0))
    decided = await store.decide(guild, made.id, Status.APPROVED, CURATOR, T0, "", "旧标题")
    assert decided is not None and decided.source_value == "旧标题"
    return made.id


def _lease(owner: str, minutes: int = 5) -> Lease:
    return Lease(owner, T0 + timedelta(minutes=minutes))


async def test_a_change_is_queued_once_and_claimed_where_a_channel_is_set(
        backend: Backend) -> None:
    notices = backend.correction_notices()
    made, quiet = await _approved(backend), await _approved(backend, guild=QUIET_GUILD)
    assert {p.id for p in await notices.watched()} == {made, quiet}
    assert await notices.queue(made, "上游的新标题", "tmade", T0)
    assert not await notices.queue(made, "上游的新标题", "again", T0)  # a second reload
    assert await notices.queue(quiet, "上游的新标题", "tquiet", T0)
    assert [p.id for p in await notices.watched()] == []
    assert await notices.claim(_lease("a"), T0) is None  # no server has a review channel
    await backend.corrections().set_review_settings(GUILD, ReviewSettings(CHANNEL))
    claimed = await notices.claim(_lease("a"), T0)
    assert claimed is not None and claimed.correction_id == made
    assert (claimed.old_source, claimed.new_source) == ("旧标题", "上游的新标题")
    assert claimed.token == "tmade"
    assert claimed.channel_id == CHANNEL and claimed.attempts == 1
    assert await notices.claim(_lease("b"), T0) is None  # leased to a; quiet has no channel
    # a's lease runs out (it died): b takes the notice over
    taken = await notices.claim(_lease("b", 20), T0 + timedelta(minutes=6))
    assert taken is not None and taken.attempts == 2
    assert not await notices.posted(made, "a", CHANNEL, 99)  # a no longer holds it
    assert await notices.posted(made, "b", CHANNEL, 2**63 - 6)
    assert await notices.claim(_lease("c", 60), T0 + timedelta(minutes=30)) is None
    shown = await notices.notice(made)
    assert shown is not None and shown.message_id == 2**63 - 6


async def test_a_notice_given_back_waits_until_its_time(backend: Backend) -> None:
    notices = backend.correction_notices()
    made = await _approved(backend)
    await backend.corrections().set_review_settings(GUILD, ReviewSettings(CHANNEL))
    await notices.queue(made, "新", "tmade", T0)
    assert await notices.claim(_lease("a"), T0) is not None
    await notices.retry_later(made, "a", T0 + timedelta(hours=1))
    assert await notices.claim(_lease("a"), T0 + timedelta(minutes=10)) is None
    assert await notices.claim(_lease("a", 70), T0 + timedelta(hours=1)) is not None


async def test_keep_compares_with_the_new_value_and_drop_withdraws(backend: Backend) -> None:
    notices, store = backend.correction_notices(), backend.corrections()
    kept = await _approved(backend)
    dropped = await _approved(backend, value="Another", target=Target("p1", Field.TITLE_EN))
    for made in (kept, dropped):
        assert await notices.queue(made, "上游的新标题", "tmade", T0)
    assert await notices.decide(QUIET_GUILD, kept, keep=True, by=CURATOR, at=T0) is None
    decided = await notices.decide(GUILD, kept, keep=True, by=CURATOR, at=T0)
    assert decided is not None and decided.status is Status.APPROVED
    assert decided.source_value == "上游的新标题"
    assert await notices.decide(GUILD, kept, keep=False, by=CURATOR, at=T0) is None  # once
    assert await notices.notice(kept) is None
    assert [p.id for p in await notices.watched()] == [kept]  # a later change is news again
    assert await notices.queue(kept, "又改了", "tkept", T0)
    gone = await notices.decide(GUILD, dropped, keep=False, by=CURATOR, at=T0)
    assert gone is not None and gone.status is Status.REVERTED
    assert [p.id for p in await store.approved(GUILD, ["p1"])] == [kept]
    actions = [(e.proposal_id, e.action) for e in await store.history(GUILD, "p1")]
    assert (kept, Action.KEPT) in actions and (dropped, Action.DROPPED) in actions


async def test_two_processes_claim_and_decide_a_notice_once(backend: Backend,
                                                            tmp_path: Path) -> None:
    made = await _approved(backend)
    await backend.corrections().set_review_settings(GUILD, ReviewSettings(CHANNEL))
    other = await _second_process(backend, tmp_path)
    try:
        mine, theirs = backend.correction_notices(), stores.CORRECTION_NOTICES.open(other)
        queued = await asyncio.gather(mine.queue(made, "新", "mine", T0),
                                      theirs.queue(made, "新", "theirs", T0))
        assert sorted(queued) == [False, True]
        claims = await asyncio.gather(mine.claim(_lease("a"), T0), theirs.claim(_lease("b"), T0))
        assert sum(c is not None for c in claims) == 1
        decisions = await asyncio.gather(
            mine.decide(GUILD, made, keep=True, by=CURATOR, at=T0),
            theirs.decide(GUILD, made, keep=False, by=CURATOR + 1, at=T0))
        assert sum(d is not None for d in decisions) == 1
    finally:
        await other.close()


async def test_an_imported_correction_is_approved_and_supersedes(backend: Backend) -> None:
    store = backend.corrections()
    earlier = await _approved(backend)
    imported = await store.import_approved(
        NewProposal(GUILD, TITLE, "旧标题", "导入的标题", "from the other server", MEMBER, T0),
        "旧标题")
    assert imported.status is Status.APPROVED and imported.imported
    assert imported.proposed_by is None and imported.decided_by is None
    assert imported.decided_at == T0 and imported.source_value == "旧标题"
    assert [p.id for p in await store.approved(GUILD, ["p1"])] == [imported.id]
    assert not await store.claim_outcome_notice(imported.id)  # nobody to tell
    actions = [(e.proposal_id, e.action, e.actor_id) for e in await store.history(GUILD, "p1")]
    assert (imported.id, Action.IMPORTED, None) in actions
    assert (earlier, Action.SUPERSEDED, None) in actions


async def test_a_decided_notice_is_due_until_its_message_shows_the_decision(
        backend: Backend) -> None:
    notices = backend.correction_notices()
    posted, unposted = await _approved(backend), await _approved(
        backend, value="Another", target=Target("p1", Field.TITLE_EN))
    await backend.corrections().set_review_settings(GUILD, ReviewSettings(CHANNEL))
    for made in (posted, unposted):
        assert await notices.queue(made, "上游的新标题", f"t{made}", T0)
    claimed = await notices.claim(_lease("a"), T0)
    assert claimed is not None and claimed.correction_id == posted
    assert await notices.posted(posted, "a", CHANNEL, 2**63 - 6)
    for made in (posted, unposted):  # a's click decides both; only one has a message
        assert await notices.decide(GUILD, made, keep=made == posted, by=CURATOR, at=T0,
                                    lease=_lease("a")) is not None
    assert await notices.claim_decision(_lease("b"), T0) is None  # a is showing it
    due = await notices.claim_decision(_lease("b", 20), T0 + timedelta(minutes=6))
    assert due is not None and due.kept and due.decided_by == CURATOR
    assert (due.notice.correction_id, due.notice.token) == (posted, f"t{posted}")
    assert (due.notice.channel_id, due.notice.message_id) == (CHANNEL, 2**63 - 6)
    assert due.notice.new_source == "上游的新标题"
    await notices.decision_shown(posted, f"t{posted}")
    assert await notices.claim_decision(_lease("c", 60), T0 + timedelta(minutes=30)) is None
