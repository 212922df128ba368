"""`/catalog stats` for everyone and `/catalog reload` for the bot's owner."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.tree import UserFacingError, lang_of
from bot.client.ui.cards import CARD_COLOUR, escape
from bot.core.messages import t
from bot.services.catalog_files import CatalogFileError

if TYPE_CHECKING:
    from bot.client.bot import PaperclubBot
    from bot.services.bundle import Services

class CatalogCog(commands.GroupCog, group_name="catalog", group_description="The paper catalog"):
    """Catalog facts and the owner's reload."""

    def __init__(self, bot: PaperclubBot, services: Services) -> None:
        self.bot = bot
        self.services = services
        super().__init__()

    @app_commands.command(name="stats", description="How many papers, from which venues, "
                                                    "loaded when")
    async def stats(self, interaction: discord.Interaction) -> None:
        """Papers per venue and the last load."""
        lang = lang_of(interaction)
        stats = await self.services.catalog.stats()
        when = discord.utils.format_dt(stats.last_load_at, "R") if stats.last_load_at else "—"
        description = t(lang, "catalog.stats", papers=stats.papers,
                        workshops=stats.workshops, when=when)
        if stats.last_load_rejected:
            lines = ", ".join(map(str, stats.last_load_rejected_lines))
            if len(stats.last_load_rejected_lines) < stats.last_load_rejected and lines:
                lines += ", …"
            description += "\n" + t(
                lang, "catalog.rejected_lines" if lines else "catalog.rejected",
                count=stats.last_load_rejected, lines=lines)
        embed = discord.Embed(title=t(lang, "catalog.title"), colour=CARD_COLOUR,
                              description=description)
        for venue in stats.venues[:25]:
            name = " ".join(str(p) for p in (venue.conference or "?", venue.year or "") if p)
            embed.add_field(name=escape(f"{name} · {venue.track}"), value=str(venue.papers))
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="reload", description="Reload the catalog file (bot owner only)")
    async def reload(self, interaction: discord.Interaction) -> None:
        """Reload the configured catalog file; answers with the load summary."""
        lang = lang_of(interaction)
        if not await self.bot.is_owner(interaction.user):
            raise UserFacingError(t(lang, "error.owner_only"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            reloaded = await self.services.catalog.reload()
        except CatalogFileError as exc:
            raise UserFacingError(str(exc)) from None
        path, report = reloaded.path, reloaded.report
        c = report.counts
        await interaction.followup.send(
            t(lang, "catalog.reloaded", file=escape(path.name), added=c.added, updated=c.updated,
              unchanged=c.unchanged, rejected=report.rejected), ephemeral=True)
