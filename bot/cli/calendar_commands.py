"""`paperclub calendar --server ID [-o FILE]`: a server's sessions as the iCalendar file its
feed serves (without Discord, so events name no presenter: only Discord knows their names)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import click

from bot.cli.common import common_options
from bot.graphs.calendar import opened_calendar
from bot.settings import Settings
from bot.shared.lang import Lang


async def write_calendar(settings: Settings, server: int, output: Path | None, lang: Lang,
                         name: str) -> int:
    """Write the server's calendar to `output` (or standard output); 0 on success."""
    async with opened_calendar(settings) as calendar:
        data = await calendar.feed(server, server_name=name, lang=lang)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    try:
        output.write_bytes(data)
    except OSError as exc:
        raise click.FileError(str(output), exc.strerror or str(exc)) from None
    click.echo(f"wrote the calendar of server {server} to {output}", err=True)
    return 0


@click.command("calendar")
@click.option("--server", type=click.IntRange(min=1), required=True, help="The server's id.")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="File to write (default: standard output).")
@click.option("--lang", type=click.Choice([lang.value for lang in Lang]), default="en",
              show_default=True, help="The group's language (titles and descriptions).")
@click.option("--name", default="paperclub", show_default=True,
              help="The server's name, in the calendar's title.")
@common_options
def calendar(server: int, output: Path | None, lang: str, name: str) -> int:
    """Write a server's sessions as an iCalendar (.ics) file: the same events its feed
    serves, cancelled ones included."""
    settings: Settings = click.get_current_context().obj
    return asyncio.run(write_calendar(settings, server, output, Lang(lang), name))
