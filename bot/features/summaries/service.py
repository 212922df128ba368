"""Showing AI summaries: the seam every surface shows papers through (`ServerView`), wrapped so
that a paper also carries the summaries made for it here, in the languages it wants one in
(`domain.summaries.wanted`: not Chinese where it has its own Chinese summary, or a server's
approved correction of it) and made from the text it shows (a server's approved correction of
that text hides a summary of the old one). And the operator's figures: coverage per language,
tokens spent today."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.features.summaries.prompt import paper_source, source_hash
from bot.features.summaries.store import SummaryStore
from bot.features.summaries.worker import day_of
from bot.shared.clock import Clock, utc_now
from bot.shared.server_view import ServerView, Shown, shown_by
from domain.paper import Paper
from domain.summaries import GeneratedSummary, SummaryFigures, wanted


def with_generated(paper: Paper, made: Sequence[GeneratedSummary]) -> Paper:
    """`paper` carrying the summaries of `made` it can show: in a language it wants one in
    (not Chinese where it has its own Chinese summary, or an approved correction of it), made
    from the text it shows now, and not in a language whose summary the server corrected
    (the approved correction, already on `paper`, is shown instead)."""
    if not made:
        return paper
    source = paper_source(paper)
    corrected = tuple(summary for summary in paper.generated if summary.corrected)
    usable = tuple(summary for summary in made
                   if wanted(summary.lang, paper.summary_en, paper.summary_zh)
                   and summary.source_hash == source_hash(source, summary.lang)
                   and all(fixed.lang is not summary.lang for fixed in corrected))
    return replace(paper, generated=(*corrected, *usable)) if usable else paper


class SummaryService:
    """Summaries for display (`view`, a `ServerView` over the corrections' one) and the
    operator's figures."""

    def __init__(self, store: SummaryStore, inner: ServerView | None, *, budget: int,
                 clock: Clock = utc_now) -> None:
        self._store, self._inner, self._budget, self._clock = store, inner, budget, clock

    async def view(self, guild_id: int | None, paper_ids: Sequence[str]) -> Shown:
        """The server's view of these papers, each with its usable summaries (one more read)."""
        shown = await shown_by(self._inner, guild_id, paper_ids)
        made = await self._store.summaries_of(list(paper_ids)) if paper_ids else {}
        if not made:
            return shown
        return _attach(shown, made)

    async def corrected(self, guild_id: int) -> list[Paper]:
        """The corrections' own answer (summaries are attached when papers are shown)."""
        return await self._inner.corrected(guild_id) if self._inner is not None else []

    async def attached(self, paper: Paper) -> Paper:
        """One paper with its summaries (a paper shown outside a server, as in a DM)."""
        return (await self.attach([paper.id]))(paper)

    async def attach(self, paper_ids: Sequence[str]) -> Shown:
        """What gives papers (as a server sees them) their usable summaries: one read."""
        made = await self._store.summaries_of(list(paper_ids)) if paper_ids else {}
        return _attach(lambda paper: paper, made) if made else (lambda paper: paper)

    async def figures(self) -> SummaryFigures:
        """Per language: papers wanting a summary, made, failed; tokens spent today."""
        return SummaryFigures(tuple(await self._store.coverage()),
                              await self._store.tokens_on(day_of(self._clock())), self._budget)


def _attach(shown: Shown, made: Mapping[str, Sequence[GeneratedSummary]]) -> Shown:
    def attach(paper: Paper) -> Paper:
        return with_generated(shown(paper), made.get(paper.id, ()))
    return attach
