"""`/vote start|status|close`: choose the next paper together, with persistent buttons."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import plain_title, title, when
from bot.client.checks import in_guild, is_organiser
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import defer, respond
from bot.client.tree import lang_of
from bot.features.papers.card import DESCRIPTION_LIMIT, fit
from bot.features.papers.card_view import CARD_COLOUR
from bot.features.votes.service import CloseStatus
from bot.features.votes.views import VoteButton, ballot_embed, ballot_view, native_poll, poll_text
from bot.shared.messages import render_reason, t, tn
from domain.paper import Paper
from domain.polls import PollPlan, Unfit, VoteStyle, plan_poll
from domain.votes import (
    DEFAULT_HOURS,
    DEFAULT_OPTIONS,
    MAX_HOURS,
    MAX_OPTIONS,
    MIN_OPTIONS,
    Vote,
    VoteStatus,
)

if TYPE_CHECKING:
    from bot.bundle import Services

STYLE_CHOICES = [app_commands.Choice(name="Buttons", value=VoteStyle.BUTTONS.value),
                 app_commands.Choice(name="Discord poll", value=VoteStyle.POLL.value)]
FALLBACK_KEYS = {Unfit.TOO_MANY: "vote.fallback.too_many",
                 Unfit.AMBIGUOUS: "vote.fallback.ambiguous",
                 Unfit.DURATION: "vote.fallback.duration",
                 Unfit.PERMISSION: "vote.fallback.permission"}
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
                           hours="How long the vote stays open, in hours",
                           style="Buttons (default) or a native Discord poll")
    @app_commands.rename(from_="from")
    @app_commands.choices(style=STYLE_CHOICES)
    async def start(self, interaction: discord.Interaction,
                    from_: app_commands.Range[int, MIN_OPTIONS, MAX_OPTIONS] = DEFAULT_OPTIONS,
                    hours: app_commands.Range[int, 1, MAX_HOURS] = DEFAULT_HOURS,
                    style: str = VoteStyle.BUTTONS.value) -> None:
        """Post the ballot in this channel (its buttons survive restarts), or a native poll
        when asked for and the papers fit one; the organiser hears why when they do not."""
        await is_organiser(interaction, self.services, "organiser.action.vote_start")
        lang = lang_of(interaction)
        planned: list[PollPlan | Unfit] = []

        def planner(options: Sequence[tuple[str, Paper | None]]) -> PollPlan | Unfit:
            if not interaction.app_permissions.send_polls:
                planned.append(Unfit.PERMISSION)
            else:
                planned.append(plan_poll(t(lang, "vote.title"),
                                         [plain_title(paper, lang, pid) for pid, paper in options],
                                         timedelta(hours=hours)))
            return planned[-1]

        async def post(vote: Vote, papers: dict[str, Paper]) -> int:
            """The ballot or the poll, as the vote's style says (under the vote lock)."""
            poll = planned[-1] if vote.style is VoteStyle.POLL else None
            if isinstance(poll, PollPlan):
                message = await respond(interaction, poll_text(vote, lang),
                                        poll=native_poll(poll))
            else:
                message = await respond(interaction, embed=ballot_embed(vote, papers, lang),
                                        view=ballot_view(vote))
            return message.id

        vote, _ = await self.services.votes.start(
            interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id,
            top=from_, hours=hours, poll=planner if style == VoteStyle.POLL else None,
            post=post)
        plan = planned[-1] if planned else None
        if vote.style is VoteStyle.POLL and isinstance(plan, PollPlan):
            note = t(lang, "vote.poll_started", hours=tn(lang, "count.hours", plan.hours))
            if plan.shortened:
                note += "\n" + t(lang, "vote.poll_shortened", n=plan.shortened)
            await respond(interaction, note, ephemeral=True)
        elif isinstance(plan, Unfit):
            await respond(interaction, t(lang, FALLBACK_KEYS[plan], n=len(vote.options)),
                          ephemeral=True)

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
        await defer(interaction, ephemeral=True)
        closed = await self.services.votes.close(interaction.guild_id or 0)
        reason = render_reason(lang, closed.reason) if closed.reason else ""
        await respond(interaction, t(lang, CLOSE_KEYS[closed.status], reason=reason),
                      ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(VotesCog(host, host.services))
    bot.add_dynamic_items(VoteButton)  # the ballot's buttons keep working after a restart
