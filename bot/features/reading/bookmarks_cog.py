"""`/bookmark` and `/bookmarks`: each member's reading list in a server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import listed_choices, paper_choices, send_pages, title, when
from bot.client.checks import in_guild
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import respond
from bot.client.tree import lang_of
from bot.shared.messages import t
from bot.shared.pages import text_pages

if TYPE_CHECKING:
    from bot.bundle import Services


class ReadingCog(commands.Cog):
    """Reading lists: private to each member, per server."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services

    @app_commands.command(name="bookmark",
                          description="Keep a paper on your reading list in this server")
    @app_commands.describe(paper="A title, author or topic; pick one from the list",
                           remove_it="Take it off your reading list instead")
    async def bookmark(self, interaction: discord.Interaction,
                       paper: app_commands.Range[str, 1, 300], remove_it: bool = False) -> None:
        """Add (or remove) one bookmark; only the member sees the answer."""
        in_guild(interaction)
        lang = lang_of(interaction)
        changed, found = await self.services.bookmarks.toggle(
            interaction.guild_id or 0, interaction.user.id, paper, remove=remove_it)
        if remove_it:
            key = "bookmarks.removed" if changed else "bookmarks.not_there"
        else:
            key = "bookmarks.added" if changed else "bookmarks.already"
        await respond(interaction, t(lang, key, title=title(found, lang)), ephemeral=True)

    @bookmark.autocomplete("paper")
    async def bookmark_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        """Catalog titles (the member's own bookmarks when removing)."""
        if getattr(interaction.namespace, "remove_it", False):
            marked = await self.services.bookmarks.of_member(interaction.guild_id or 0,
                                                             interaction.user.id)
            papers = [m.paper for m in marked if m.paper is not None]
            return listed_choices(papers, current, lang_of(interaction))
        return await paper_choices(self.services.search, interaction, current)

    @app_commands.command(name="bookmarks", description="Your reading list in this server")
    async def bookmarks(self, interaction: discord.Interaction) -> None:
        """The member's bookmarks, paged, only to them."""
        in_guild(interaction)
        lang = lang_of(interaction)
        marked = await self.services.bookmarks.of_member(interaction.guild_id or 0,
                                                         interaction.user.id)
        lines = [t(lang, "bookmarks.line", n=n, title=title(m.paper, lang, m.bookmark.paper_id),
                   paper=m.bookmark.paper_id, when=when(m.bookmark.at))
                 for n, m in enumerate(marked, start=1)]
        await send_pages(self.bot, interaction, text_pages(
            t(lang, "bookmarks.title"), lines, lang, empty=t(lang, "bookmarks.empty")),
            ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(ReadingCog(host, host.services))
