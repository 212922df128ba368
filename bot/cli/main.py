"""The `paperclub` command line. Exit codes: 0 found / done, 1 no match, 2 bad usage or input."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click
import discord
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

from bot.cli import render as cli_render
from bot.cli.calendar_commands import calendar_command
from bot.cli.db_copy import db_group
from bot.cli.discord_errors import DISCORD_ERRORS, describe
from bot.cli.local import DEMO_SCRIPT, is_interactive, run_interactive, run_script
from bot.client.bot import bot_intents
from bot.client.command_sync import sync_commands
from bot.client.endpoints import set_discord_endpoints
from bot.client.invite import PERMISSIONS, SCOPES, invite_url
from bot.features.adding.arxiv_types import ArxivError, ArxivRejected
from bot.features.adding.service import MAX_IDS
from bot.features.catalog.files import CatalogFileError, CatalogFormat
from bot.features.catalog.jsonl import dumps
from bot.features.catalog.loader import LoadReport, StrictLoadError, load_catalog
from bot.features.export.formats import ExportFormat, ExportWhat
from bot.features.export.service import (
    CATALOG_HEADING,
    catalog_text,
    select_by_ids,
    select_by_query,
)
from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.search import SearchService, Strategy
from bot.features.papers.store import PaperStore
from bot.settings import (
    SEARCH_LIMIT_MAX,
    SEARCH_LIMIT_MIN,
    ConfigError,
    Settings,
    load_settings,
)
from bot.shared.lang import Lang
from bot.wiring import (
    MissingToken,
    build_bot,
    opened_adding,
    opened_catalog,
    opened_export,
    token_of,
)
from domain.adding import AddedStatus, ArxivTrouble
from domain.arxiv_ids import ArxivRef, IdScan, find_arxiv_ids
from domain.catalog import AddStatus
from domain.paper import Paper
from domain.shards import parse_shard_ids
from storage.sqlite.errors import NoDatabase, StorageError

EXIT_OK, EXIT_NO_MATCH, EXIT_BAD_INPUT = 0, 1, 2
PROGRESS_MIN_BYTES = 1_000_000
ARXIV_QUERY_DEFAULT, ARXIV_QUERY_MAX = 100, 2000

P = ParamSpec("P")
T = TypeVar("T")



def _console(*, stderr: bool) -> Console:
    """A console that wraps lines only for a terminal: piped to a file or journald, each message
    stays one line."""
    console = Console(stderr=stderr, highlight=False)
    console.soft_wrap = not console.is_terminal
    return console


out = _console(stderr=False)
err = _console(stderr=True)


class _Fail(Exception):
    """An expected failure: message for stderr and an exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


def _settings(ctx: click.Context) -> Settings:
    settings: Settings = ctx.obj
    return settings


def _run(coro: Coroutine[Any, Any, int]) -> int:
    return asyncio.run(coro)


def common_options(func: Callable[P, int]) -> Callable[..., None]:
    """`--config` and `--db` on every command; settings loaded once; failures as exit codes."""

    @click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
                  help="TOML config file (see config.example.toml).")
    @click.option("--db", "db_path", type=click.Path(path_type=Path), default=None,
                  help="SQLite database file, overriding the configured one.")
    @click.pass_context
    @functools.wraps(func)
    def wrapper(ctx: click.Context, config_path: Path | None, db_path: Path | None,
                *args: Any, **kwargs: Any) -> None:
        try:
            settings = load_settings(config_path, os.environ)
            if db_path is not None:
                settings = settings.model_copy(update={"database": settings.database.model_copy(
                    update={"path": db_path, "url": None})})
            logging.basicConfig(level=settings.logging.level, stream=sys.stderr,
                                format="%(levelname)s %(name)s: %(message)s")
            ctx.obj = settings
            code = ctx.invoke(func, *args, **kwargs)
        except _Fail as exc:
            err.print(f"paperclub: {escape(str(exc))}")
            code = exc.code
        except NoDatabase as exc:  # nothing to read: like an empty catalog, no match
            err.print(f"paperclub: {escape(str(exc))}: `paperclub import FILE` creates it and "
                      "loads a catalog (reading commands never create one)")
            code = EXIT_NO_MATCH
        except (ConfigError, CatalogFileError, StrictLoadError, StorageError, QueryError,
                MissingToken) as exc:
            err.print(f"paperclub: error: {escape(str(exc))}")
            code = EXIT_BAD_INPUT
        ctx.exit(code)

    return wrapper


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


