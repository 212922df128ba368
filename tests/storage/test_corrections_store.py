"""The corrections store, the same on SQLite and PostgreSQL: proposals per server, one decision
per proposal however many curators or processes decide at once, supersession, reverts, the
history, and a member's name taken off by /forget-me while the correction stays."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from domain.corrections import (
    Action,
    Field,
    NewProposal,
    ReviewSettings,
    Status,
    Target,
)
from domain.leases import Lease
from domain.outbox import OutboxKind, correction_of
from storage import backend as stores
from storage.backend import AnyDatabase
from storage.postgres.database import PgDatabase
from storage.sqlite.database import Database
from tests.backends import Backend

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
GUILD, OTHER_GUILD = 2**63 - 1, 7
MEMBER, CURATOR, CURATOR_2 = 111, 222, 333
TITLE = Target("p1", Field.TITLE_ZH)


def _new(new_value: str = "新标题", *, guild: int = GUILD, target: Target = TITLE,
         at: datetime = T0) -> NewProposal:
    return NewProposal(guild, target, "旧标题", new_value, "machine translation", MEMBER, at)


async def test_a_proposal_is_pending_and_seen_only_by_its_server(backend: Backend) -> None:
    store = backend.corrections()
    made = await store.propose(_new())
    assert made.status is Status.PENDING and made.proposed_by == MEMBER
    assert made.target == TITLE and made.created_at == T0 and made.source_value == "旧标题"
    assert await store.proposal(GUILD, made.id) == made
    assert await store.proposal(OTHER_GUILD, made.id) is None
    assert await store.proposals(OTHER_GUILD) == []
    assert [p.id for p in await store.proposals(GUILD, status=Status.PENDING)] == [made.id]
    assert await store.proposals(GUILD, status=Status.APPROVED) == []
    assert await store.proposals(GUILD, paper_id="p2") == []


async def test_approval_builds_the_overlay_and_rejection_does_not(backend: Backend) -> None:
    store = backend.corrections()
    good, bad = await store.propose(_new("好")), await store.propose(_new("坏"))
    assert await store.decide(OTHER_GUILD, good.id, Status.APPROVED, CURATOR, T0, "",
                              "旧标题") is None
    approved = await store.decide(GUILD, good.id, Status.APPROVED, CURATOR, T0, "ok", "旧标题")
    assert approved is not None and approved.status is Status.APPROVED
    assert approved.decided_by == CURATOR and approved.decided_at == T0
    rejected = await store.decide(GUILD, bad.id, Status.REJECTED, CURATOR, T0, "no", "x")
    assert rejected is not None and rejected.status is Status.REJECTED
    assert [p.new_value for p in await store.approved(GUILD, ["p1", "p9"])] == ["好"]
    assert await store.approved(OTHER_GUILD, ["p1"]) == []
    assert await store.approved(GUILD, []) == []


async def test_two_curators_deciding_at_once_get_one_decision(backend: Backend) -> None:
    store = backend.corrections()
    made = await store.propose(_new())
    outcomes = await asyncio.gather(
        *(store.decide(GUILD, made.id, status, curator, T0, "", "旧标题")
          for status, curator in ((Status.APPROVED, CURATOR), (Status.REJECTED, CURATOR_2),
                                  (Status.APPROVED, CURATOR_2), (Status.REJECTED, CURATOR))))
    won = [o for o in outcomes if o is not None]
    assert len(won) == 1
    final = await store.proposal(GUILD, made.id)
    assert final is not None and final.status is won[0].status
    decisions = [e for e in await store.history(GUILD, "p1")
                 if e.action in (Action.APPROVED, Action.REJECTED)]
    assert len(decisions) == 1


async def _second_process(backend: Backend, tmp_path: Path) -> AnyDatabase:
    """Another process's own connections to the same database."""
    if isinstance(backend.db, PgDatabase):
        return await PgDatabase.open(backend.db.url)
    return await Database.open(tmp_path / "test.db")


async def test_two_processes_deciding_at_once_get_one_decision(backend: Backend,
                                                               tmp_path: Path) -> None:
    made = await backend.corrections().propose(_new())
    other = await _second_process(backend, tmp_path)
    try:
        mine, theirs = backend.corrections(), stores.CORRECTIONS.open(other)
        outcomes = await asyncio.gather(
            mine.decide(GUILD, made.id, Status.APPROVED, CURATOR, T0, "", "旧标题"),
            theirs.decide(GUILD, made.id, Status.REJECTED, CURATOR_2, T0, "", "旧标题"))
        assert sum(o is not None for o in outcomes) == 1
        unit = await backend.outbox().claim("sender", now=0, lease_until=60)
        assert unit is not None and unit.kind is OutboxKind.CORRECTION_DM  # queued once
        assert await backend.outbox().claim("sender", now=0, lease_until=60) is None
    finally:
        await other.close()


async def test_a_later_approval_supersedes_and_a_revert_withdraws(backend: Backend) -> None:
    store = backend.corrections()
    first, second = await store.propose(_new("一")), await store.propose(_new("二"))
    other_field = await store.propose(_new("Paper", target=Target("p1", Field.TITLE_EN)))
    for n, made in enumerate((first, second, other_field)):
        assert await store.decide(GUILD, made.id, Status.APPROVED, CURATOR,
                                  T0 + timedelta(minutes=n), "", "old") is not None
    assert [p.id for p in await store.approved(GUILD, ["p1"])] == [second.id, other_field.id]
    superseded = await store.proposal(GUILD, first.id)
    assert superseded is not None and superseded.status is Status.REVERTED
    assert await store.revert(GUILD, first.id, CURATOR, T0, "again") is None
    reverted = await store.revert(GUILD, second.id, CURATOR_2, T0, "wrong after all")
    assert reverted is not None and reverted.status is Status.REVERTED
    assert await store.revert(GUILD, second.id, CURATOR_2, T0, "twice") is None
    assert [p.id for p in await store.approved(GUILD, ["p1"])] == [other_field.id]
    actions = [(e.proposal_id, e.action, e.actor_id) for e in await store.history(GUILD, "p1")]
    assert (first.id, Action.SUPERSEDED, CURATOR) in actions
    assert (second.id, Action.REVERTED, CURATOR_2) in actions
    assert actions[0] == (first.id, Action.PROPOSED, MEMBER)


