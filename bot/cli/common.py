"""What every `paperclub` command shares: the exit codes, the two consoles, the expected
failure (`Fail`), and `common_options` (`--config`, `--db`, settings loaded once, failures as
exit codes)."""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, ParamSpec

import click
from rich.console import Console
from rich.markup import escape

from bot.discord_token import MissingToken
from bot.features.catalog.files import CatalogFileError
from bot.features.catalog.loader import StrictLoadError
from bot.features.papers.query import QueryError
from bot.ops.logs import configure_logging
from bot.settings import ConfigError, Settings, load_settings
from domain.storage_faults import NoDatabase, StorageError

EXIT_OK, EXIT_NO_MATCH, EXIT_BAD_INPUT = 0, 1, 2

P = ParamSpec("P")


def _console(*, stderr: bool) -> Console:
    """A console that wraps lines only for a terminal: piped to a file or journald, each message
    stays one line."""
    console = Console(stderr=stderr, highlight=False)
    console.soft_wrap = not console.is_terminal
    return console


out = _console(stderr=False)
err = _console(stderr=True)


class Fail(Exception):
    """An expected failure: message for stderr and an exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


def settings_of(ctx: click.Context) -> Settings:
    """The settings `common_options` loaded for this command."""
    settings: Settings = ctx.obj
    return settings


def run_sync(coro: Coroutine[Any, Any, int]) -> int:
    """Run a command's coroutine to its exit code."""
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
            configure_logging(settings.logging.level, settings.logging.format)
            ctx.obj = settings
            code = ctx.invoke(func, *args, **kwargs)
        except Fail as exc:
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


def say_catalog_empty(settings: Settings) -> None:
    """Reading commands never load anything: they say how to (the bot loads catalog.path)."""
    err.print(f"the catalog is empty: load one with `paperclub import FILE` (the bot loads "
              f"{escape(str(settings.catalog_path()))} when it starts on an empty database)")
