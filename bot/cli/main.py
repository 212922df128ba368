"""The `paperclub` command line: the top-level group, assembled from the command groups of
`bot.cli` (the catalog's, the export, Discord's, `db`). Exit codes: 0 found / done, 1 no match,
2 bad usage or input."""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from typing import Any

import click
from rich.markup import escape

from bot.cli.calendar_commands import calendar_command
from bot.cli.catalog_commands import add_command, import_command, search, show, stats
from bot.cli.common import EXIT_OK, common_options, err
from bot.cli.corrections_commands import corrections_group
from bot.cli.db_copy import db_group
from bot.cli.discord_commands import invite, local, run, sync
from bot.cli.export_commands import export
from bot.cli.recommend_commands import register as register_recommend
from bot.cli.web_command import web


class _OneLineErrors(click.Group):
    """Usage errors as one line on stderr (exit 2) instead of click's usage block."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command line; exit with its code."""
        run = functools.partial(super().main, args, prog_name, complete_var,
                                standalone_mode=False, **extra)
        if not standalone_mode:
            return run()
        try:
            code: object = run()
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()
            code = exc.exit_code
        except click.ClickException as exc:
            where = exc.ctx.command_path if isinstance(exc, click.UsageError) and exc.ctx else (
                "paperclub")
            text = " ".join(exc.format_message().split())
            err.print(f"{escape(where)}: error: {escape(text)} (see {escape(where)} --help)")
            code = exc.exit_code
        except click.Abort:
            err.print("paperclub: aborted")
            code = 1
        sys.exit(code if isinstance(code, int) else EXIT_OK)



@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="paperclub")
def cli() -> None:
    """paperclub: a paper reading group's catalog, search and Discord bot."""


for _command in (import_command, add_command, search, show, stats, export, local, run, sync,
                 invite, db_group, corrections_group, web):
    cli.add_command(_command)
register_recommend(cli)
cli.add_command(calendar_command(common_options))


def main() -> None:
    """Console entry point."""
    cli(prog_name="paperclub")