async def test_a_decision_queues_its_dm_and_a_sent_dm_is_told_a_dropped_one_owed(
        backend: Backend) -> None:
    store, outbox = backend.corrections(), backend.outbox()
    told, refused = await store.propose(_new("一")), await store.propose(_new("二"))
    assert not await store.claim_outcome_notice(told.id)  # nothing decided yet
    for made in (told, refused):
        await store.decide(GUILD, made.id, Status.APPROVED, CURATOR, T0, "", "旧标题")
    # queued in the decision's transaction: not owed to a listing while the DM waits
    assert await store.untold_outcomes(GUILD, MEMBER) == []
    assert not await store.claim_outcome_notice(told.id)
    first = await outbox.claim("sender", now=0, lease_until=60)
    second = await outbox.claim("sender", now=0, lease_until=60)
    assert first is not None and second is not None
    (entry,) = first.entries
    assert (entry.user_id, entry.topics, first.kind) == (
        MEMBER, ("approved",), OutboxKind.CORRECTION_DM)
    assert correction_of(entry.paper_id) == told.id
    assert await outbox.complete(first.key, "sender") == 1  # sent: the proposer is told
    assert await outbox.drop(second.key, "sender") == 1  # DMs closed: owed instead
    assert [p.id for p in await store.untold_outcomes(GUILD, MEMBER)] == [refused.id]
    assert not await store.claim_outcome_notice(told.id)
    assert await store.claim_outcome_notice(refused.id)
    assert not await store.claim_outcome_notice(refused.id)


async def test_a_review_message_to_update_is_leased_then_shown(backend: Backend) -> None:
    store = backend.corrections()
    posted, unposted = await store.propose(_new("一")), await store.propose(_new("二"))
    await store.set_review_message(posted.id, 5, 6)
    clicked = Lease("clicker", T0 + timedelta(minutes=1))
    for made in (posted, unposted):
        await store.decide(GUILD, made.id, Status.REJECTED, CURATOR, T0, "", "x", clicked)
    # the clicking process holds it while it answers the click
    assert await store.claim_review(Lease("tick", T0 + timedelta(minutes=5)), T0) is None
    later = T0 + timedelta(minutes=2)  # the click's process died: its lease ran out
    claimed = await store.claim_review(Lease("tick", later + timedelta(minutes=1)), later)
    assert claimed is not None and claimed.id == posted.id and claimed.message_id == 6
    assert claimed.status is Status.REJECTED
    assert await store.claim_review(Lease("other", later + timedelta(minutes=1)), later) is None
    await store.review_shown(posted.id)
    much_later = T0 + timedelta(hours=1)
    assert await store.claim_review(Lease("tick", much_later), much_later) is None


async def test_review_settings_and_message(backend: Backend) -> None:
    store = backend.corrections()
    assert await store.review_settings(GUILD) == ReviewSettings()
    await store.set_review_settings(GUILD, ReviewSettings(2**63 - 2, 2**63 - 3))
    await store.set_review_settings(GUILD, ReviewSettings(5, None))
    assert await store.review_settings(GUILD) == ReviewSettings(5, None)
    assert await store.review_settings(OTHER_GUILD) == ReviewSettings()
    made = await store.propose(_new())
    await store.set_review_message(made.id, 5, 2**63 - 4)
    posted = await store.proposal(GUILD, made.id)
    assert posted is not None and (posted.channel_id, posted.message_id) == (5, 2**63 - 4)


async def test_forgetting_a_member_keeps_the_correction_nameless(backend: Backend) -> None:
    store = backend.corrections()
    made = await store.propose(_new())
    await store.decide(GUILD, made.id, Status.APPROVED, MEMBER, T0, "", "旧标题")
    other = await store.propose(_new("二"))
    await store.decide(GUILD, other.id, Status.REJECTED, CURATOR, T0, "", "旧标题")
    assert await store.forget(MEMBER) == 2  # proposer and decider of one, proposer of another
    kept = await store.proposal(GUILD, made.id)
    assert kept is not None and kept.proposed_by is None and kept.decided_by is None
    assert kept.status is Status.APPROVED
    actors = [e.actor_id for e in await store.history(GUILD, "p1")]
    assert MEMBER not in actors and actors.count(None) == 3 and CURATOR in actors
    assert await store.forget(MEMBER) == 0


async def test_an_outcome_not_delivered_is_owed_to_the_proposer(backend: Backend) -> None:
    store = backend.corrections()
    made, pending = await store.propose(_new()), await store.propose(_new("二"))
    await store.decide(GUILD, made.id, Status.REJECTED, CURATOR, T0, "", "旧标题")
    assert await store.untold_outcomes(GUILD, MEMBER) == []  # its DM waits in the outbox
    await backend.outbox().drop_dms(MEMBER)  # the member's DMs were refused
    assert [p.id for p in await store.untold_outcomes(GUILD, MEMBER)] == [made.id]
    assert await store.untold_outcomes(OTHER_GUILD, MEMBER) == []
    assert await store.claim_outcome_notice(made.id)
    assert await store.untold_outcomes(GUILD, MEMBER) == []
    assert pending.id not in [p.id for p in await store.untold_outcomes(GUILD, MEMBER)]
