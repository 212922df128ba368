"""`paperclub recommend` and `paperclub similar`: the ranking `/recommend` and "More like this"
show in Discord, from the configured database, as text or JSON (ids, scores, reasons)."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from bot.cli.paper_reference import paper_named
from bot.features.corrections.service import CorrectionService
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.search import SearchService
from bot.features.recommend.reasons import paper_title, reason
from bot.features.recommend.service import MAX_COUNT, Audience, Recommended, RecommendService
from bot.graphs.catalog import open_configured
from bot.settings import ConfigError, Settings, load_settings
from bot.shared.clock import utc_now
from bot.shared.lang import Lang
from domain.storage_faults import StorageError
from storage import backend as stores

EXIT_OK, EXIT_NO_MATCH, EXIT_BAD_INPUT = 0, 1, 2
out = Console(highlight=False, soft_wrap=True)


def with_settings(func: Callable[..., Coroutine[Any, Any, int]]) -> Callable[..., None]:
    """`--config` and `--db` as on every `paperclub` command; the coroutine gets the settings
    first and its code is the exit code (a configuration or storage error exits 2)."""

    @click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
                  help="TOML config file (see config.example.toml).")
    @click.option("--db", "db_path", type=click.Path(path_type=Path), default=None,
                  help="SQLite database file, overriding the configured one.")
    @functools.wraps(func)
    def wrapper(config_path: Path | None, db_path: Path | None, **kwargs: Any) -> None:
        try:
            settings = load_settings(config_path, os.environ)
            if db_path is not None:
                settings = settings.model_copy(update={"database": settings.database.model_copy(
                    update={"path": db_path, "url": None})})
            code = asyncio.run(func(settings, **kwargs))
        except (ConfigError, StorageError) as exc:
            print(f"paperclub: error: {exc}", file=sys.stderr)
            code = EXIT_BAD_INPUT
        sys.exit(code)

    return wrapper


@dataclass(frozen=True, slots=True)
class Opened:
    """What the two commands read: the ranking, and the one resolver of a paper's name."""

    service: RecommendService
    lookup: PaperLookup


@asynccontextmanager
async def opened_recommend(settings: Settings) -> AsyncIterator[Opened]:
    """The recommendation service on the configured database, without Discord (as every
    reading command: an existing database, neither created nor migrated)."""
    db = await open_configured(settings.database, existing=True)
    try:
        papers = stores.PAPERS.open(db)  # `--server`'s picks show its corrections
        service = RecommendService(papers, stores.RECOMMENDATIONS.open(db), utc_now,
                                   view=CorrectionService(stores.CORRECTIONS.open(db), papers),
                                   features=stores.RECOMMEND_FEATURES.open(db))
        search = SearchService(papers)
        try:
            yield Opened(service, PaperLookup(search))
        finally:
            await search.close()
            await service.close()
    finally:
        await db.close()


def as_json(found: list[Recommended]) -> list[dict[str, Any]]:
    """Each pick's id, title, score and reason (the liked paper, its signal, the words)."""
    return [{"id": r.paper.id, "title": r.paper.title_en, "score": r.pick.score,
             "like": r.pick.like, "like_title": r.like.title_en if r.like else None,
             "signal": r.pick.like_kind.value if r.pick.like_kind else None,
             "words": list(r.pick.words), "reason": reason(r, Lang.EN)} for r in found]


def _print(found: list[Recommended], as_json_output: bool, nothing: str) -> int:
    """The picks (text or JSON), or `nothing` on stderr (exit 1)."""
    if not found:
        if as_json_output:
            print("[]")
        print(f"paperclub: {nothing}", file=sys.stderr)
        return EXIT_NO_MATCH
    if as_json_output:
        out.print(json.dumps(as_json(found), ensure_ascii=False, indent=2), markup=False)
    else:
        for i, r in enumerate(found, 1):
            out.print(f"{i}. {paper_title(r, Lang.EN)} [{r.paper.id}] {r.pick.score:.3f}\n"
                      f"   {reason(r, Lang.EN)}", markup=False)
    return EXIT_OK if found else EXIT_NO_MATCH


LIMIT = click.IntRange(1, MAX_COUNT)


@click.command("recommend")
@click.option("--server", "guild_id", type=int, required=True, help="The Discord server id.")
@click.option("--user", "user_id", type=int, default=None,
              help="A member's id: their recommendations (default: the group's).")
@click.option("--limit", type=LIMIT, default=10, show_default=True)
@click.option("--json", "json_output", is_flag=True, help="JSON: ids, scores and reasons.")
@with_settings
async def recommend_command(settings: Settings, guild_id: int, user_id: int | None, limit: int,
                            json_output: bool) -> int:
    """The best unseen papers for a member or the group, as `/recommend` ranks them."""
    async with opened_recommend(settings) as opened:
        audience = Audience.GROUP if user_id is None else Audience.ME
        found = await opened.service.recommend(guild_id, user_id or 0, audience, limit)
    whose = f"member {user_id} of server {guild_id}" if user_id else f"server {guild_id}"
    return _print(found, json_output,
                  f"nothing to recommend for {whose}: no paper bookmarked, suggested, voted for, "
                  "discussed or 👍 there yet (or every paper is already seen)")


@click.command("similar")
@click.argument("paper")
@click.option("--limit", type=LIMIT, default=10, show_default=True)
@click.option("--json", "json_output", is_flag=True, help="JSON: ids, scores and shared words.")
@with_settings
async def similar_command(settings: Settings, paper: str, limit: int, json_output: bool) -> int:
    """The papers nearest to PAPER, as "More like this" shows them. PAPER is its id, arXiv id
    or link, DOI, exact title, or words that match only it."""
    async with opened_recommend(settings) as opened:
        named = await paper_named(opened.lookup, paper, "compare")
        if named is None:
            return EXIT_NO_MATCH
        found = await opened.service.similar(named.id, limit)
    return _print(found, json_output,
                  f"no paper shares enough words with {named.id} ({named.title_en[:80]})")
