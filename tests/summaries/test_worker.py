"""The summariser against the stand-in: everything summarised once, in both languages, by two
workers at once and after one is killed mid-request; the budget never exceeded; throttling,
server errors and timeouts waited out; discarded answers retried, then failed."""

from __future__ import annotations

import asyncio
from collections import Counter

from bot.features.summaries.llm_client import LlmClient
from bot.features.summaries.sanitize import in_language
from domain.summaries import MAX_ATTEMPTS, SummaryLang
from llm_standin import LlmFault, LlmStandIn
from storage.sqlite.database import Database
from tests.clocks import FakeClock
from tests.summaries.conftest import (
    add,
    chinese_paper,
    english_paper,
    settings_for,
    summary_store,
    worker,
)


async def _rows(db: Database) -> list[tuple[str, str, str, int]]:
    return [tuple(row) for row in await db.fetch(
        "SELECT paper_id, lang, status, attempts FROM paper_summaries ORDER BY 1, 2")]


ZH = (SummaryLang.ZH_CN,)
"""One language, where a test is about something else."""


def _asked(llm: LlmStandIn) -> Counter[tuple[str, str]]:
    """Requests per (paper text, language)."""
    return Counter((request.user.split("\n")[1], request.language) for request in llm.requests)


async def test_two_workers_at_once_summarise_each_paper_once_in_both_languages(
        db: Database, llm: LlmStandIn, clock: FakeClock) -> None:
    """arXiv papers get both; listing papers an English one (their own AI总结 is kept)."""
    await add(db, [english_paper(n) for n in range(30)] + [chinese_paper(n) for n in range(30)])
    settings = settings_for(llm)
    async with LlmClient(settings) as one, LlmClient(settings) as two:
        reports = await asyncio.gather(worker(db, one, settings, "a", clock).run_once(),
                                       worker(db, two, settings, "b", clock).run_once())
    rows = await _rows(db)
    assert [r[2] for r in rows] == ["done"] * 90
    assert Counter(r[1] for r in rows) == {"zh-CN": 30, "en": 60}
    assert sum(r.done for r in reports) == 90 and all(r.done for r in reports)
    assert set(_asked(llm).values()) == {1} and len(llm.requests) == 90
    made = (await summary_store(db).summaries_of([chinese_paper(3).id]))[chinese_paper(3).id]
    assert [(s.lang, s.model) for s in made] == [(SummaryLang.EN, "standin-1")]
    assert in_language(made[0].text, SummaryLang.EN)


async def test_a_worker_killed_mid_request_loses_nothing_and_doubles_nothing(
        db: Database, llm: LlmStandIn, clock: FakeClock) -> None:
    await add(db, [english_paper(n) for n in range(40)])
    settings = settings_for(llm, concurrency=2)
    async with LlmClient(settings) as one, LlmClient(settings) as two:
        llm.fail(LlmFault.slow(30), LlmFault.slow(30))  # the killed worker's two requests
        killed = asyncio.create_task(worker(db, one, settings, "a", clock).run_once(langs=ZH))
        # killed once its 4 claims are made and reserved (2 asked, 2 waiting for a slot), not
        # inside a transaction: a SIGKILL takes the process's connection with it
        while len(llm.requests) < 2 or await db.fetch(
                "SELECT 1 FROM llm_usage WHERE requests = 4") == []:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        killed.cancel()  # as SIGKILL: nothing released, its claims stay leased
        await asyncio.gather(killed, return_exceptions=True)
        survivor = worker(db, two, settings, "b", clock)
        first = await survivor.run_once(langs=ZH)
        clock.advance(seconds=settings.lease_seconds + 1)  # the dead worker's leases run out
        second = await survivor.run_once(langs=ZH)
    rows = await _rows(db)
    assert len(rows) == 40 and {r[2] for r in rows} == {"done"}
    assert (first.done, second.done) == (36, 4)  # a held 4 claims (2 asked, 2 not yet)
    asked = _asked(llm)
    assert sum(asked.values()) == 42 and sorted(asked.values())[-2:] == [2, 2]


