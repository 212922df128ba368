"""`/present`: members opt in to the presenter rotation, skip a turn, or swap places."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import in_guild
from bot.client.cog_base import ServiceGroupCog
from bot.client.cog_host import host_of
from bot.client.respond import respond
from bot.client.tree import lang_of
from bot.shared.messages import t

if TYPE_CHECKING:
    pass


class PresentCog(ServiceGroupCog, group_name="present",
                 group_description="The presenter rotation"):
    """Anyone may volunteer; the rotation proposes presenters for new sessions."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Guild only."""
        return in_guild(interaction)

    @app_commands.command(name="volunteer", description="Join the presenter rotation")
    async def volunteer(self, interaction: discord.Interaction) -> None:
        """Join (once)."""
        added = await self.services.group.volunteer(interaction.guild_id or 0,
                                                    interaction.user.id)
        await respond(interaction, t(lang_of(interaction), "rotation.joined" if added
                                     else "rotation.already"), ephemeral=True)

    @app_commands.command(name="skip", description="Pass on your next turn to present")
    async def skip(self, interaction: discord.Interaction) -> None:
        """Go to the back of the rotation."""
        skipped = await self.services.group.skip(interaction.guild_id or 0, interaction.user.id)
        await respond(interaction, t(lang_of(interaction), "rotation.skipped" if skipped
                                     else "rotation.not_volunteer"), ephemeral=True)

    @app_commands.command(name="swap", description="Swap your place in the rotation")
    @app_commands.describe(member="Another volunteer")
    async def swap(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Exchange places with another volunteer."""
        swapped = await self.services.group.swap(interaction.guild_id or 0,
                                                 interaction.user.id, member.id)
        lang = lang_of(interaction)
        text = (t(lang, "rotation.swapped", member=member.mention) if swapped
                else t(lang, "rotation.swap_refused", member=member.mention))
        await respond(interaction, text, ephemeral=True)

    @app_commands.command(name="leave", description="Leave the presenter rotation")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Stop being proposed."""
        left = await self.services.group.withdraw(interaction.guild_id or 0, interaction.user.id)
        await respond(interaction, t(lang_of(interaction), "rotation.left" if left
                                     else "rotation.not_volunteer"), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(PresentCog(host, host.services))
