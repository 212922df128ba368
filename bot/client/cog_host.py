"""What a feature's cog may use of the bot, as a protocol: the services bundle, the settings,
background work, the command tree, view tracking and the live result lists. The bot satisfies
it; cogs, views and replies are typed on it and never import the bot, so nothing imports back
up the graph.

Each feature's cog module is a discord.py extension: `PaperclubBot` loads it by name
(`bot.client.extensions.EXTENSIONS`) and its `setup(bot)` finds the host with `host_of`.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from bot.bundle import Services
from bot.client.background import BackgroundTasks
from bot.client.ui.live import LiveLists
from bot.settings import Settings

V = TypeVar("V", bound=discord.ui.view.BaseView)


class Outbox(Protocol):
    """The outbox's sender as a cog sees it (`bot.features.notifications.sender`)."""

    def wake(self) -> None:
        """Something was queued: send it now rather than at the next poll."""
        ...


@runtime_checkable
class CogHost(Protocol):
    """The bot as its cogs see it."""

    services: Services
    settings: Settings
    background: BackgroundTasks
    lists: LiveLists
    """The result lists whose controls still answer (`bot.client.ui.live`)."""
    outbox: Outbox

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    def track(self, view: V) -> V:
        """Remember a view sent in a message, so that closing stops its timeout task."""
        ...

    async def is_owner(self, user: discord.User | discord.Member, /) -> bool:
        """Whether `user` owns the bot."""
        ...


def host_of(client: discord.Client | commands.Bot) -> CogHost:
    """The paperclub bot behind an extension's `setup` or an interaction's client."""
    if not isinstance(client, CogHost):
        raise TypeError(f"{type(client).__name__} is not a paperclub bot")
    return client
