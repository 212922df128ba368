"""The summary store on both backends: claims that never overlap, newest first, leases that
run out, text changes that ask again, coverage, and a token budget that holds under races."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from domain.paper import Paper
from domain.summaries import GeneratedSummary, SummaryLang
from storage.times import stored
from tests.backends import Backend

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
EN, ZH = SummaryLang.EN, SummaryLang.ZH_CN


def _at(minutes: float) -> str:
    return stored(T0 + timedelta(minutes=minutes))


async def _papers(backend: Backend) -> list[str]:
    """Four papers: two English-only, one Chinese-only, one with both texts (oldest first)."""
    papers = [Paper(title_en="Old graphs", title_zh="", authors=("A",), summary_en="Graphs."),
              Paper(title_en="New graphs", title_zh="", authors=("B",), summary_en="More."),
              Paper(title_en="Zh only", title_zh="仅中文", authors=("C",), summary_zh="中文总结。"),
              Paper(title_en="Both", title_zh="两者", authors=("D",), summary_en="Both.",
                    summary_zh="两者都有。")]
    for paper in papers:
        await backend.papers().add_papers([paper])
    return [paper.id for paper in papers]


async def test_claims_never_overlap_and_leases_run_out(backend: Backend) -> None:
    ids = await _papers(backend)
    store = backend.summaries()
    first = await store.claim(ZH, "a", _at(0), _at(5), 1)
    rest = await store.claim(ZH, "b", _at(1), _at(6), 10)
    assert [job.paper_id for job in first] == [ids[1]]  # newest first
    assert [job.paper_id for job in rest] == [ids[0]]  # the paper with its own Chinese: never
    assert await store.claim(ZH, "c", _at(2), _at(7), 10) == []
    taken_over = await store.claim(ZH, "c", _at(5), _at(10), 10)  # a's lease ran out
    assert [job.paper_id for job in taken_over] == [ids[1]]
    made = GeneratedSummary(ZH, "本文研究图。", "m", "h1")
    assert not await store.finish(first[0], "a", made, _at(6))  # a lost its claim
    assert await store.finish(taken_over[0], "c", made, _at(6))
    assert await store.summaries_of([ids[1]]) == {ids[1]: [made]}
    english = await store.claim(EN, "a", _at(6), _at(11), 10)  # English: every paper
    assert [job.paper_id for job in english] == [ids[3], ids[2], ids[1], ids[0]]
    assert english[1].abstract_zh == "中文总结。"


async def test_a_changed_text_is_claimed_again_and_coverage_counts(backend: Backend) -> None:
    ids = await _papers(backend)
    store = backend.summaries()
    for job in await store.claim(ZH, "a", _at(0), _at(5), 10):
        await store.finish(job, "a", GeneratedSummary(ZH, "总结。", "m", "h"), _at(1))
    [job, *_] = await store.claim(EN, "a", _at(0), _at(5), 1)
    await store.retry(job, "a", attempts=3, reason="refusal", next_try=None, now=_at(1))
    coverage = {c.lang: (c.wanted, c.done, c.failed, c.waiting) for c in await store.coverage()}
    assert coverage == {ZH: (2, 2, 0, 0), EN: (4, 0, 1, 3)}
    assert await store.claim(ZH, "a", _at(10), _at(15), 10) == []
    await backend.execute("UPDATE papers SET summary_en = 'Edited.', content_hash = 'x' "
                          "WHERE public_id = ?", ids[0])
    [again] = await store.claim(ZH, "b", _at(10), _at(15), 10)
    assert (again.paper_id, again.abstract_en, again.previous_done) == (ids[0], "Edited.", True)
    assert await store.keep(again, "b", _at(11))
    assert (await store.summaries_of([ids[0]]))[ids[0]] == [
        GeneratedSummary(ZH, "总结。", "m", "h")]


async def test_waiting_claims_come_back_when_due(backend: Backend) -> None:
    await _papers(backend)
    store = backend.summaries()
    [job] = await store.claim(ZH, "a", _at(0), _at(5), 1)
    await store.retry(job, "a", attempts=1, reason="empty", next_try=_at(30), now=_at(1))
    assert [j.paper_id for j in await store.claim(ZH, "b", _at(29), _at(34), 10)] != [
        job.paper_id]
    [back] = await store.claim(ZH, "c", _at(30), _at(35), 10)
    assert back.attempts == 1


async def test_the_budget_holds_when_many_reserve_at_once(backend: Backend) -> None:
    store = backend.summaries()
    granted = await asyncio.gather(*(store.reserve_tokens("2026-12-01", 300, 2000)
                                     for _ in range(12)))
    assert sum(granted) == 6
    assert await store.tokens_on("2026-12-01") == 1800
    await store.settle_tokens("2026-12-01", 300, 120)
    assert await store.tokens_on("2026-12-01") == 1620
    assert await store.tokens_on("2026-12-02") == 0


async def test_candidates_are_newest_first_up_to_the_limit_and_claim_nothing(
        backend: Backend) -> None:
    ids = await _papers(backend)
    store = backend.summaries()
    everyone = [ids[3], ids[2], ids[1], ids[0]]  # English: every paper with text
    assert [j.paper_id for j in await store.candidates(EN, _at(0), 10)] == everyone
    assert [j.paper_id for j in await store.candidates(EN, _at(0), 2)] == everyone[:2]
    assert await store.candidates(EN, _at(0), 0) == []
    chinese = await store.candidates(ZH, _at(0), 10)  # not those with their own Chinese
    assert [j.paper_id for j in chinese] == [ids[1], ids[0]]
    assert (chinese[0].title_en, chinese[0].abstract_en, chinese[0].attempts) == (
        "New graphs", "More.", 0)
    assert await store.candidates(ZH, _at(0), 10) == chinese  # a read: still there
    claimed = await store.claim(ZH, "a", _at(0), _at(5), 10)
    assert claimed == chinese  # what a claim takes, and nothing was taken before it
    assert await store.candidates(ZH, _at(4), 10) == []  # a's lease is live
    assert [j.paper_id for j in await store.candidates(EN, _at(4), 10)] == everyone
    assert [j.paper_id for j in await store.candidates(ZH, _at(5), 10)] == [ids[1], ids[0]]


async def test_candidates_follow_finished_waiting_failed_and_changed_text(
        backend: Backend) -> None:
    ids = await _papers(backend)
    store = backend.summaries()
    newer, older = await store.claim(ZH, "a", _at(0), _at(5), 10)
    assert await store.finish(newer, "a", GeneratedSummary(ZH, "总结。", "m", "h"), _at(1))
    assert await store.retry(older, "a", attempts=2, reason="busy", next_try=_at(30),
                             now=_at(1))
    assert await store.candidates(ZH, _at(29), 10) == []  # done, and waiting till 30
    [due] = await store.candidates(ZH, _at(30), 10)
    assert (due.paper_id, due.attempts, due.previous_done) == (ids[0], 2, False)
    [again] = await store.claim(ZH, "b", _at(30), _at(35), 10)
    assert await store.retry(again, "b", attempts=3, reason="refusal", next_try=None,
                             now=_at(31))
    assert await store.candidates(ZH, _at(999), 10) == []  # failed: only a new text asks
    await backend.execute("UPDATE papers SET summary_en = 'Edited.', content_hash = 'x' "
                          "WHERE public_id = ?", ids[1])
    [edited] = await store.candidates(ZH, _at(40), 10)
    assert (edited.paper_id, edited.abstract_en, edited.previous_done, edited.attempts) == (
        ids[1], "Edited.", True, 0)