async def test_the_daily_budget_is_never_exceeded_and_stops_generation_for_the_day(
        db: Database, llm: LlmStandIn, clock: FakeClock) -> None:
    await add(db, [english_paper(n) for n in range(50)])
    settings = settings_for(llm, daily_token_budget=6000, max_answer_tokens=200)
    store = summary_store(db)
    async with LlmClient(settings) as client:
        summariser = worker(db, client, settings, "a", clock)
        report = await summariser.run_once()
        again = await summariser.run_once()
        spent = await store.tokens_on("2026-12-01")
        clock.advance(days=1)
        next_day = await summariser.run_once(limit=5)
    assert report.stopped == "budget" and 0 < report.done < 50
    assert again.done == 0 and again.stopped == "busy"  # paused until midnight
    assert llm.tokens_served - sum(r.tokens for r in [next_day]) <= 6000
    assert spent <= 6000 and report.tokens <= 6000
    assert next_day.done == 5


async def test_throttling_errors_and_timeouts_are_waited_out_without_counting_attempts(
        db: Database, llm: LlmStandIn, clock: FakeClock) -> None:
    await add(db, [english_paper(n) for n in range(3)])
    settings = settings_for(llm, concurrency=1, timeout_seconds=1.0)
    async with LlmClient(settings) as client:
        summariser = worker(db, client, settings, "a", clock)
        outcomes = []
        for fault in (LlmFault.too_many_requests(120), LlmFault.server_error(),
                      LlmFault.slow(4.0)):
            llm.fail(fault)
            outcomes.append(await summariser.run_once(limit=1, langs=ZH))
            assert {r[3] for r in await _rows(db)} == {0}
            clock.advance(seconds=121)
        done = await summariser.run_once(langs=ZH)
    assert [(o.waiting, o.stopped) for o in outcomes] == [(1, "busy")] * 3
    assert done.done == 3 and {r[2] for r in await _rows(db)} == {"done"}


async def test_discarded_answers_are_asked_again_then_failed(
        db: Database, llm: LlmStandIn, clock: FakeClock) -> None:
    await add(db, [english_paper(1)])
    settings = settings_for(llm)
    async with LlmClient(settings) as client:
        summariser = worker(db, client, settings, "a", clock)
        llm.fail(LlmFault.refusal(), LlmFault.wrong_language(), LlmFault.empty())
        for attempt in range(1, MAX_ATTEMPTS + 1):
            report = await summariser.run_once(langs=ZH)
            assert report.discarded == 1
            assert (await _rows(db))[0][3] == attempt
            assert (await summariser.run_once(langs=ZH)).handled == 0  # not before its next try
            clock.advance(hours=2)
        assert (await _rows(db))[0][2] == "failed" and report.failed == 1
        assert (await summariser.run_once(langs=ZH)).handled == 0
    assert len(llm.requests) == MAX_ATTEMPTS


async def test_an_edited_abstract_is_summarised_again_other_edits_are_not(
        db: Database, llm: LlmStandIn, clock: FakeClock) -> None:
    paper = english_paper(1)
    await add(db, [paper])
    settings = settings_for(llm)
    async with LlmClient(settings) as client:
        summariser = worker(db, client, settings, "a", clock)
        await summariser.run_once(langs=ZH)
        await db.execute(  # a reload changed the venue: new content hash
            "UPDATE papers SET content_hash = 'venue' WHERE public_id = $1", paper.id)
        kept = await summariser.run_once(langs=ZH)
        await db.execute("UPDATE papers SET content_hash = 'abstract', summary_en = "
                         "'We prove bounds on graph expanders.' WHERE public_id = $1", paper.id)
        redone = await summariser.run_once(langs=ZH)
    assert (kept.kept, kept.done, redone.done) == (1, 0, 1)
    assert len(llm.requests) == 2 and "expanders" in llm.requests[1].user
