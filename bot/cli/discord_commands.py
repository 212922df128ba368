"""The commands that reach Discord (or its local stand-in): `local`, `run`, `sync` and
`invite`. Discord unreachable or refusing the token is one line on stderr, exit 2."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import click
import discord
from pydantic import ValidationError

from bot.cli.common import EXIT_OK, Fail, common_options, err, out, run_sync, settings_of
from bot.cli.discord_errors import DISCORD_ERRORS, describe
from bot.cli.local import DEMO_SCRIPT, run_interactive, run_script
from bot.cli.local_terminal import is_interactive
from bot.client.bot import bot_intents
from bot.client.command_sync import sync_commands
from bot.client.endpoints import set_discord_endpoints
from bot.client.invite import PERMISSIONS, SCOPES, invite_url
from bot.discord_token import token_of
from bot.settings import ConfigError, Settings
from bot.wiring import build_bot
from domain.shards import parse_shard_ids


async def _local(settings: Settings, script: bool, lines: tuple[str, ...], meaning: bool) -> int:
    def write(text: str) -> None:
        print(text, flush=True)

    if script or lines or not is_interactive():
        await run_script(settings, lines or DEMO_SCRIPT, write, meaning=meaning)
    else:
        await run_interactive(settings, write, meaning=meaning)
    return EXIT_OK


@click.command()
@click.option("--script", is_flag=True,
              help="Run a short scripted session and print the transcript.")
@click.option("--meaning/--no-meaning", default=True, show_default=True,
              help="Search by meaning (the bundled encoder, ~300 MB), whatever "
                   "search.by_meaning says.")
@click.argument("lines", nargs=-1)
@common_options
def local(script: bool, meaning: bool, lines: tuple[str, ...]) -> int:
    """Use the real bot from the terminal, against a local Discord stand-in (no account needed).

    Without a terminal (or with --script) a scripted session runs; LINES replace its script.
    """
    try:
        return run_sync(_local(settings_of(click.get_current_context()), script, lines,
                               meaning))
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
        raise Fail(f"error: {describe(exc, urls)}") from None


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


@click.command()
@click.option("--shard-count", type=click.IntRange(min=1), default=None,
              help="How many shards the bot runs in all processes together "
                   "(default: discord.shard_count, else what Discord recommends).")
@click.option("--shard-ids", callback=_shard_ids, default=None,
              help="The shards this process runs, e.g. 0,1 or 0-3 (default: discord.shard_ids, "
                   "else all).")
@common_options
def run(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> int:
    """Connect to Discord with DISCORD_TOKEN and serve the slash commands."""
    settings = _with_shards(settings_of(click.get_current_context()), shard_count, shard_ids)
    try:
        with _reaching_discord(settings):
            return run_sync(_run_bot(settings))
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


@click.command()
@click.option("--guild", "guild_id", type=int, default=None,
              help="Sync to this server only (instant); default: discord.dev_guild_id if set, "
                   "else globally.")
@click.option("--global", "global_", is_flag=True, help="Sync globally (may take an hour).")
@click.option("--force", is_flag=True, help="Sync even if nothing changed since the last sync.")
@common_options
def sync(guild_id: int | None, global_: bool, force: bool) -> int:
    """Register the slash commands with Discord (skipped when unchanged)."""
    settings = settings_of(click.get_current_context())
    target_guild = 0 if global_ else (guild_id or settings.discord.dev_guild_id)
    target = f"guild {target_guild}" if target_guild else "global"
    with _reaching_discord(settings):
        return run_sync(_sync(settings, target, target_guild, force))


async def _application_id(settings: Settings) -> int:
    if settings.discord.application_id:
        return settings.discord.application_id
    token = _discord_token(settings)
    client = discord.Client(intents=bot_intents())
    async with client:
        await client.login(token)
        info = await client.application_info()
    return info.id


@click.command()
@click.option("--application-id", type=int, default=None,
              help="Your application's id (Developer Portal -> General Information).")
@common_options
def invite(application_id: int | None) -> int:
    """Print the invite link, with exactly the scopes and permissions paperclub needs."""
    settings = settings_of(click.get_current_context())
    if not application_id:
        with _reaching_discord(settings):
            application_id = run_sync(_application_id(settings))
    out.print(invite_url(application_id), soft_wrap=True)
    err.print(f"scopes: {', '.join(SCOPES)}")
    for name, why in PERMISSIONS.items():
        err.print(f"  {name}: {why}")
    return EXIT_OK
