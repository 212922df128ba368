"""The recommendation signals on both backends: 👍 / 👎 kept once per member and paper, every
other signal read from the table of the feature that records it, removed papers and forgotten
members leaving nothing behind."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.group import Bookmark
from domain.paper import Paper
from domain.recommend import Signal, SignalKind, Verdict
from domain.votes import VoteOption
from tests.backends import Backend

T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
GUILD, OTHER = 1, 2
ALICE, BOB, CAROL = 10, 11, 12


def _at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


async def _seed(backend: Backend, ids: list[str]) -> None:
    a, b, c, d, e = ids[:5]
    await backend.bookmarks().add(Bookmark(GUILD, ALICE, a, _at(1)))
    await backend.queue().suggest(GUILD, b, BOB, "", _at(2))
    await backend.queue().suggest(GUILD, b, ALICE, "", _at(3))
    vote = await backend.votes().open(GUILD, 5, BOB, _at(4), _at(60),
                                      [VoteOption(0, b, 2, _at(2)), VoteOption(1, c, 0, _at(4))])
    assert vote is not None
    await backend.votes().cast(vote.id, CAROL, c, _at(5))
    await backend.history().record_discussed(GUILD, d, _at(6), BOB, "", None)
    store = backend.recommendations()
    assert await store.rate(GUILD, ALICE, e, Verdict.UP, _at(7))
    assert not await store.rate(GUILD, ALICE, e, Verdict.UP, _at(8))
    assert await store.rate(GUILD, ALICE, e, Verdict.DOWN, _at(9))
    await store.rate(GUILD, CAROL, "not-in-the-catalog", Verdict.UP, _at(10))
    await store.rate(OTHER, ALICE, a, Verdict.DOWN, _at(11))


async def test_signals_come_from_every_feature_table(backend: Backend,
                                                     bundled_papers: list[Paper]) -> None:
    await backend.papers().add_papers(bundled_papers[:6])
    ids = [p.id for p in bundled_papers[:6]]
    await _seed(backend, ids)
    a, b, c, d, e = ids[:5]
    assert await backend.recommendations().signals(GUILD) == [
        Signal(ALICE, a, SignalKind.BOOKMARKED, _at(1)),
        Signal(BOB, b, SignalKind.SUGGESTED, _at(2)),
        Signal(ALICE, b, SignalKind.SUPPORTED, _at(3)),
        Signal(CAROL, c, SignalKind.VOTED, _at(5)),
        Signal(None, d, SignalKind.DISCUSSED, _at(6)),
        Signal(BOB, d, SignalKind.PRESENTED, _at(6)),
        Signal(ALICE, e, SignalKind.DISLIKED, _at(9)),
    ]
    assert await backend.recommendations().signals(OTHER) == [
        Signal(ALICE, a, SignalKind.DISLIKED, _at(11))]


async def test_forgetting_a_member_removes_their_verdicts_everywhere(
        backend: Backend, bundled_papers: list[Paper]) -> None:
    await backend.papers().add_papers(bundled_papers[:6])
    ids = [p.id for p in bundled_papers[:6]]
    await _seed(backend, ids)
    store = backend.recommendations()
    assert await store.forget(ALICE) == 2
    await backend.bookmarks().forget(ALICE)
    await backend.queue().forget(ALICE)
    left = await store.signals(GUILD)
    assert all(s.user_id != ALICE for s in left)
    assert await store.signals(OTHER) == []
