"""The `paperclub` command line: the top-level group, assembled from the command groups of
`bot.cli` (the catalog's, the export, Discord's, `db`). Exit codes: 0 found / done, 1 no match,
2 bad usage or input."""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click
from rich.markup import escape

from bot.cli.common import EXIT_OK, err

COMMANDS = {
    "import": "catalog_commands:import_command", "add": "catalog_commands:add_command",
    "search": "lookup_commands:search", "show": "lookup_commands:show",
    "stats": "lookup_commands:stats", "export": "export_commands:export",
    "local": "discord_commands:local", "run": "discord_commands:run",
    "sync": "discord_commands:sync", "invite": "discord_commands:invite",
    "db": "db_backup:db_group", "corrections": "corrections_commands:corrections_group",
    "web": "web_command:web", "recommend": "recommend_commands:recommend_command",
    "similar": "recommend_commands:similar_command", "calendar": "calendar_commands:calendar",
    "summarize": "summarize_command:summarize", "embed": "meaning_commands:embed",
}
"""Each command's module in `bot.cli` and its name there, imported only when it runs (or for
`--help`): `paperclub search` never imports discord.py, the scheduler or scikit-learn, and
starts in about a quarter of the time."""


class _OneLineErrors(click.Group):
    """Usage errors as one line on stderr (exit 2) instead of click's usage block; the
    commands of `COMMANDS`, each imported when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, sorted (none imported)."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command `cmd_name`, its module imported now; None for an unknown name."""
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name].split(":")
        command = getattr(importlib.import_module(f"bot.cli.{module}"), name)
        assert isinstance(command, click.Command)
        return command

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


def main() -> None:
    """Console entry point."""
    cli(prog_name="paperclub")
