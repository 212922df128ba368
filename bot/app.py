"""The paperclub bot: dependencies come in through the constructor; close() releases them."""

from __future__ import annotations

import logging
import weakref
from typing import Any, TypeVar

import discord
from discord.ext import commands

from bot.cogs.catalog import CatalogCog
from bot.cogs.papers import PapersCog
from bot.command_sync import sync_commands
from bot.errors import PaperclubTree
from bot.i18n import PaperclubTranslator
from bot.services.search import SearchService
from bot.settings import Settings
from storage.database import Database
from storage.interfaces import PaperStore, StateStore

log = logging.getLogger(__name__)

V = TypeVar("V", bound=discord.ui.View)


def bot_intents() -> discord.Intents:
    """Only the guilds intent: slash commands need no privileged intent."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class PaperclubBot(commands.Bot):
    """A discord.py bot wired to paperclub's storage and services."""

    def __init__(self, *, settings: Settings, db: Database, papers: PaperStore,
                 state: StateStore, search: SearchService, **options: Any) -> None:
        owner_ids = set(settings.discord.owner_ids)
        if owner_ids:
            options["owner_ids"] = owner_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=PaperclubTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )
        self.settings = settings
        self.db = db
        self.papers = papers
        self.state = state
        self.search = search
        self._views: weakref.WeakSet[discord.ui.View] = weakref.WeakSet()

    def track(self, view: V) -> V:
        """Remember a view sent in a message, so that close() can stop its timeout task."""
        self._views.add(view)
        return view

    async def setup_hook(self) -> None:
        """Translator, cogs, and a command sync if the settings ask for one."""
        await self.tree.set_translator(PaperclubTranslator())
        await self.add_cog(PapersCog(self))
        await self.add_cog(CatalogCog(self))
        discord_settings = self.settings.discord
        if discord_settings.sync != "off":
            await sync_commands(self.tree, self.state, target=discord_settings.sync,
                                guild_id=discord_settings.dev_guild_id)

    async def close(self) -> None:
        """Disconnect, then release the database (its threads end with it)."""
        try:
            for view in list(self._views):
                view.stop()
            await super().close()
        finally:
            await self.db.close()
