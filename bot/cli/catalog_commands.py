"""The catalog's commands: `import` (a file or an arXiv search), `add` (arXiv ids), `search`,
`show` and `stats`. Exit codes: 0 found / done, 1 no match, 2 bad usage or input."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

from bot.cli import render as cli_render
from bot.cli.common import (
    EXIT_NO_MATCH,
    EXIT_OK,
    Fail,
    common_options,
    err,
    out,
    run_sync,
    say_catalog_empty,
    settings_of,
)
from bot.features.adding.arxiv_types import ArxivError, ArxivRejected
from bot.features.adding.service import MAX_IDS
from bot.features.catalog.files import CatalogFormat
from bot.features.catalog.jsonl import dumps
from bot.features.catalog.loader import LoadReport, load_catalog
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from bot.settings import SEARCH_LIMIT_MAX, SEARCH_LIMIT_MIN, Settings
from bot.wiring import opened_adding, opened_catalog
from domain.adding import AddedStatus, ArxivTrouble
from domain.arxiv_ids import ArxivRef, IdScan, find_arxiv_ids
from domain.catalog import AddStatus

PROGRESS_MIN_BYTES = 1_000_000
ARXIV_QUERY_DEFAULT, ARXIV_QUERY_MAX = 100, 2000


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


def _arxiv_failure(settings: Settings, reason: str | None) -> Fail:
    """arXiv's refusal (`reason`) is bad input (2); busy or unreachable is worth another try
    later (1)."""
    if reason is not None:
        return Fail(f"arXiv refused the request: {reason}")
    return Fail(f"arXiv is busy or unreachable ({settings.arxiv.api_base}): try again in a "
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


@click.command("import")
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
    settings = settings_of(click.get_current_context())
    if arxiv_query is not None:
        if file is not None or strict or prune or source or fmt:
            raise Fail("--arxiv-query takes no FILE, --strict, --prune, --source or --format")
        if not arxiv_query.strip():
            raise Fail("--arxiv-query is empty: give an arXiv search query such as "
                        '"cat:cs.LG AND abs:grokking"')
        return run_sync(_import_arxiv(settings, arxiv_query.strip(),
                                  max_results or ARXIV_QUERY_DEFAULT))
    if file is None:
        raise Fail("give a catalog FILE to import, or --arxiv-query QUERY")
    if max_results is not None:
        raise Fail("--max goes with --arxiv-query")
    return run_sync(_import(settings, file, strict, prune, source,
                        CatalogFormat(fmt) if fmt else None))


def _scan_arguments(items: Sequence[str]) -> IdScan:
    """The ids in every argument; an argument that is no id or link, or a malformed one, is
    bad input (nothing is asked of arXiv)."""
    found: list[ArxivRef] = []
    for item in items:
        scan = find_arxiv_ids(item)
        if scan.malformed:
            bad = scan.malformed[0]
            raise Fail(f"{bad.text!r} is not an arXiv id: {bad.problem.explain()}")
        if not scan.found:
            raise Fail(f"{item!r} is not an arXiv id or link (such as 2401.01234, "
                        "hep-th/9901001 or https://arxiv.org/abs/2401.01234)")
        found += scan.found
    if len(found) > MAX_IDS:
        raise Fail(f"{len(found)} ids: at most {MAX_IDS} at a time")
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


@click.command("add")
@click.argument("ids", nargs=-1, required=True, metavar="ID_OR_LINK…")
@common_options
def add_command(ids: tuple[str, ...]) -> int:
    """Add papers from arXiv by id or link (2401.01234, hep-th/9901001v2, arXiv:…,
    https://arxiv.org/abs/…), asked at arxiv.api_base. Exit 1 when an id is not on arXiv or
    arXiv is busy or unreachable."""
    return run_sync(_add(settings_of(click.get_current_context()), ids))


async def _search(settings: Settings, text: str, filters: dict[str, Any], limit: int,
                  as_json: bool) -> int:
    query = parse_query(text, **filters)
    if query.is_empty():
        raise Fail("error: the query has no words to search for")
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
        say_catalog_empty(settings)
    return EXIT_OK if outcome.hits else EXIT_NO_MATCH


@click.command()
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
    settings = settings_of(click.get_current_context())
    filters = {"author": author, "venue": venue, "honour": honours, "year": year}
    return run_sync(_search(settings, " ".join(query), filters,
                        limit or settings.search.limit, as_json))


async def _show(settings: Settings, reference: str, as_json: bool) -> int:
    async with opened_catalog(settings, read_only=True) as store:
        search = SearchService(store)
        try:
            found = await PaperLookup(search).lookup(reference)
        finally:
            await search.close()
    paper = found.paper
    if paper is None:
        if found.choices:
            err.print(f"{escape(reference)!s} matches several papers; show one by its id:")
            for choice in found.choices:
                err.print(f"  {choice.id}  {escape(choice.title_en)}")
        elif found.identifier:
            err.print(f"no paper with id {escape(found.identifier)!s} in the catalog")
        else:
            err.print(f"no paper matches {escape(reference)!s}")
        return EXIT_NO_MATCH
    if as_json:
        print(dumps(paper))
    else:
        cli_render.print_paper(out, paper)
    return EXIT_OK


@click.command()
@click.argument("reference", nargs=-1, required=True, metavar="PAPER")
@click.option("--json", "as_json", is_flag=True, help="The record as JSON.")
@common_options
def show(reference: tuple[str, ...], as_json: bool) -> int:
    """Show one paper in full, in both languages: by its id, arXiv id or link, DOI, exact
    title, or words that match only it."""
    return run_sync(_show(settings_of(click.get_current_context()), " ".join(reference),
                          as_json))


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
        say_catalog_empty(settings)
    return EXIT_OK if stats.papers else EXIT_NO_MATCH


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Stats as JSON.")
@common_options
def stats(as_json: bool) -> int:
    """Papers per conference, year and track."""
    return run_sync(_stats(settings_of(click.get_current_context()), as_json))
