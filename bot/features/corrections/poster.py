"""The curators' notice that the source changed a corrected field: the old and new source values
as a diff, what the correction shows, and Keep / Drop buttons that work after a restart
(`DynamicItem`s named `paperclub:corrsrc:<id>:keep|drop`); and the poster that sends it.

Also the resumable step of both (`ReviewRefresher`): a decision on a proposal or on a notice is
stored with its message marked due (leased to the process answering the click); that process
shows it through the click's answer and marks it shown, and when the answer is lost or the
process dies, the next scheduler tick of any process takes the lease over and edits the message
itself."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.client.answers import title, who
from bot.client.cog_host import host_of
from bot.client.own_posts import delivery_failure, find_own_post
from bot.client.respond import respond, safe_send
from bot.client.tree import lang_of
from bot.features.corrections.rules import diff_text
from bot.features.corrections.service import CorrectionService
from bot.features.corrections.source_watch import DecidedPost, NoticePost, SourceWatch
from bot.features.corrections.views import (
    code_block,
    curators_only,
    field_name,
    is_curator,
    review_embed,
    review_view,
    show_decision,
)
from bot.features.notifications.notices import guild_lang
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.features.papers.search import SearchService
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.corrections import Proposal
from domain.nonce import nonce_of

log = logging.getLogger(__name__)

DESCRIPTION_LIMIT = 4000
FIELD_LIMIT = 1000


def notice_embed(post: NoticePost, lang: Lang, outcome: str = "") -> discord.Embed:
    """The notice: the source's change as a diff in a code block its text cannot close, the
    corrected value (escaped), the field; `outcome` once decided. The footer ends with the
    notice's key (how it is found again after a crash)."""
    correction, notice = post.correction, post.notice
    heading = t(lang, "corrections.source.title", id=correction.id,
                title=title(post.paper, lang, correction.target.paper_id))
    intro = (outcome or t(lang, "corrections.source.intro")) + "\n" + t(
        lang, "corrections.source.change")
    room = DESCRIPTION_LIMIT - len(intro) - 20
    side = room // 3  # both values show however long (and the line of changed words)
    diff = code_block(fit(diff_text(fit(notice.old_source, side), fit(notice.new_source, side)),
                          room))
    embed = discord.Embed(title=fit(heading, 256), description=f"{intro}\n{diff}",
                          colour=CARD_COLOUR)
    embed.add_field(name=t(lang, "corrections.review.field"),
                    value=field_name(correction.target, lang), inline=True)
    embed.add_field(name=t(lang, "corrections.source.correction"),
                    value=fit(escape(correction.new_value) or "—", FIELD_LIMIT), inline=False)
    embed.set_footer(text=f"{correction.target.paper_id} · {post.key}")
    return embed


def notice_view(correction_id: int, lang: Lang, *, done: bool = False) -> discord.ui.View:
    """Keep and Drop (a persistent view), disabled once decided."""
    view = discord.ui.View(timeout=None)
    for decision in ("keep", "drop"):
        view.add_item(SourceButton(correction_id, decision, lang=lang, disabled=done))
    return view


class SourceButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=r"paperclub:corrsrc:(?P<id>\d+):(?P<decision>keep|drop)"):
    """A curator's decision on a source change; the first decision wins."""

    def __init__(self, correction_id: int, decision: str, *, lang: Lang = Lang.EN,
                 disabled: bool = False) -> None:
        keep = decision == "keep"
        super().__init__(discord.ui.Button(
            label=t(lang, "corrections.source.keep" if keep else "corrections.source.drop"),
            style=discord.ButtonStyle.success if keep else discord.ButtonStyle.secondary,
            disabled=disabled, custom_id=f"paperclub:corrsrc:{correction_id}:{decision}"))
        self.correction_id = correction_id
        self.keep = keep

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> SourceButton:
        """Rebuild the button from its custom id (also after a restart)."""
        return cls(int(match["id"]), match["decision"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Curators only; one decision; the notice shows it and its buttons grey out."""
        services = host_of(interaction.client).services
        lang = lang_of(interaction)
        if not await is_curator(interaction, services):
            await respond(interaction, curators_only(lang), ephemeral=True)
            return
        guild_id = interaction.guild_id or 0
        notice = await services.correction_sources.notice(self.correction_id)
        decided = await services.correction_sources.decide(
            guild_id, self.correction_id, keep=self.keep, by=interaction.user.id)
        if decided is None or notice is None:  # another process may have answered the click
            await safe_send(interaction, t(lang, "corrections.already_decided",
                                           id=self.correction_id))
            return
        shown = guild_lang(interaction.client, guild_id)
        paper = await services.search.paper(decided.target.paper_id)
        embed, view = decided_notice(NoticePost(notice, decided, paper), shown,
                                     kept=self.keep, by=interaction.user.id)
        try:
            await show_decision(interaction, embed, view)
        except discord.HTTPException as exc:  # the decision is stored; shown on a later tick
            log.info("correction #%s: the notice is left to the next tick (%s)",
                     decided.id, exc)
            return
        await services.correction_sources.decision_shown(notice)


def decided_notice(post: NoticePost, lang: Lang, *, kept: bool,
                   by: int | None) -> tuple[discord.Embed, discord.ui.View]:
    """The notice once decided: who kept or dropped the correction, its buttons disabled."""
    outcome = t(lang, "corrections.source.kept" if kept else "corrections.source.dropped",
                who=who(by, lang))
    return (notice_embed(post, lang, outcome),
            notice_view(post.correction.id, lang, done=True))


class DiscordNoticePoster:
    """Implements `NoticePoster` with a connected discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def post(self, channel_id: int, post: NoticePost) -> int:
        """Post the notice with its nonce; no mentions at all."""
        guild_id = post.notice.guild_id
        lang = guild_lang(self.client, guild_id)
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            message = await channel.send(
                embed=notice_embed(post, lang), view=notice_view(post.correction.id, lang),
                nonce=nonce_of(post.key), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc
        return message.id

    async def find(self, channel_id: int, post: NoticePost) -> int | None:
        """The notice, if it went out before a crash."""
        return await find_own_post(self.client, channel_id, post.key, nonce_of(post.key),
                                   post.notice.created_at)


class ReviewRefresher:
    """Edits the review messages and source-change notices whose decision is not shown yet."""

    def __init__(self, client: discord.Client, corrections: CorrectionService,
                 search: SearchService, sources: SourceWatch) -> None:
        self.client = client
        self.corrections = corrections
        self.search = search
        self.sources = sources

    async def tick(self) -> int:
        """Show every due decision whose lease is free; how many were shown."""
        return await self._reviews() + await self._notices()

    async def _notices(self) -> int:
        shown = 0
        while (due := await self.sources.due_decision()) is not None:
            notice = due.post.notice
            try:
                await self._show_notice(due)
            except discord.NotFound:
                log.info("correction #%s: its source-change notice is gone",
                         notice.correction_id)
            except discord.HTTPException as exc:  # leased: tried again once the lease ends
                log.warning("correction #%s: could not show the notice's decision: %s",
                            notice.correction_id, exc)
                break
            await self.sources.decision_shown(notice)
            shown += 1
        return shown

    async def _show_notice(self, due: DecidedPost) -> None:
        notice = due.post.notice
        lang = guild_lang(self.client, notice.guild_id)
        embed, view = decided_notice(due.post, lang, kept=due.decision.kept,
                                     by=due.decision.decided_by)
        assert notice.channel_id is not None and notice.message_id is not None
        channel = self.client.get_partial_messageable(notice.channel_id,
                                                      guild_id=notice.guild_id)
        await channel.get_partial_message(notice.message_id).edit(embed=embed, view=view)

    async def _reviews(self) -> int:
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
