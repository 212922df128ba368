"""The review messages' resumable step: a decision is stored with its review message marked due
(leased to the process answering the click); that process shows it through the click's answer,
and when the answer is lost or the process dies, the next scheduler tick of any process takes
the lease over and edits the message itself, so every review message ends up showing its
decision and its buttons disabled."""

from __future__ import annotations

import logging

import discord

from bot.client.answers import title
from bot.features.corrections.service import CorrectionService
from bot.features.corrections.ui import review_embed, review_view
from bot.features.papers.search import SearchService
from bot.shared.lang import Lang
from domain.corrections import Proposal

log = logging.getLogger(__name__)


class ReviewRefresher:
    """Edits the review messages whose decision is not shown yet."""

    def __init__(self, client: discord.Client, corrections: CorrectionService,
                 search: SearchService) -> None:
        self.client = client
        self.corrections = corrections
        self.search = search

    async def tick(self) -> int:
        """Show every due decision whose lease is free; how many were shown."""
        shown = 0
        while (proposal := await self.corrections.claim_review()) is not None:
            try:
                await self._show(proposal)
            except discord.NotFound:
                log.info("correction #%s: its review message is gone", proposal.id)
            except discord.HTTPException as exc:  # leased: tried again once the lease ends
                log.warning("correction #%s: could not show the decision: %s", proposal.id, exc)
                break
            await self.corrections.review_shown(proposal.id)
            shown += 1
        return shown

    async def _show(self, proposal: Proposal) -> None:
        assert proposal.channel_id is not None and proposal.message_id is not None
        guild = self.client.get_guild(proposal.guild_id)
        lang = Lang.from_locale(str(guild.preferred_locale)) if guild else Lang.EN
        paper = await self.search.paper(proposal.target.paper_id)
        embed = review_embed(proposal, title(paper, lang, proposal.target.paper_id), lang)
        channel = self.client.get_partial_messageable(proposal.channel_id,
                                                      guild_id=proposal.guild_id)
        await channel.get_partial_message(proposal.message_id).edit(
            embed=embed, view=review_view(proposal))
