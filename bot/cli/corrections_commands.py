"""`paperclub corrections export --server ID [-o FILE]` and `paperclub corrections import
--server ID FILE`: a server's approved corrections as JSON Lines, and such a file applied to a
server (attributed to "import"), without Discord."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.markup import escape

from bot.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    Fail,
    common_options,
    err,
    run_sync,
    settings_of,
)
from bot.features.corrections.transfer import ImportReport
from bot.graphs.corrections import opened_corrections
from bot.settings import Settings

SERVER_IDS = click.IntRange(min=1, max=2**63 - 1)
SHOWN_PROBLEMS = 50
"""Malformed or skipped lines listed one by one (the rest are counted)."""


async def _export(settings: Settings, server: int, output: Path | None) -> int:
    async with opened_corrections(settings, read_only=True) as transfer:
        records = await transfer.export(server)
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    # a lone surrogate (never stored by paperclub itself) stays a valid JSON escape
    data = text.encode("utf-8", "backslashreplace")
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            output.write_bytes(data)
        except OSError as exc:
            raise Fail(f"cannot write {output}: {exc.strerror or exc}") from None
    err.print(f"exported {len(records)} approved correction{'s' * (len(records) != 1)} of "
              f"server {server}" + (f" to {escape(str(output))}" if output else ""))
    return EXIT_OK


def _read_lines(path: Path) -> list[bytes]:
    try:
        return path.read_bytes().split(b"\n")
    except IsADirectoryError:
        raise Fail(f"{path} is a directory, not a corrections file") from None
    except OSError as exc:
        raise Fail(f"cannot read {path}: {exc.strerror or exc}") from None


def _print_report(path: Path, report: ImportReport) -> None:
    for kind, problems in (("malformed", report.malformed), ("skipped", report.skipped)):
        for line, reason in problems[:SHOWN_PROBLEMS]:
            err.print(f"{escape(str(path))}:{line}: {kind}: {escape(reason)}")
        if len(problems) > SHOWN_PROBLEMS:
            err.print(f"… and {len(problems) - SHOWN_PROBLEMS} more {kind} lines")
    click.echo(f"{len(report.applied)} applied, {len(report.skipped)} skipped, "
               f"{len(report.malformed)} malformed")


async def _import(settings: Settings, server: int, path: Path) -> int:
    lines = _read_lines(path)
    async with opened_corrections(settings) as transfer:
        report = await transfer.import_lines(server, lines)
    _print_report(path, report)
    return EXIT_BAD_INPUT if report.malformed else EXIT_OK


@click.group("corrections")
def corrections_group() -> None:
    """A server's approved corrections to and from a JSON Lines file."""


@corrections_group.command("export")
@click.option("--server", type=SERVER_IDS, required=True, help="The server's id.")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="File to write (default: standard output).")
@common_options
def export_command(server: int, output: Path | None) -> int:
    """Write the server's approved corrections, one JSON object a line: paper_id, arxiv_id,
    field, position, value, source_value, reason, at (never who)."""
    return run_sync(_export(settings_of(click.get_current_context()), server, output))


@corrections_group.command("import")
@click.option("--server", type=SERVER_IDS, required=True, help="The server's id.")
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@common_options
def import_command(server: int, file: Path) -> int:
    """Apply a corrections FILE (as `export` writes it) to the server as approved corrections
    by "import". Lines whose paper is not in the catalog, or whose value the server already
    shows, are skipped; malformed lines are reported with their number (exit 2) and the
    others still apply."""
    return run_sync(_import(settings_of(click.get_current_context()), server, file))
