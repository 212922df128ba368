"""The summariser: claims papers that need a summary (newest first), asks the model, keeps what
survives the sanitiser. Runs in the background, never on an interaction's path.

Exactly once: each paper and language is claimed by one process at a time (a lease in the
store); a process killed mid-request leaves its claims to expire, and another takes them up.
The daily token budget is reserved before each request (the prompt's estimate and the longest
answer asked for) and settled with what the endpoint counted, over every process, so a day
never spends more than the budget; when it is reached, generation waits for the next UTC day.
A 429, a 5xx or a timeout pauses every request for the time asked (Retry-After)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.features.summaries.llm_client import LlmBroken, LlmBusy
from bot.features.summaries.prompt import messages, prompt_tokens, source_hash, source_text
from bot.features.summaries.sanitize import Discarded, clean
from bot.features.summaries.store import SummaryStore
from bot.settings_llm import LlmSettings
from bot.shared.clock import Clock, utc_now
from domain.summaries import (
    MAX_ATTEMPTS,
    GeneratedSummary,
    LlmAnswer,
    SummaryFigures,
    SummaryJob,
    SummaryLang,
    SummaryReport,
)

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(minutes=10)
"""The wait before a discarded answer's paper is asked again (doubling each attempt)."""
BUDGET = "budget"
BUSY = "busy"


class Completer(Protocol):
    """A chat-completions endpoint (`LlmClient`)."""

    async def complete(self, messages: list[dict[str, str]]) -> LlmAnswer:
        """The model's answer."""
        ...


def day_of(instant: datetime) -> str:
    """The UTC day an instant counts against."""
    return instant.date().isoformat()


def _stamp(instant: datetime) -> str:
    """An instant as the stores keep it (`storage.times.stored`: sortable UTC text)."""
    return instant.astimezone(UTC).isoformat(timespec="microseconds")


