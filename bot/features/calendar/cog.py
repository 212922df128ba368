"""`/calendar`: any member gets the server's feed links (only they see them); organisers rotate
them (the old ones stop working at once) or turn the feed off."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import in_guild, is_organiser
from bot.client.cog_base import ServiceGroupCog
from bot.client.cog_host import host_of
from bot.client.respond import respond
from bot.client.tree import lang_of
from bot.features.calendar.service import FeedLinks
from bot.shared.lang import Lang
from bot.shared.messages import t

log = logging.getLogger(__name__)


def links_text(links: FeedLinks, lang: Lang, *, served: bool) -> str:
    """The subscription links, and a note when this bot serves no web pages."""
    text = t(lang, "calendar.links", webcal=links.webcal, https=links.https)
    return text if served else text + "\n" + t(lang, "calendar.not_served")


class CalendarCog(ServiceGroupCog, group_name="calendar",
                  group_description="The reading group's sessions in your calendar app"):
    """The calendar feed's links (with `[web] enabled` the web feature serves the feed)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Guild only."""
        return in_guild(interaction)

    @property
    def _served(self) -> bool:
        return self.bot.settings.web.enabled

    @app_commands.command(name="link", description="Your link to subscribe to the sessions")
    async def link(self, interaction: discord.Interaction) -> None:
        """The feed's `webcal://` and `https://` links, to the asker only."""
        lang = lang_of(interaction)
        links = await self.services.calendar.link(interaction.guild_id or 0)
        text = t(lang, "calendar.off") if links is None else links_text(
            links, lang, served=self._served)
        await respond(interaction, text, ephemeral=True)

    @app_commands.command(name="rotate",
                          description="New calendar links; the old ones stop working (organisers)")
    async def rotate(self, interaction: discord.Interaction) -> None:
        """New links (turning a feed that was off on)."""
        await is_organiser(interaction, self.services, "organiser.action.calendar")
        lang = lang_of(interaction)
        links = await self.services.calendar.rotate(interaction.guild_id or 0)
        text = t(lang, "calendar.rotated") + "\n" + links_text(links, lang, served=self._served)
        await respond(interaction, text, ephemeral=True)

    @app_commands.command(name="off", description="Turn the calendar feed off (organisers)")
    async def off(self, interaction: discord.Interaction) -> None:
        """No link works any more until an organiser rotates."""
        await is_organiser(interaction, self.services, "organiser.action.calendar")
        lang = lang_of(interaction)
        changed = await self.services.calendar.turn_off(interaction.guild_id or 0)
        await respond(interaction, t(lang, "calendar.turned_off" if changed
                                     else "calendar.already_off"), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(CalendarCog(host, host.services))
