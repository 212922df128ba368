"""The catalog's reading commands: `search`, `show` and `stats` (they never create or migrate
a database, and import nothing of arXiv's client or Discord's). Exit codes: 0 found / done, 1 no
match, 2 bad usage or input."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.markup import escape

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
from bot.cli.paper_reference import paper_named
from bot.features.catalog.jsonl import dumps
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from bot.graphs.catalog import opened_catalog, opened_search
from bot.settings import SEARCH_LIMIT_MAX, SEARCH_LIMIT_MIN, Settings


async def _search(settings: Settings, text: str, filters: dict[str, Any], limit: int,
                  as_json: bool) -> int:
    query = parse_query(text, **filters)
    if query.is_empty():
        raise Fail("error: the query has no words to search for")
    async with opened_search(settings) as search:
        outcome = await search.search(query, limit=limit, by_meaning=True)
        empty = not outcome.hits and await search.count() == 0
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
            paper = await paper_named(PaperLookup(search), reference, "show")
        finally:
            await search.close()
    if paper is None:
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
