"""`/catalog stats` for everyone, `/catalog reload` for the bot's owner, and adding papers from
arXiv (`/catalog add` and the message command "Add paper to paperclub") for those the server
lets add."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.checks import may_add
from bot.client.cog_base import ServiceGroupCog
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import defer, respond
from bot.client.tree import UserFacingError, lang_of
from bot.features.adding.answer import answer_report
from bot.features.catalog.files import CatalogFileError
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.features.papers.results_view import ListButton, ListSelect
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.arxiv_ids import find_arxiv_ids
from domain.catalog import VenueCount
from domain.paper import Track

if TYPE_CHECKING:
    from bot.bundle import Services

ADD_MENU = "Add paper to paperclub"
LINK_LIMIT = 1000
TRACK_KEYS = {Track.MAIN.value: "card.main_track", Track.WORKSHOP.value: "card.workshop"}
"""How `/catalog stats` names a track (anything else is "track not given")."""


class CatalogCog(ServiceGroupCog, group_name="catalog", group_description="The paper catalog"):
    """Catalog facts and the owner's reload."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.add_menu = app_commands.ContextMenu(name=ADD_MENU, callback=self.add_from_message)
        self.add_menu.guild_only = True
        super().__init__(bot, services)

    async def cog_load(self) -> None:
        """The message command lives outside the group: registered with the cog."""
        self.bot.tree.add_command(self.add_menu)

    async def cog_unload(self) -> None:
        """Take the message command away with the cog."""
        self.bot.tree.remove_command(self.add_menu.name, type=self.add_menu.type)

    async def add_from_message(self, interaction: discord.Interaction,
                               message: discord.Message) -> None:
        """Apps -> "Add paper to paperclub": the arXiv ids and links in the message (its content
        comes with the interaction, so no Message Content intent is needed)."""
        await self._add(interaction, message.content)

    @app_commands.command(name="add", description="Add papers from arXiv by link or id")
    @app_commands.describe(link="An arXiv link or id, such as 2401.01234 (several: separate "
                                "them with spaces)")
    async def add(self, interaction: discord.Interaction,
                  link: app_commands.Range[str, 1, LINK_LIMIT]) -> None:
        """Fetch the papers from arXiv and add them; answer with their cards."""
        await self._add(interaction, link)

    async def _add(self, interaction: discord.Interaction, text: str) -> None:
        await may_add(interaction, self.services)
        lang = lang_of(interaction)
        scan = find_arxiv_ids(text)
        if not scan.found and not scan.malformed:
            raise UserFacingError(t(lang, "adding.none_found"))
        await defer(interaction, ephemeral=False)  # arXiv may make us wait seconds
        report = await self.services.adding.add_scanned(scan)
        await answer_report(self.bot, self.services, interaction, report, lang)

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
        if (meaning := self.services.search.meaning) is not None:
            done = meaning.progress()
            description += "\n" + t(lang, "catalog.meaning", embedded=f"{done.embedded:,}",
                                     total=f"{done.total:,}", more=t(
                                         lang, "catalog.meaning_running") if done.running
                                     else "")
        embed = discord.Embed(title=t(lang, "catalog.title"), colour=CARD_COLOUR,
                              description=description)
        for venue in stats.venues[:25]:
            embed.add_field(name=venue_row(venue, lang), value=str(venue.papers))
        if self.services.summaries is not None and await self.bot.is_owner(interaction.user):
            figures = await self.services.summaries.figures()
            embed.add_field(name=t(lang, "catalog.summaries"), inline=False, value="\n".join(
                [t(lang, "catalog.summaries_lang", language=c.lang.value, done=c.done,
                   wanted=c.wanted, failed=c.failed) for c in figures.coverage]
                + [t(lang, "catalog.summaries_tokens", spent=figures.tokens_today,
                     budget=figures.budget)]))
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="reload", description="Reload the catalog file (bot owner only)")
    async def reload(self, interaction: discord.Interaction) -> None:
        """Reload the configured catalog file; answers with the load summary."""
        lang = lang_of(interaction)
        if not await self.bot.is_owner(interaction.user):
            raise UserFacingError(t(lang, "error.owner_only"))
        await defer(interaction, ephemeral=True)
        try:
            reloaded = await self.services.catalog.reload()
        except CatalogFileError as exc:
            raise UserFacingError(str(exc)) from None
        path, report = reloaded.path, reloaded.report
        c = report.counts
        await respond(
            interaction,
            t(lang, "catalog.reloaded", file=escape(path.name), added=c.added, updated=c.updated,
              unchanged=c.unchanged, rejected=report.rejected), ephemeral=True)


def venue_row(venue: VenueCount, lang: Lang) -> str:
    """A `/catalog stats` row's name: conference, year and track; papers of no conference
    (added from arXiv, imported) under a name of their own, not "? · track not given"."""
    if not venue.conference:
        return t(lang, "catalog.no_conference")
    name = " ".join(str(p) for p in (venue.conference, venue.year or "") if p)
    return f"{escape(name)} · {t(lang, TRACK_KEYS.get(venue.track, 'catalog.track.unknown'))}"


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(CatalogCog(host, host.services))
    bot.add_dynamic_items(ListButton, ListSelect)  # the lists of papers added from arXiv
