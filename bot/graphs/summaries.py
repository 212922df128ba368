"""The AI summaries' graph: the display seam, the worker and its client (the bot, and
`paperclub summarize`). With `[llm]` off there is nothing: papers are shown through the
corrections' view alone, and nothing is ever sent anywhere."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC

from bot.features.papers.store import PaperStore
from bot.features.summaries.llm_client import LlmClient
from bot.features.summaries.service import SummaryService
from bot.features.summaries.worker import SummaryWorker
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from bot.shared.clock import Clock, utc_now
from bot.shared.leases import process_owner
from bot.shared.server_view import ServerView, Shown
from domain.paper import Paper
from storage import backend as stores
from storage.backend import AnyDatabase


class Summaries:
    """What the bot runs for `[llm]`: nothing at all while it is off (`view` is the
    corrections' own, `service` None, `start`, `poke` and `close` do nothing)."""

    def __init__(self, corrections: ServerView) -> None:
        self.view: ServerView = corrections
        self.service: SummaryService | None = None
        self.attach: Callable[[Sequence[str]], Awaitable[Shown]] | None = None
        """What search hits carry more (None: nothing)."""

    def start(self) -> None:
        """Nothing runs."""

    def poke(self) -> None:
        """Nothing to wake."""

    async def close(self) -> None:
        """Nothing to stop."""


class RunningSummaries(Summaries):
    """`[llm]` on: `view` (the corrections' view with summaries attached), `service` (the
    operator's figures) and the background worker, started by `start` and stopped, with its
    client, by `close`."""

    def __init__(self, db: AnyDatabase, settings: Settings, corrections: ServerView | None, *,
                 clock: Clock = utc_now, owner: str | None = None) -> None:
        store = stores.SUMMARIES.open(db)
        self.db, self.store, self._clock = db, store, clock
        self.max_answer_tokens = settings.llm.max_answer_tokens
        service = SummaryService(store, corrections, budget=settings.llm.daily_token_budget,
                                 clock=clock)
        self.service, self.view, self.attach = service, service, service.attach
        self.client = LlmClient(settings.llm, api_key=settings.llm.api_key())
        self.worker = SummaryWorker(store, self.client, settings.llm,
                                    owner=owner or process_owner(), clock=clock)
        self._task: asyncio.Task[None] | None = None

    def now(self) -> str:
        """Now, as the store compares instants."""
        return self._clock().astimezone(UTC).isoformat(timespec="microseconds")

    def start(self) -> None:
        """Run the worker in the background (once)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.worker.run(),
                                                                name="summaries")

    def poke(self) -> None:
        """Papers were loaded or added: look for work now."""
        self.worker.poke()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.client.close()


def summaries_for(db: AnyDatabase, settings: Settings, corrections: ServerView, *,
                  clock: Clock = utc_now) -> Summaries:
    """The summaries' parts when `[llm]` is enabled, else nothing that runs or sends."""
    if not settings.llm.enabled:
        return Summaries(corrections)
    return RunningSummaries(db, settings, corrections, clock=clock)


Attach = Callable[[Sequence[Paper]], Awaitable[list[Paper]]]
"""Papers given the AI summaries made for them (an export's)."""


async def _as_they_are(papers: Sequence[Paper]) -> list[Paper]:
    return list(papers)


@asynccontextmanager
async def opened_exportable(settings: Settings) -> AsyncIterator[tuple[PaperStore, Attach]]:
    """The catalog on the configured database, read only (`paperclub export`), and what gives
    its papers their AI summaries: with `[llm]` off, nothing (papers export as they are)."""
    db = await open_configured(settings.database, existing=True)
    try:
        papers = stores.PAPERS.open(db)
        if not settings.llm.enabled:
            yield papers, _as_they_are
            return
        service = SummaryService(stores.SUMMARIES.open(db), None,
                                 budget=settings.llm.daily_token_budget)

        async def attach(chosen: Sequence[Paper]) -> list[Paper]:
            shown = await service.attach([paper.id for paper in chosen])
            return [shown(paper) for paper in chosen]

        yield papers, attach
    finally:
        await db.close()


@asynccontextmanager
async def opened_summaries(settings: Settings) -> AsyncIterator[RunningSummaries]:
    """The summaries on the configured database, for `paperclub summarize` (the worker is
    driven by the command, not started)."""
    db = await open_configured(settings.database)
    try:
        parts = RunningSummaries(db, settings, None)
        try:
            yield parts
        finally:
            await parts.close()
    finally:
        await db.close()
