"""Every slash command: a description, zh-CN and zh-TW localisations, and an end-to-end test."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client.bot import PaperclubBot
from bot.client.translator import COMMAND_PREFIX, command_keys
from bot.settings import Settings
from bot.shared.lang import Lang
from bot.shared.messages import CATALOGUE, t
from bot.wiring import build_bot

E2E = Path(__file__).resolve().parent
NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def offline_bot(settings: Settings) -> AsyncIterator[PaperclubBot]:
    """The bot with its cogs loaded, never connected."""
    paperclub = await build_bot(settings)
    await paperclub.add_commands()
    yield paperclub
    await paperclub.close()


def _commands(bot: PaperclubBot) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


def _context_menus(bot: PaperclubBot) -> list[app_commands.ContextMenu]:
    return [c for kind in (discord.AppCommandType.message, discord.AppCommandType.user)
            for c in bot.tree.get_commands(type=kind)
            if isinstance(c, app_commands.ContextMenu)]


def _command_strings(bot: PaperclubBot) -> set[str]:
    """Every name, description and choice the commands and their groups declare, and the
    context menus' names."""
    strings: set[str] = {menu.name for menu in _context_menus(bot)}
    for item in bot.tree.walk_commands():
        strings |= {item.name, item.description}
        if isinstance(item, app_commands.Command):
            for parameter in item.parameters:
                strings |= {parameter.display_name, parameter.description}
                strings |= {choice.name for choice in parameter.choices}
    return strings


async def test_every_command_is_described_and_translated(offline_bot: PaperclubBot) -> None:
    commands = _commands(offline_bot)
    assert {c.qualified_name for c in commands} >= {
        "paper", "random-paper", "catalog stats", "catalog reload", "digest set", "digest off",
        "digest status", "digest preview", "digest now"}
    for command in commands:
        assert command.description and command.description != "…", command.qualified_name
    keys = command_keys()
    declared = _command_strings(offline_bot)
    missing = sorted(declared - keys.keys())
    assert not missing, f"command strings missing from the catalogue: {missing}"
    unused = sorted(key for text, key in keys.items() if text not in declared)
    assert not unused, f"command entries no command uses: {unused}"
    command_entries = [k for k in CATALOGUE if k.startswith(COMMAND_PREFIX)]
    assert len(keys) == len(command_entries), "two command entries share an English text"
    for key in command_entries:
        if key.startswith(f"{COMMAND_PREFIX}name."):
            for lang in Lang:
                name = t(lang, key)
                assert NAME.match(name) and name == name.lower(), (key, lang)


async def test_every_command_has_an_end_to_end_test(offline_bot: PaperclubBot) -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in E2E.glob("test_*.py"))
    for command in _commands(offline_bot):
        assert f'slash("{command.qualified_name}"' in sources, command.qualified_name
    for menu in _context_menus(offline_bot):
        assert f'"{menu.name}"' in sources and "message_command(" in sources, menu.name


async def test_the_message_command_is_named_and_translated(offline_bot: PaperclubBot) -> None:
    (menu,) = _context_menus(offline_bot)
    assert (menu.name, menu.type) == ("Add paper to paperclub", discord.AppCommandType.message)
    assert menu.guild_only
    for lang in Lang:
        assert 1 <= len(t(lang, "cmd.menu.add_paper")) <= 32


def test_bot_needs_no_privileged_intent() -> None:
    from bot.client.bot import bot_intents

    intents = bot_intents()
    assert not (intents.members or intents.presences or intents.message_content)
    assert intents.guilds
    assert intents.value == discord.Intents(guilds=True).value
