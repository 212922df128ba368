"""`/recommend [for] [count]`: the best unseen papers for the member or the group."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import in_guild
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import defer, respond
from bot.client.tree import lang_of
from bot.features.recommend.service import DEFAULT_COUNT, MAX_COUNT, Audience
from bot.features.recommend.views import LIST_COLOUR, FeedbackButton, picks_text
from bot.shared.messages import t

if TYPE_CHECKING:
    from bot.bundle import Services


class RecommendCog(commands.Cog):
    """Recommendations from the server's own signals."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services

    @app_commands.command(name="recommend",
                          description="Papers to read next, from what you and the group liked")
    @app_commands.describe(for_="For you, or for the whole group",
                           count="How many papers (1 to 25)")
    @app_commands.rename(for_="for")
    @app_commands.choices(for_=[app_commands.Choice(name="For me", value=Audience.ME.value),
                                app_commands.Choice(name="For the group",
                                                    value=Audience.GROUP.value)])
    async def recommend(self, interaction: discord.Interaction, for_: str = Audience.ME.value,
                        count: app_commands.Range[int, 1, MAX_COUNT] = DEFAULT_COUNT) -> None:
        """Ranked picks with a reason each, only for the asker."""
        in_guild(interaction)
        lang = lang_of(interaction)
        audience = Audience(for_)
        await defer(interaction, ephemeral=True)
        found = await self.services.recommend.recommend(
            interaction.guild_id or 0, interaction.user.id, audience, count)
        if not found:
            empty = "recommend.empty.me" if audience.value == "me" else "recommend.empty.group"
            await respond(interaction, t(lang, empty),
                          ephemeral=True)
            return
        title = "recommend.title.me" if audience.value == "me" else "recommend.title.group"
        embed = discord.Embed(title=t(lang, title),
                              description=picks_text(found, lang), colour=LIST_COLOUR)
        await respond(interaction, embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(RecommendCog(host, host.services))
    bot.add_dynamic_items(FeedbackButton)  # 👍 / 👎 on cards keep working after a restart
