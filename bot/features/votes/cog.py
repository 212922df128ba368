"""`/vote start|status|close`: choose the next paper together, with persistent buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import title, when
from bot.client.checks import in_guild, is_organiser
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import respond
from bot.client.tree import lang_of
from bot.features.papers.card import DESCRIPTION_LIMIT, fit
from bot.features.papers.card_view import CARD_COLOUR
from bot.features.votes.service import CloseStatus
from bot.features.votes.ui import VoteButton, ballot_embed, ballot_view
from bot.shared.messages import render_reason, t, tn
from domain.votes import (
    DEFAULT_HOURS,
    DEFAULT_OPTIONS,
    MAX_HOURS,
    MAX_OPTIONS,
    MIN_OPTIONS,
    VoteStatus,
)

if TYPE_CHECKING:
    from bot.bundle import Services

CLOSE_KEYS = {CloseStatus.ANNOUNCED: "vote.closed_now", CloseStatus.ALREADY: "vote.closing",
              CloseStatus.PENDING: "vote.closing", CloseStatus.FAILED: "vote.failed"}


class VotesCog(commands.Cog):
    """Organisers open and close votes; anyone votes with the buttons."""

    vote = app_commands.Group(name="vote", description="Choose the next paper together")

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services

    @vote.command(name="start", description="Open a vote on the top of the queue (organisers)")
    @app_commands.describe(from_="How many of the queue's top papers (2 to 10)",
                           hours="How long the vote stays open, in hours")
    @app_commands.rename(from_="from")
    async def start(self, interaction: discord.Interaction,
                    from_: app_commands.Range[int, MIN_OPTIONS, MAX_OPTIONS] = DEFAULT_OPTIONS,
                    hours: app_commands.Range[int, 1, MAX_HOURS] = DEFAULT_HOURS) -> None:
        """Post the ballot in this channel; its buttons survive restarts."""
        await is_organiser(interaction, self.services, "organiser.action.vote_start")
        lang = lang_of(interaction)
        vote, papers = await self.services.votes.start(
            interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id,
            top=from_, hours=hours)
        message = await respond(interaction, embed=ballot_embed(vote, papers, lang),
                                view=ballot_view(vote))
        await self.services.votes.attach(vote.id, message.id)

    @vote.command(name="status", description="Votes so far and when the vote ends")
    async def status(self, interaction: discord.Interaction) -> None:
        """The live vote's counts, or how the last one ended."""
        in_guild(interaction)
        lang = lang_of(interaction)
        report = await self.services.votes.report(interaction.guild_id or 0)
        if report is None:
            await respond(interaction, t(lang, "vote.none_open"), ephemeral=True)
            return
        vote = report.vote
        lines = [f"{r.position}. {title(r.paper, lang, r.paper_id)} — "
                 + tn(lang, "count.votes", r.votes) for r in report.results]
        if vote.status is VoteStatus.OPEN:
            head = t(lang, "vote.ends", when=when(vote.ends_at))
        elif vote.status is VoteStatus.CLAIMED:
            head = t(lang, "vote.closing")
        elif vote.status is VoteStatus.FAILED and vote.reason is not None:
            head = t(lang, "vote.status_failed", reason=render_reason(lang, vote.reason))
        else:
            won = next((r for r in report.results if r.paper_id == vote.winner), None)
            head = t(lang, "vote.status_announced",
                     title=title(won.paper if won else None, lang, vote.winner or ""))
        embed = discord.Embed(title=t(lang, "vote.title"), colour=CARD_COLOUR,
                              description=fit(head + "\n\n" + "\n".join(lines),
                                              DESCRIPTION_LIMIT))
        await respond(interaction, embed=embed, ephemeral=True)

    @vote.command(name="close",
                  description="Close the vote now and announce the winner (organisers)")
    async def close(self, interaction: discord.Interaction) -> None:
        """Close early: the same exactly-once announcement as at the deadline."""
        await is_organiser(interaction, self.services, "organiser.action.vote_close")
        lang = lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        closed = await self.services.votes.close(interaction.guild_id or 0)
        reason = render_reason(lang, closed.reason) if closed.reason else ""
        await respond(interaction, t(lang, CLOSE_KEYS[closed.status], reason=reason),
                      ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(VotesCog(host, host.services))
    bot.add_dynamic_items(VoteButton)  # the ballot's buttons keep working after a restart