class SummaryWorker:
    """Makes summaries with `client`, stored in `store`, for the process `owner`."""

    def __init__(self, store: SummaryStore, client: Completer, settings: LlmSettings, *,
                 owner: str, clock: Clock = utc_now) -> None:
        self._store, self._client, self._settings = store, client, settings
        self._owner, self._clock = owner, clock
        self._wake = asyncio.Event()
        self._resume_at: datetime | None = None
        self._stop = ""

    def poke(self) -> None:
        """Look for work now (after a load, an add or a feed poll)."""
        self._wake.set()

    async def run_once(self, *, limit: int | None = None,
                       langs: Sequence[SummaryLang] = tuple(SummaryLang)) -> SummaryReport:
        """Summarise until no paper waits, `limit` claims were handled, the day's budget is
        reached, or the endpoint asks to wait."""
        report = SummaryReport()
        self._stop = ""
        batch_size = self._settings.concurrency * 2
        while not self._stop and (limit is None or report.handled < limit):
            if self._resume_at is not None and self._clock() < self._resume_at:
                report.stopped = BUSY
                break
            size = batch_size if limit is None else min(batch_size, limit - report.handled)
            jobs = await self._claim(langs, size)
            if not jobs:
                break
            await asyncio.gather(*(self._one(job, report) for job in jobs))
        report.stopped = report.stopped or self._stop
        return report

    async def _claim(self, langs: Sequence[SummaryLang], size: int) -> list[SummaryJob]:
        now = self._clock()
        until = now + timedelta(seconds=self._settings.lease_seconds)
        jobs: list[SummaryJob] = []
        for lang in langs:
            if len(jobs) < size:
                jobs += await self._store.claim(lang, self._owner, _stamp(now), _stamp(until),
                                                size - len(jobs))
        return jobs

    async def _one(self, job: SummaryJob, report: SummaryReport) -> None:
        text = source_text(job)
        digest = source_hash(text, job.lang)
        if job.previous_done and job.previous_hash == digest:
            kept = await self._store.keep(job, self._owner, _stamp(self._clock()))
            report.kept += kept
            return
        if self._stop:
            await self._give_back(job, self._stop)
            return
        day = day_of(self._clock())
        reserved = prompt_tokens(text, job.lang) + self._settings.max_answer_tokens
        if not await self._store.reserve_tokens(day, reserved,
                                                self._settings.daily_token_budget):
            self._halt(BUDGET, _next_day(self._clock()))
            await self._give_back(job, BUDGET)
            return
        try:
            answer = await self._client.complete(messages(text, job.lang))
        except LlmBusy as busy:
            await self._store.settle_tokens(day, reserved, 0)
            self._halt(BUSY, self._clock() + timedelta(seconds=busy.retry_after))
            await self._give_back(job, f"{BUSY}: {busy}")
            report.waiting += 1
            return
        except LlmBroken as broken:  # what it cost is unknown: the reservation stays counted
            await self._discard(job, str(broken), report)
            return
        used = answer.tokens or reserved
        await self._store.settle_tokens(day, reserved, used)
        report.tokens += used
        try:
            summary = clean(answer.text, text, job.lang)
        except Discarded as why:
            await self._discard(job, str(why), report)
            return
        made = GeneratedSummary(job.lang, summary, self._settings.model, digest)
        finished = await self._store.finish(job, self._owner, made, _stamp(self._clock()))
        report.done += finished

    def _halt(self, reason: str, until: datetime) -> None:
        """Stop asking until `until`, for every claim of this pass."""
        self._stop = self._stop or reason
        self._resume_at = max(until, self._resume_at or until)

    async def _give_back(self, job: SummaryJob, reason: str) -> None:
        """Release a claim unasked (the attempt does not count), due when the pause ends."""
        due = self._resume_at or self._clock()
        await self._store.retry(job, self._owner, attempts=job.attempts, reason=reason,
                                next_try=_stamp(due), now=_stamp(self._clock()))

    async def _discard(self, job: SummaryJob, reason: str, report: SummaryReport) -> None:
        """An answer not kept: asked again later, or failed after `MAX_ATTEMPTS`."""
        attempts = job.attempts + 1
        now = self._clock()
        due = None if attempts >= MAX_ATTEMPTS else now + RETRY_AFTER * 2 ** (attempts - 1)
        log.info("summary of %s (%s) discarded: %s (attempt %d)", job.paper_id, job.lang,
                 reason, attempts)
        await self._store.retry(job, self._owner, attempts=attempts, reason=reason,
                                next_try=None if due is None else _stamp(due), now=_stamp(now))
        report.discarded += 1
        report.failed += due is None

    async def run(self) -> None:
        """Summarise in the background until cancelled: a pass now, then after each poke or
        every `poll_seconds`, or when a pause (budget, Retry-After) ends."""
        while True:
            self._wake.clear()
            try:
                report = await self.run_once()
            except Exception:
                log.exception("summaries: a pass failed; trying again later")
                report = SummaryReport()
            if report.handled:
                log.info("summaries: %d made, %d kept, %d discarded (%d failed), %d waiting; "
                         "%d tokens%s", report.done, report.kept, report.discarded,
                         report.failed, report.waiting, report.tokens,
                         f"; stopped: {report.stopped}" if report.stopped else "")
                log.info("summaries: %s", (await self.figures()).log_line())
            await self._sleep()

    async def figures(self) -> SummaryFigures:
        """Coverage per language and today's tokens (for the log and the operator)."""
        return SummaryFigures(tuple(await self._store.coverage()),
                              await self._store.tokens_on(day_of(self._clock())),
                              self._settings.daily_token_budget)

    async def _sleep(self) -> None:
        """Until poked, `poll_seconds` pass, or the pause ends (whichever comes first)."""
        wait = self._settings.poll_seconds
        if self._resume_at is not None:
            wait = min(wait, max(1.0, (self._resume_at - self._clock()).total_seconds()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout=wait)


def _next_day(instant: datetime) -> datetime:
    """The next UTC midnight."""
    start = instant.replace(hour=0, minute=0, second=0, microsecond=0)
    return start + timedelta(days=1)