cli.add_command(db_group)
cli.add_command(calendar_command(common_options))


def _print_report(report: LoadReport) -> None:
    c = report.counts
    for error in report.errors:
        err.print(f"[yellow]rejected[/yellow] line {error.line}: {escape(error.reason)}")
    if report.rejected > len(report.errors):
        err.print(f"… and {report.rejected - len(report.errors)} more rejected records")
    for warning in report.warnings:
        err.print(f"[yellow]warning[/yellow] line {warning.line}: {escape(warning.reason)}")
    if report.warned > len(report.warnings):
        err.print(f"… and {report.warned - len(report.warnings)} more warnings")
    out.print(
        f"{report.source}: {c.added} added, {c.updated} updated, {c.unchanged} unchanged, "
        f"{c.removed} removed, {report.rejected} rejected"
    )


async def _import(settings: Settings, path: Path, strict: bool, prune: bool,
                  source: str | None = None, fmt: CatalogFormat | None = None) -> int:
    show = path.exists() and path.stat().st_size >= PROGRESS_MIN_BYTES and err.is_terminal
    with Progress("[progress.description]{task.description}", BarColumn(), DownloadColumn(),
                  TimeRemainingColumn(), console=err, transient=True, disable=not show) as bar:
        task = bar.add_task(f"loading {path.name}", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        async with opened_catalog(settings) as store:
            report = await load_catalog(store, path, strict=strict, prune=prune,
                                        source=source, progress=progress, fmt=fmt)
    _print_report(report)
    return EXIT_OK


def _arxiv_failure(settings: Settings, reason: str | None) -> _Fail:
    """arXiv's refusal (`reason`) is bad input (2); busy or unreachable is worth another try
    later (1)."""
    if reason is not None:
        return _Fail(f"arXiv refused the request: {reason}")
    return _Fail(f"arXiv is busy or unreachable ({settings.arxiv.api_base}): try again in a "
                 "minute", EXIT_NO_MATCH)


async def _import_arxiv(settings: Settings, query: str, max_results: int) -> int:
    err.print(f"searching arXiv for up to {max_results} papers (at most one request every "
              "3 seconds) …")
    async with opened_adding(settings) as adding:
        try:
            done = await adding.add_from_search(query, max_results=max_results)
        except ArxivError as exc:
            reason = exc.reason if isinstance(exc, ArxivRejected) else None
            raise _arxiv_failure(settings, reason) from None
    counts = {status: 0 for status in AddStatus}
    for outcome in done.outcomes:
        counts[outcome.status] += 1
    found = done.search
    if not found.complete:
        err.print(f"[yellow]warning[/yellow] arXiv stopped answering after {len(found.entries)} "
                  f"of {found.total_results} papers: the import is partial")
    out.print(f"arXiv query {escape(query)!r}: {found.total_results} matching, "
              f"{len(found.entries)} fetched: " + ", ".join(
                  f"{n} {status.value}" for status, n in counts.items()))
    return EXIT_OK if found.entries else EXIT_NO_MATCH


@cli.command("import")
@click.argument("file", type=click.Path(path_type=Path), required=False)
@click.option("--strict", is_flag=True, help="Abort, loading nothing, at the first bad record.")
@click.option("--prune", is_flag=True,
              help="Remove papers that an earlier load of this file had and it no longer has.")
@click.option("--source", metavar="NAME",
              help="Name the papers' source (default: the file's full path); --prune removes "
                   "only papers an earlier load under the same name had.")
@click.option("--format", "fmt", type=click.Choice([f.value for f in CatalogFormat]),
              default=None, help="The file's format (default: from its extension, .jsonl or "
                                 ".bib, or its first line; else the paper listing).")
@click.option("--arxiv-query", metavar="QUERY",
              help='Instead of a file: papers matching an arXiv search query, such as '
                   '"cat:cs.LG AND abs:grokking" (asked at arxiv.api_base).')
@click.option("--max", "max_results", type=click.IntRange(1, ARXIV_QUERY_MAX), default=None,
              help=f"With --arxiv-query: at most this many papers (default "
                   f"{ARXIV_QUERY_DEFAULT}).")
@common_options
def import_command(file: Path | None, strict: bool, prune: bool, source: str | None,
                   fmt: str | None, arxiv_query: str | None, max_results: int | None) -> int:
    """Load a catalog FILE (paper listing, JSON Lines or BibTeX) into the database, or the
    papers of an arXiv search (--arxiv-query).

    A BibTeX entry or arXiv paper already in the catalog fills in only what the paper lacks."""
    settings = _settings(click.get_current_context())
    if arxiv_query is not None:
        if file is not None or strict or prune or source or fmt:
            raise _Fail("--arxiv-query takes no FILE, --strict, --prune, --source or --format")
        if not arxiv_query.strip():
            raise _Fail("--arxiv-query is empty: give an arXiv search query such as "
                        '"cat:cs.LG AND abs:grokking"')
        return _run(_import_arxiv(settings, arxiv_query.strip(),
                                  max_results or ARXIV_QUERY_DEFAULT))
    if file is None:
        raise _Fail("give a catalog FILE to import, or --arxiv-query QUERY")
    if max_results is not None:
        raise _Fail("--max goes with --arxiv-query")
    return _run(_import(settings, file, strict, prune, source,
                        CatalogFormat(fmt) if fmt else None))


def _scan_arguments(items: Sequence[str]) -> IdScan:
    """The ids in every argument; an argument that is no id or link, or a malformed one, is
    bad input (nothing is asked of arXiv)."""
    found: list[ArxivRef] = []
    for item in items:
        scan = find_arxiv_ids(item)
        if scan.malformed:
            bad = scan.malformed[0]
            raise _Fail(f"{bad.text!r} is not an arXiv id: {bad.problem.explain()}")
        if not scan.found:
            raise _Fail(f"{item!r} is not an arXiv id or link (such as 2401.01234, "
                        "hep-th/9901001 or https://arxiv.org/abs/2401.01234)")
        found += scan.found
    if len(found) > MAX_IDS:
        raise _Fail(f"{len(found)} ids: at most {MAX_IDS} at a time")
    return IdScan(tuple(dict.fromkeys(found)), ())


_ADDED_WORDS = {AddedStatus.ADDED: "added", AddedStatus.UPDATED: "updated to the latest version",
                AddedStatus.FILLED: "linked to the paper already in the catalog",
                AddedStatus.UNCHANGED: "already in the catalog",
                AddedStatus.CONFLICT: "not added: another arXiv paper has the same title"}


async def _add(settings: Settings, items: Sequence[str]) -> int:
    scan = _scan_arguments(items)
    err.print(f"asking arXiv for {len(scan.found)} paper{'s' * (len(scan.found) != 1)} …")
    async with opened_adding(settings) as adding:
        report = await adding.add_scanned(scan)
    if report.trouble is not None:
        raise _arxiv_failure(settings, report.reason
                             if report.trouble is ArxivTrouble.REJECTED else None)
    missing = 0
    for item in report.items:
        if item.status is AddedStatus.NOT_FOUND:
            missing += 1
            err.print(f"not on arXiv: {escape(item.text)}")
        elif item.paper is not None:
            out.print(f"{escape(item.text)}: {_ADDED_WORDS[item.status]}: "
                      f"{escape(item.paper.title_en)} ({item.paper.id})")
    return EXIT_NO_MATCH if missing else EXIT_OK


@cli.command("add")
@click.argument("ids", nargs=-1, required=True, metavar="ID_OR_LINK…")
@common_options
def add_command(ids: tuple[str, ...]) -> int:
    """Add papers from arXiv by id or link (2401.01234, hep-th/9901001v2, arXiv:…,
    https://arxiv.org/abs/…), asked at arxiv.api_base. Exit 1 when an id is not on arXiv or
    arXiv is busy or unreachable."""
    return _run(_add(_settings(click.get_current_context()), ids))


def _say_catalog_empty(settings: Settings) -> None:
    """Reading commands never load anything: they say how to (the bot loads catalog.path)."""
    err.print(f"the catalog is empty: load one with `paperclub import FILE` (the bot loads "
              f"{escape(str(settings.catalog_path()))} when it starts on an empty database)")


async def _search(settings: Settings, text: str, filters: dict[str, Any], limit: int,
                  as_json: bool) -> int:
    query = parse_query(text, **filters)
    if query.is_empty():
        raise _Fail("error: the query has no words to search for")
    async with opened_catalog(settings, read_only=True) as store:
        outcome = await SearchService(
            store, fuzzy_threshold=settings.search.fuzzy_threshold
        ).search(query, limit=limit)
        empty = not outcome.hits and await store.count() == 0
    if as_json:
        out.print_json(data=cli_render.hit_dicts(outcome)) if outcome.hits else print("[]")
    else:
        if outcome.did_you_mean:
            err.print(f"did you mean: [bold]{escape(outcome.did_you_mean)}[/bold]")
        if outcome.hits:
            out.print(cli_render.search_table(outcome))
        else:
            err.print("no match")
    if empty:
        _say_catalog_empty(settings)
    return EXIT_OK if outcome.hits else EXIT_NO_MATCH


@cli.command()
@click.argument("query", nargs=-1)
@click.option("--author", help="Only papers with this author (surname is enough).")
@click.option("--venue", help="main, workshop, or a conference / workshop name.")
@click.option("--honours", type=click.Choice(["spotlight", "oral", "poster"]))
@click.option("--year", type=click.IntRange(1900, 2100))
@click.option("--limit", type=click.IntRange(SEARCH_LIMIT_MIN, SEARCH_LIMIT_MAX), default=None,
              help="How many results (default: search.limit).")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of results, best first.")
@common_options
def search(query: tuple[str, ...], author: str | None, venue: str | None,
           honours: str | None, year: int | None, limit: int | None, as_json: bool) -> int:
    """Search the catalog in English or Chinese (typos are forgiven)."""
    settings = _settings(click.get_current_context())
    filters = {"author": author, "venue": venue, "honour": honours, "year": year}
    return _run(_search(settings, " ".join(query), filters,
                        limit or settings.search.limit, as_json))


async def _show(settings: Settings, paper_id: str, as_json: bool) -> int:
    async with opened_catalog(settings, read_only=True) as store:
        paper = await store.get(paper_id.strip().lower())
    if paper is None:
        err.print(f"no paper with id {escape(paper_id)!s}")
        return EXIT_NO_MATCH
    if as_json:
        print(dumps(paper))
    else:
        cli_render.print_paper(out, paper)
    return EXIT_OK


@cli.command()
@click.argument("paper_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="The record as JSON.")
@common_options
def show(paper_id: str, as_json: bool) -> int:
    """Show one paper in full, in both languages."""
    return _run(_show(_settings(click.get_current_context()), paper_id, as_json))


async def _stats(settings: Settings, as_json: bool) -> int:
    async with opened_catalog(settings, read_only=True) as store:
        stats = await store.stats()
    if as_json:
        print(json.dumps(cli_render.stats_dict(stats), ensure_ascii=False))
    else:
        out.print(cli_render.stats_table(stats))
        if stats.last_load_at:
            when = f"{stats.last_load_at:%Y-%m-%d %H:%M} UTC"
            out.print(f"last load: {stats.last_load_source} at {when}")
    if not stats.papers:
        _say_catalog_empty(settings)
    return EXIT_OK if stats.papers else EXIT_NO_MATCH


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Stats as JSON.")
@common_options
def stats(as_json: bool) -> int:
    """Papers per conference, year and track."""
    return _run(_stats(_settings(click.get_current_context()), as_json))


def _write(text: str, output: Path | None) -> None:
    """The export's text to `output`, or to standard output."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_bytes(text.encode())
    except OSError as exc:
        raise _Fail(f"error: cannot write {output}: {exc.strerror or exc}") from None


async def _export(settings: Settings, output: Path | None) -> int:
    count = 0
    async with opened_catalog(settings, read_only=True) as store:  # no database: no file
        try:
            handle = output.open("w", encoding="utf-8") if output else sys.stdout
        except OSError as exc:
            raise _Fail(f"error: cannot write {output}: {exc.strerror or exc}") from None
        try:
            async for paper in store.iter_papers():
                handle.write(dumps(paper) + "\n")
                count += 1
        finally:
            if output:
                handle.close()
    if output:
        err.print(f"exported {count} papers to {output}")
    return EXIT_OK


async def _selected(settings: Settings, store: PaperStore, query: str | None,
                    ids: str | None, limit: int) -> tuple[list[Paper], str]:
    """The papers `--query` or `--ids` choose (every paper with neither), and a heading."""
    if query is None and ids is None:
        return [paper async for paper in store.iter_papers()], CATALOG_HEADING
    search = SearchService(store, fuzzy_threshold=settings.search.fuzzy_threshold)
    try:
        if ids is not None:
            chosen = await select_by_ids(search, ids.split(","))
            if chosen.missing:
                raise _Fail(f"error: no paper with id {', '.join(chosen.missing)} "
                            "(nothing exported)", EXIT_NO_MATCH)
            if not chosen.papers:
                raise _Fail("error: --ids names no paper")
            return chosen.papers, CATALOG_HEADING
        assert query is not None
        if parse_query(query).is_empty():
            raise _Fail("error: the query has no words to search for")
        chosen = await select_by_query(search, query, limit)
    finally:
        await search.close()
    outcome = chosen.outcome
    if outcome is not None and outcome.did_you_mean:
        err.print(f"did you mean: [bold]{escape(outcome.did_you_mean)}[/bold]")
    if outcome is not None and outcome.strategy is Strategy.ANY_WORD:
        err.print("no paper has every word: exporting papers with any of them")
    if not chosen.papers:
        raise _Fail("no match (nothing exported)", EXIT_NO_MATCH)
    if len(chosen.papers) == limit:
        err.print(f"kept the best {limit} matches (raise --limit for more)")
    return chosen.papers, f"{CATALOG_HEADING}: {query}"


async def _catalog_export(settings: Settings, fmt: str, query: str | None, ids: str | None,
                          limit: int, output: Path | None) -> int:
    async with opened_catalog(settings, read_only=True) as store:
        papers, heading = await _selected(settings, store, query, ids, limit)
    if fmt == "jsonl":
        text = "".join(dumps(paper) + "\n" for paper in papers)
    else:
        text = catalog_text(papers, ExportFormat(fmt), heading)
    _write(text, output)
    if output is not None:
        err.print(f"exported {len(papers)} papers to {output}")
    if not papers:
        _say_catalog_empty(settings)
    return EXIT_OK


async def _group_export(settings: Settings, what: str, fmt: str, server: int,
                        user: int | None, output: Path | None) -> int:
    async def name_of(user_id: int | None) -> str:
        return "a former member" if user_id is None else f"member {user_id}"

    async with opened_export(settings) as exports:
        made = await exports.export(server, ExportWhat(what), ExportFormat(fmt), Lang.EN,
                                    user_id=user, name_of=name_of, limit_bytes=sys.maxsize)
    if not made.content.total:  # as a query that finds nothing: no file, exit 1
        whose = f"member {user}'s {what}" if user is not None else f"the {what}"
        raise _Fail(f"{whose} of server {server} is empty (nothing exported)", EXIT_NO_MATCH)
    _write(made.content.text, output)
    if output is not None:
        err.print(f"exported {made.content.total} papers ({what}) to {output}")
    return EXIT_OK


EXPORT_LIMIT_DEFAULT, EXPORT_LIMIT_MAX = 1000, 100_000


def _check_export_options(fmt: str, what: str | None, server: int | None, user: int | None,
                          query: str | None, ids: str | None, limit: int | None) -> None:
    """Options that do not go together: one line, exit 2."""
    group = what is not None or server is not None or user is not None
    if group and (query is not None or ids is not None):
        raise _Fail("error: --query and --ids choose catalog papers; they do not go with "
                    "--what, --server or --user")
    if query is not None and ids is not None:
        raise _Fail("error: give --query or --ids, not both")
    if limit is not None and query is None:
        raise _Fail("error: --limit goes with --query")
    if not group:
        return
    if fmt == "jsonl":
        raise _Fail("error: --what, --server and --user go with --format markdown or bibtex")
    if what is None or server is None:
        raise _Fail("error: --what and --server go together (a server's records); leave both "
                    "out to export the catalog")
    if (what == ExportWhat.BOOKMARKS) != (user is not None):
        raise _Fail("error: --user goes with --what bookmarks, and --what bookmarks needs it")


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["jsonl", *(f.value for f in ExportFormat)]),
              default="jsonl", show_default=True,
              help="jsonl: re-importable records; bibtex: for reference managers (re-importable "
                   "too); markdown: a reading list.")
@click.option("--query", metavar="TEXT",
              help="Only the papers this search finds (the same search as /paper and "
                   "`paperclub search`, inline filters included), best first.")
@click.option("--ids", metavar="ID,ID,…", help="Only these papers (comma-separated ids).")
@click.option("--limit", type=click.IntRange(1, EXPORT_LIMIT_MAX), default=None,
              help=f"How many --query matches at most (default {EXPORT_LIMIT_DEFAULT}).")
@click.option("--what", type=click.Choice([w.value for w in ExportWhat]), default=None,
              help="Instead of the catalog: a server's history, queue, or a member's bookmarks "
                   "(needs --server; markdown or bibtex).")
@click.option("--server", type=click.IntRange(min=1), default=None, help="The server's id.")
@click.option("--user", type=click.IntRange(min=1), default=None,
              help="The member's id (for --what bookmarks).")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="File to write (default: standard output).")
@common_options
def export(fmt: str, query: str | None, ids: str | None, limit: int | None, what: str | None,
           server: int | None, user: int | None, output: Path | None) -> int:
    """Write the catalog (or the papers --query or --ids choose) as JSON Lines, BibTeX or a
    Markdown reading list; or a server's history, queue or a member's bookmarks."""
    settings = _settings(click.get_current_context())
    _check_export_options(fmt, what, server, user, query, ids, limit)
    if what is not None and server is not None:
        return _run(_group_export(settings, what, fmt, server, user, output))
    if fmt == "jsonl" and query is None and ids is None:
        return _run(_export(settings, output))
    return _run(_catalog_export(settings, fmt, query, ids, limit or EXPORT_LIMIT_DEFAULT,
                                output))


async def _local(settings: Settings, script: bool, lines: tuple[str, ...]) -> int:
    def write(text: str) -> None:
        print(text, flush=True)

    if script or lines or not is_interactive():
        await run_script(settings, lines or DEMO_SCRIPT, write)
    else:
        await run_interactive(settings, write)
    return EXIT_OK


@cli.command()
@click.option("--script", is_flag=True,
              help="Run a short scripted session and print the transcript.")
@click.argument("lines", nargs=-1)
@common_options
def local(script: bool, lines: tuple[str, ...]) -> int:
    """Use the real bot from the terminal, against a local Discord stand-in (no account needed).

    Without a terminal (or with --script) a scripted session runs; LINES replace its script.
    """
    try:
        return _run(_local(_settings(click.get_current_context()), script, lines))
    except KeyboardInterrupt:  # Ctrl-C: the bot and the stand-in are stopped; a quiet end
        print(flush=True)  # after the terminal's ^C
        return EXIT_OK


@contextmanager
def _reaching_discord(settings: Settings) -> Iterator[None]:
    """Discord unreachable, refusing the token or a request: one line, exit 2."""
    try:
        yield
    except DISCORD_ERRORS as exc:
        urls = [str(settings.discord.api_base), str(settings.discord.gateway_url)]
        raise _Fail(f"error: {describe(exc, urls)}") from None


def _discord_token(settings: Settings, *, one_shot: bool = True) -> str:
    """The token (or `MissingToken`), with discord.py pointed at the configured endpoints.

    For a one-shot command (`sync`, `invite`) discord.py's INFO lines ("logging in using static
    token") are noise around the one line the command prints; `run` keeps them in its log."""
    token = token_of(settings)
    if one_shot and logging.getLogger().level > logging.DEBUG:
        logging.getLogger("discord").setLevel(logging.WARNING)
    set_discord_endpoints(str(settings.discord.api_base), str(settings.discord.gateway_url))
    return token


async def _run_bot(settings: Settings) -> int:
    token = _discord_token(settings, one_shot=False)
    bot = await build_bot(settings, verify=True)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Future[None]] = []
    for stop in (signal.SIGTERM, signal.SIGINT):  # systemctl stop, Ctrl-C: close cleanly
        loop.add_signal_handler(stop, lambda: closing.append(asyncio.ensure_future(bot.close())))
    async with bot:
        await bot.start(token)
    # start() returns as soon as the gateway closes; let the signal's close() finish
    # releasing the database before the loop ends.
    await asyncio.gather(*closing)
    return EXIT_OK


def _shard_ids(ctx: click.Context, param: click.Parameter,
               value: str | None) -> tuple[int, ...] | None:
    """`--shard-ids 0,1` or `0-3` (a range, as a systemd instance names it) as a tuple."""
    if value is None:
        return None
    try:
        return parse_shard_ids(value)
    except ValueError:
        raise click.BadParameter("a comma-separated list of shard numbers or ranges, e.g. 0,1 "
                                 "or 0-3") from None


def _with_shards(settings: Settings, count: int | None,
                 ids: tuple[int, ...] | None) -> Settings:
    """The settings with the command line's shards (checked like the config keys)."""
    if count is None and ids is None:
        return settings
    try:
        discord_settings = settings.discord.with_shards(count, ids)
    except ValidationError as exc:
        message = exc.errors()[0]["msg"].removeprefix("Value error, ")
        raise ConfigError(f"--shard-count/--shard-ids: {message}") from None
    return settings.model_copy(update={"discord": discord_settings})


@cli.command()
@click.option("--shard-count", type=click.IntRange(min=1), default=None,
              help="How many shards the bot runs in all processes together "
                   "(default: discord.shard_count, else what Discord recommends).")
@click.option("--shard-ids", callback=_shard_ids, default=None,
              help="The shards this process runs, e.g. 0,1 or 0-3 (default: discord.shard_ids, "
                   "else all).")
@common_options
def run(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> int:
    """Connect to Discord with DISCORD_TOKEN and serve the slash commands."""
    settings = _with_shards(_settings(click.get_current_context()), shard_count, shard_ids)
    try:
        with _reaching_discord(settings):
            return _run(_run_bot(settings))
    except KeyboardInterrupt:
        return EXIT_OK


async def _sync(settings: Settings, target: str, guild_id: int, force: bool) -> int:
    token = _discord_token(settings)
    bot = await build_bot(settings)
    async with bot:
        await bot.login(token)  # runs setup_hook: the cogs are loaded
        changed = await sync_commands(bot.tree, bot.services.sync_record,
                                      target="guild" if guild_id else "global",
                                      guild_id=guild_id, force=force)
    out.print(f"slash commands {'synced' if changed else 'unchanged; not synced'} ({target})")
    return EXIT_OK


@cli.command()
@click.option("--guild", "guild_id", type=int, default=None,
              help="Sync to this server only (instant); default: discord.dev_guild_id if set, "
                   "else globally.")
@click.option("--global", "global_", is_flag=True, help="Sync globally (may take an hour).")
@click.option("--force", is_flag=True, help="Sync even if nothing changed since the last sync.")
@common_options
def sync(guild_id: int | None, global_: bool, force: bool) -> int:
    """Register the slash commands with Discord (skipped when unchanged)."""
    settings = _settings(click.get_current_context())
    target_guild = 0 if global_ else (guild_id or settings.discord.dev_guild_id)
    target = f"guild {target_guild}" if target_guild else "global"
    with _reaching_discord(settings):
        return _run(_sync(settings, target, target_guild, force))


async def _application_id(settings: Settings) -> int:
    if settings.discord.application_id:
        return settings.discord.application_id
    token = _discord_token(settings)
    client = discord.Client(intents=bot_intents())
    async with client:
        await client.login(token)
        info = await client.application_info()
    return info.id


@cli.command()
@click.option("--application-id", type=int, default=None,
              help="Your application's id (Developer Portal -> General Information).")
@common_options
def invite(application_id: int | None) -> int:
    """Print the invite link, with exactly the scopes and permissions paperclub needs."""
    settings = _settings(click.get_current_context())
    if not application_id:
        with _reaching_discord(settings):
            application_id = _run(_application_id(settings))
    out.print(invite_url(application_id), soft_wrap=True)
    err.print(f"scopes: {', '.join(SCOPES)}")
    for name, why in PERMISSIONS.items():
        err.print(f"  {name}: {why}")
    return EXIT_OK


def main() -> None:
    """Console entry point."""
    cli(prog_name="paperclub")
