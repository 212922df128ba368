"""`paperclub embed`: bring the catalog's vectors for search by meaning up to date now, with
a progress bar (the bot does the same in the background after every load and add)."""

from __future__ import annotations

import asyncio

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from bot.cli.common import EXIT_OK, common_options, err, out, run_sync, settings_of
from bot.graphs.catalog import opened_meaning
from bot.settings import Settings

POLL_SECONDS = 0.5


async def _embed(settings: Settings) -> int:
    async with opened_meaning(settings) as keeper:
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                      transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("embedding papers", total=None)
            await keeper.prepare()
            done = asyncio.ensure_future(keeper.built())
            while not done.done():
                now = keeper.progress()
                bar.update(task, completed=now.embedded, total=now.total or None)
                await asyncio.wait({done}, timeout=POLL_SECONDS)
            await done
        now = keeper.progress()
        out.print(f"{now.embedded:,} of {now.total:,} papers embedded ({now.model}); "
                  f"{keeper.encoded:,} encoded now")
    return EXIT_OK


@click.command()
@common_options
def embed() -> int:
    """Embed the catalog for search by meaning now: only papers new or changed since the last
    run are encoded (one worker process; ~10 papers a second)."""
    return run_sync(_embed(settings_of(click.get_current_context())))
