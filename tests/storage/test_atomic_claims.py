"""Every claim is one atomic statement: two processes that both believe they own a server
(overlapping shards, a rolling restart) still get each row once, on any engine.

Statements are traced on SQLite's writer connection: a claim made of a read and then a write is
safe only under SQLite's whole-database write lock, not on a server database's row locks. The
PostgreSQL claims are raced by the contract suite (tests/storage/test_outbox.py,
test_group_stores.py, test_digests.py) on a pool of connections."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from domain.corrections import Field, NewProposal, ReviewSettings, Status, Target
from domain.digest import Claim, DigestConfig
from domain.leases import Lease
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from domain.reasons import Reason, ReasonCode
from domain.sessions import Place
from storage import backend as stores
from storage.backend import DIGESTS, OUTBOX, SESSIONS
from storage.sqlite.database import Database
from tests.backends import enqueue

CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA")


async def statements(db: Database, work: Callable[[], Awaitable[Any]]) -> list[str]:
    """The data statements `work` runs on the writer connection."""
    seen: list[str] = []
    async with db.transaction() as tx:
        await tx.conn.set_trace_callback(seen.append)
    try:
        await work()
    finally:
        async with db.transaction() as tx:
            await tx.conn.set_trace_callback(None)  # type: ignore[arg-type]  # None: off
    return [s.split(None, 1)[0].upper() for s in seen
            if not s.lstrip().upper().startswith(CONTROL)]


def _claim() -> Claim:
    lease = Lease("a", datetime.now(UTC) + timedelta(minutes=5))
    return Claim("p1", 1, 1, 3, "nonce-1", 7, late=False, lease=lease)


async def test_claiming_a_digest_date_is_one_insert(db: Database) -> None:
    store = DIGESTS.open(db)
    day = date(2026, 5, 1)
    first = await statements(db, lambda: store.claim(1, day, _claim()))
    again = await statements(db, lambda: store.claim(1, day, _claim()))
    assert first == again == ["INSERT"]
    assert (await store.entry(1, day)) is not None


async def test_taking_the_pause_notice_is_one_update(db: Database) -> None:
    store = DIGESTS.open(db)
    await store.save_config(DigestConfig(1, 7, "09:00", "UTC"))
    reason = Reason(ReasonCode.NO_ELIGIBLE_PAPER)
    for day in range(1, 4):
        await store.claim(1, date(2026, 5, day), _claim())
        await store.mark_failed(1, date(2026, 5, day), reason)
    taken: list[Reason | None] = []
    now = datetime(2026, 5, 4, tzinfo=UTC)

    async def take() -> None:
        taken.append(await store.claim_failure_notice(1, Lease("a", now + timedelta(minutes=5)),
                                                      now))

    assert await statements(db, take) == ["UPDATE"]
    assert await statements(db, take) == ["UPDATE"]
    assert taken[0] is not None and taken[0].code is ReasonCode.PAUSED_AFTER_FAILURES
    assert taken[1] is None  # being told once


async def test_taking_session_problems_is_one_update(db: Database) -> None:
    store = SESSIONS.open(db)
    session = await store.create(1, "p1", datetime(2026, 6, 1, tzinfo=UTC), None, Place(), 7)
    session_id = session.id
    await store.report_problem(session_id, Reason(ReasonCode.CHANNEL_MISSING))
    taken: list[list[Any]] = []

    async def take() -> None:
        taken.append(await store.take_problems(1))

    assert await statements(db, take) == ["UPDATE"]
    await take()
    assert [s.id for s in taken[0]] == [session_id] and taken[1] == []


async def test_claiming_an_outbox_unit_is_one_update(db: Database) -> None:
    store = OUTBOX.open(db)
    await enqueue(db, [OutboxUnit("dm:1:p:2", OutboxKind.DIGEST_DM,
                                  (OutboxEntry(1, 2, "p", ("t",), link="https://x"),))])
    claimed: list[OutboxUnit | None] = []

    async def claim(owner: str) -> None:
        claimed.append(await store.claim(owner, now=100, lease_until=160))

    assert await statements(db, lambda: claim("a")) == ["UPDATE"]
    assert await statements(db, lambda: claim("b")) == ["UPDATE"]
    assert claimed[0] is not None and claimed[0].key == "dm:1:p:2" and claimed[1] is None



async def test_claiming_and_deciding_a_source_notice_are_single_statements(db: Database) -> None:
    corrections, notices = stores.CORRECTIONS.open(db), stores.CORRECTION_NOTICES.open(db)
    at = datetime(2026, 12, 1, tzinfo=UTC)
    made = await corrections.propose(NewProposal(1, Target("p1", Field.TITLE_ZH), "旧", "新", "",
                                                 5, at))
    await corrections.decide(1, made.id, Status.APPROVED, 6, at, "", "旧")
    await corrections.set_review_settings(1, ReviewSettings(7))
    queued: list[bool] = []

    async def queue() -> None:
        queued.append(await notices.queue(made.id, "上游", "t1", at))

    # the approval is claimed by its UPDATE; the notice row follows only for the winner
    assert await statements(db, queue) == ["UPDATE", "INSERT"]
    assert await statements(db, queue) == ["UPDATE"] and queued == [True, False]
    lease = Lease("a", at + timedelta(minutes=5))
    claimed = await statements(db, lambda: notices.claim(lease, at))
    assert claimed == ["UPDATE"]
    decided: list[object] = []

    async def decide() -> None:
        decided.append(await notices.decide(1, made.id, keep=True, by=6, at=at))

    first = await statements(db, decide)
    assert first[0] == "DELETE" and await statements(db, decide) == ["DELETE"]
    assert decided[0] is not None and decided[1] is None
