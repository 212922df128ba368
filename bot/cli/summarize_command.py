"""`paperclub summarize`: generate AI summaries now, from the command line, with a progress
bar; an estimate of the tokens first (`--dry-run`: only the estimate). The daily budget holds
here too: when it is reached the command stops and says so."""

from __future__ import annotations

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from bot.cli.common import EXIT_OK, Fail, common_options, err, out, run_sync, settings_of
from bot.features.summaries.prompt import prompt_tokens, source_text
from bot.graphs.summaries import RunningSummaries, opened_summaries
from bot.settings import Settings
from domain.summaries import SummaryLang, SummaryReport

ESTIMATE_CAP = 1_000_000
"""Papers read at most for the estimate."""


@click.command("summarize")
@click.option("--lang", "lang", type=click.Choice([lang.value for lang in SummaryLang]),
              default=None, help="Only this language (default: en and zh-CN).")
@click.option("--limit", type=click.IntRange(1, ESTIMATE_CAP), default=None,
              help="At most this many summaries (newest papers first).")
@click.option("--dry-run", is_flag=True, help="Only say how many papers and tokens it would take.")
@common_options
def summarize(lang: str | None, limit: int | None, dry_run: bool) -> int:
    """Generate AI summaries for papers that lack one ([llm] in the config)."""
    settings = settings_of(click.get_current_context())
    if not settings.llm.enabled and not dry_run:
        raise Fail("AI summaries are off: set enabled = true under [llm] "
                   "(see docs/operators/ai-summaries.md)")
    langs = (SummaryLang(lang),) if lang else tuple(SummaryLang)
    return run_sync(_summarize(settings, langs, limit, dry_run))


async def _summarize(settings: Settings, langs: tuple[SummaryLang, ...], limit: int | None,
                     dry_run: bool) -> int:
    async with opened_summaries(settings) as parts:
        papers, tokens = await _estimate(parts, langs, limit)
        figures = await parts.worker.figures()
        err.print(f"{papers} summaries to make ({', '.join(lang.value for lang in langs)}): "
                  f"about {tokens} tokens at most; {figures.tokens_today} of "
                  f"{figures.budget} tokens spent today; model {settings.llm.model} at "
                  f"{settings.llm.base_url}")
        if dry_run or not papers:
            return EXIT_OK
        total = await _run(parts, langs, min(papers, limit or papers))
    out.print(f"{total.done} made, {total.kept} kept, {total.discarded} discarded "
              f"({total.failed} failed), {total.waiting} waiting; {total.tokens} tokens")
    if total.stopped == "budget":
        err.print("the daily token budget is reached: generation goes on tomorrow (UTC)")
    elif total.stopped:
        err.print("the endpoint asked to wait (busy, or a timeout): run again later")
    return EXIT_OK


async def _estimate(parts: RunningSummaries, langs: tuple[SummaryLang, ...],
                    limit: int | None) -> tuple[int, int]:
    """Papers waiting (up to `limit`) and the tokens they would take at most."""
    papers = tokens = 0
    for lang in langs:
        room = (limit or ESTIMATE_CAP) - papers
        if room <= 0:
            break
        for job in await parts.store.candidates(lang, parts.now(), room):
            papers += 1
            tokens += prompt_tokens(source_text(job), lang) + parts.max_answer_tokens
    return papers, tokens


async def _run(parts: RunningSummaries, langs: tuple[SummaryLang, ...],
               wanted: int) -> SummaryReport:
    total = SummaryReport()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  disable=not err.is_terminal) as bar:
        task = bar.add_task("summarising", total=wanted)
        while total.handled < wanted and not total.stopped:
            step = await parts.worker.run_once(limit=min(8, wanted - total.handled),
                                               langs=langs)
            for name in ("done", "kept", "discarded", "failed", "waiting", "tokens"):
                setattr(total, name, getattr(total, name) + getattr(step, name))
            total.stopped = step.stopped
            bar.update(task, completed=total.handled)
            if not step.handled:
                break
    return total
