"""Unannounced papers, on both backends: the transaction that adds papers records them (a load
and an add alike, only when asked), a batch is leased to one process until its lease expires,
and the rows leave in the transaction that queues their DMs, only while their owner holds
them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.catalog import AddStatus, LoadSource
from domain.leases import Lease
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from domain.paper import Links, Paper
from tests.backends import Backend, queued

T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _paper(n: int) -> Paper:
    return Paper(title_en=f"Unannounced paper number {n}", title_zh="", authors=("Ada",),
                 links=Links(arxiv_id=f"2401.{n:05d}", arxiv_version=1))


def _lease(owner: str, at: datetime = T0) -> Lease:
    return Lease(owner, at + timedelta(minutes=1))


async def _unannounced(backend: Backend) -> int:
    return int((await backend.rows("SELECT count(*) FROM unannounced_papers"))[0][0])


def _dm(paper_ids: list[str], user: int = 7) -> OutboxUnit:
    return OutboxUnit(f"new:1:{user}:t", OutboxKind.NEW_PAPERS_DM,
                      tuple(OutboxEntry(1, user, paper_id, ("topic",)) for paper_id in paper_ids))


async def test_the_papers_transaction_records_the_added_ones_when_asked(
        backend: Backend) -> None:
    papers, store = backend.papers(), backend.announcements()
    await papers.load([(1, _paper(1))], source=LoadSource("first"))  # not asked: not recorded
    assert await _unannounced(backend) == 0
    counts = await papers.load([(1, _paper(1)), (2, _paper(2))], source=LoadSource("first"),
                               announce=True)
    assert counts.added == 1 and await _unannounced(backend) == 1
    outcomes = await papers.add_papers([_paper(2), _paper(3)], announce=True)
    assert [o.status for o in outcomes] == [AddStatus.UNCHANGED, AddStatus.ADDED]
    claimed = await store.claim(_lease("a"), T0, 10)
    assert claimed == [counts.added_ids[0], outcomes[1].paper.id]  # oldest first


async def test_a_batch_is_leased_to_one_owner_and_queued_with_its_deletion(
        backend: Backend) -> None:
    papers, store = backend.papers(), backend.announcements()
    outcomes = await papers.add_papers([_paper(n) for n in range(1, 4)], announce=True)
    ids = [o.paper.id for o in outcomes]
    assert await store.claim(_lease("a"), T0, 2) == ids[:2]
    assert await store.claim(Lease("b", T0 + timedelta(hours=1)), T0, 10) == ids[2:]  # not a's
    assert await store.claim(_lease("c"), T0 + timedelta(seconds=30), 10) == []
    later = T0 + timedelta(minutes=2)  # a died: its lease expired, c takes its papers over
    assert await store.claim(_lease("c", later), later, 10) == ids[:2]
    assert await store.announced("a", ids[:2], [_dm(ids[:2])]) is None  # a lost them
    assert await queued(backend.db) == 0
    assert await store.announced("c", ids[:2], [_dm(ids)]) == 2  # only the papers c held
    assert await queued(backend.db) == 2 and await _unannounced(backend) == 1
    assert await store.release("b") == 1
    assert await store.claim(_lease("d"), T0, 10) == ids[2:]  # given back: claimable at once
