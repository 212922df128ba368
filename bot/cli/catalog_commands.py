"""The catalog's writing commands: `import` (a file or an arXiv search) and `add` (arXiv ids).
Exit codes: 0 found / done, 1 no match, 2 bad usage or input."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click
from rich.markup import escape
from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

from bot.cli.common import (
    EXIT_NO_MATCH,
    EXIT_OK,
    Fail,
    common_options,
    err,
    out,
    run_sync,
    settings_of,
)
from bot.features.adding.arxiv_types import ArxivError, ArxivRejected
from bot.features.adding.service import MAX_IDS
from bot.features.catalog.files import CatalogFormat
from bot.features.catalog.loader import LoadReport, load_catalog
from bot.graphs.adding import opened_adding
from bot.graphs.catalog import opened_catalog
from bot.settings import Settings
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
