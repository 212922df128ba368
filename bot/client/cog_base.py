"""What the slash-command groups share: the bot and the services, and the admin check."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.bundle import Services
from bot.client.checks import manages_guild
from bot.client.cog_host import CogHost


class ServiceGroupCog(commands.GroupCog):
    """A slash-command group whose handlers turn options into one service call."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services
        super().__init__()


class AdminGroupCog(ServiceGroupCog):
    """A group for server admins: guild only and Manage Server, checked in code as well as by
    Discord's default permissions (which a server may loosen)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Guild only and Manage Server."""
        return manages_guild(interaction)
