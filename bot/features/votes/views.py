"""The vote's message: numbered papers and one button each, persistent across restarts.

Each button is a `DynamicItem` whose custom id names the vote and the option
(`paperclub:vote:<vote>:<position>`); the bot registers the class in `setup_hook`, so clicks on
a vote posted before a restart still arrive, with no per-message state in memory.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import discord

from bot.client.answers import title, when
from bot.client.cog_host import host_of
from bot.client.tree import lang_of
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR
from bot.features.votes.service import vote_marker
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper
from domain.polls import PollPlan
from domain.votes import BallotOutcome, Vote

log = logging.getLogger(__name__)

BALLOT_KEYS = {BallotOutcome.CAST: "vote.cast", BallotOutcome.CHANGED: "vote.changed",
               BallotOutcome.SAME: "vote.same", BallotOutcome.CLOSED: "vote.closed",
               BallotOutcome.UNKNOWN: "vote.closed"}
LINE_LIMIT = 300


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                 template=r"paperclub:vote:(?P<vote>\d+):(?P<position>\d+)"):
    """One option's button; the click is a ballot."""

    def __init__(self, vote_id: int, position: int, *, disabled: bool = False,
                 count: int | None = None) -> None:
        label = str(position) if count is None else f"{position} · {count}"
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary, disabled=disabled,
            custom_id=f"paperclub:vote:{vote_id}:{position}"))
        self.vote_id = vote_id
        self.position = position

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> VoteButton:
        """Rebuild the button from its custom id (also after a restart)."""
        return cls(int(match["vote"]), int(match["position"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Record the ballot; the answer is only for the voter."""
        bot = host_of(interaction.client)
        lang = lang_of(interaction)
        outcome, paper = await bot.services.votes.ballot(self.vote_id, self.position,
                                                         interaction.user.id)
        await interaction.response.send_message(
            t(lang, BALLOT_KEYS[outcome], title=title(paper, lang)), ephemeral=True)


def ballot_view(vote: Vote, *, disabled: bool = False,
                counts: Mapping[int, int] | None = None) -> discord.ui.View:
    """One button per option (a persistent view: no timeout); with `counts` (by position) each
    label shows its option's votes, `2 · 5`: counts only, never who voted."""
    view = discord.ui.View(timeout=None)
    for option in vote.options:
        count = None if counts is None else counts.get(option.position, 0)
        view.add_item(VoteButton(vote.id, option.position, disabled=disabled, count=count))
    return view


def ballot_embed(vote: Vote, papers: Mapping[str, Paper], lang: Lang) -> discord.Embed:
    """The numbered papers and when voting ends."""
    lines = [fit(f"**{o.position}.** {title(papers.get(o.paper_id), lang, o.paper_id)}",
                 LINE_LIMIT) for o in vote.options]
    lines.append("\n" + t(lang, "vote.ends", when=when(vote.ends_at)))
    embed = discord.Embed(title=t(lang, "vote.title"), description="\n".join(lines),
                          colour=CARD_COLOUR)
    embed.set_footer(text=t(lang, "vote.how"))
    return embed


def poll_text(vote: Vote, lang: Lang) -> str:
    """The poll message's text: how to vote, then the vote's marker on a small line of its own
    (a close finds the poll again by it when its id was not recorded)."""
    return t(lang, "vote.poll_how", when=when(vote.ends_at)) + "\n-# " + vote_marker(vote.id)


def native_poll(plan: PollPlan) -> discord.Poll:
    """Discord's poll for the plan: one answer per option, in order, one choice a member."""
    poll = discord.Poll(plan.question, timedelta(hours=plan.hours), multiple=False)
    for answer in plan.answers:
        poll.add_answer(text=answer)
    return poll
