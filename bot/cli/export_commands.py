"""`paperclub export`: the catalog (or the papers a search or a list of ids chooses) as JSON
Lines, BibTeX or Markdown; or a server's history, queue or a member's bookmarks."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape

from bot.cli.common import (
    EXIT_NO_MATCH,
    EXIT_OK,
    Fail,
    common_options,
    err,
    run_sync,
    say_catalog_empty,
    settings_of,
)
from bot.features.catalog.jsonl import dumps
from bot.features.export.formats import ExportFormat, ExportWhat
from bot.features.export.service import (
    CATALOG_HEADING,
    catalog_text,
    select_by_ids,
    select_by_query,
)
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService, Strategy
from bot.features.papers.store import PaperStore
from bot.graphs.catalog import opened_export
from bot.graphs.summaries import opened_exportable
from bot.settings import Settings
from bot.shared.lang import Lang
from domain.paper import Paper


def _write(text: str, output: Path | None) -> None:
    """The export's text to `output`, or to standard output."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_bytes(text.encode())
    except OSError as exc:
        raise Fail(f"error: cannot write {output}: {exc.strerror or exc}") from None


EXPORT_BATCH = 500
"""Papers given their AI summaries at a time (one read each batch)."""


async def _export(settings: Settings, output: Path | None) -> int:
    count = 0
    async with opened_exportable(settings) as (store, attach):  # no database: no file
        try:
            handle = output.open("w", encoding="utf-8") if output else sys.stdout
        except OSError as exc:
            raise Fail(f"error: cannot write {output}: {exc.strerror or exc}") from None
        try:
            batch: list[Paper] = []
            async for paper in store.iter_papers():
                batch.append(paper)
                if len(batch) == EXPORT_BATCH:
                    handle.writelines(dumps(shown) + "\n" for shown in await attach(batch))
                    count, batch = count + len(batch), []
            handle.writelines(dumps(shown) + "\n" for shown in await attach(batch))
            count += len(batch)
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
                raise Fail(f"error: no paper with id {', '.join(chosen.missing)} "
                            "(nothing exported)", EXIT_NO_MATCH)
            if not chosen.papers:
                raise Fail("error: --ids names no paper")
            return chosen.papers, CATALOG_HEADING
        assert query is not None
        if parse_query(query).is_empty():
            raise Fail("error: the query has no words to search for")
        chosen = await select_by_query(search, query, limit)
    finally:
        await search.close()
    outcome = chosen.outcome
    if outcome is not None and outcome.did_you_mean:
        err.print(f"did you mean: [bold]{escape(outcome.did_you_mean)}[/bold]")
    if outcome is not None and outcome.strategy is Strategy.ANY_WORD:
        err.print("no paper has every word: exporting papers with any of them")
    if not chosen.papers:
        raise Fail("no match (nothing exported)", EXIT_NO_MATCH)
    if len(chosen.papers) == limit:
        err.print(f"kept the best {limit} matches (raise --limit for more)")
    return chosen.papers, f"{CATALOG_HEADING}: {query}"


async def _catalog_export(settings: Settings, fmt: str, query: str | None, ids: str | None,
                          limit: int, output: Path | None) -> int:
    async with opened_exportable(settings) as (store, attach):
        papers, heading = await _selected(settings, store, query, ids, limit)
        papers = await attach(papers)
    if fmt == "jsonl":
        text = "".join(dumps(paper) + "\n" for paper in papers)
    else:
        text = catalog_text(papers, ExportFormat(fmt), heading)
    _write(text, output)
    if output is not None:
        err.print(f"exported {len(papers)} papers to {output}")
    if not papers:
        say_catalog_empty(settings)
    return EXIT_OK


async def _group_export(settings: Settings, what: str, fmt: str, server: int,
                        user: int | None, output: Path | None) -> int:
    async def name_of(user_id: int | None) -> str:
        """No member's id leaves: only Discord knows display names, and the command line
        does not ask it (as `paperclub calendar`), so members are left unnamed."""
        return "a former member" if user_id is None else "a member"

    async with opened_export(settings) as exports:
        made = await exports.export(server, ExportWhat(what), ExportFormat(fmt), Lang.EN,
                                    user_id=user, name_of=name_of, limit_bytes=sys.maxsize)
    if not made.content.total:  # as a query that finds nothing: no file, exit 1
        whose = f"member {user}'s {what}" if user is not None else f"the {what}"
        raise Fail(f"{whose} of server {server} is empty (nothing exported)", EXIT_NO_MATCH)
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
        raise Fail("error: --query and --ids choose catalog papers; they do not go with "
                    "--what, --server or --user")
    if query is not None and ids is not None:
        raise Fail("error: give --query or --ids, not both")
    if limit is not None and query is None:
        raise Fail("error: --limit goes with --query")
    if not group:
        return
    if fmt == "jsonl":
        raise Fail("error: --what, --server and --user go with --format markdown or bibtex")
    if what is None or server is None:
        raise Fail("error: --what and --server go together (a server's records); leave both "
                    "out to export the catalog")
    if (what == ExportWhat.BOOKMARKS) != (user is not None):
        raise Fail("error: --user goes with --what bookmarks, and --what bookmarks needs it")


@click.command()
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
    settings = settings_of(click.get_current_context())
    _check_export_options(fmt, what, server, user, query, ids, limit)
    if what is not None and server is not None:
        return run_sync(_group_export(settings, what, fmt, server, user, output))
    if fmt == "jsonl" and query is None and ids is None:
        return run_sync(_export(settings, output))
    return run_sync(_catalog_export(settings, fmt, query, ids, limit or EXPORT_LIMIT_DEFAULT,
                                output))
