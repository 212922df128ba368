"""The proposal form's two ways in, on Discord: `submit` stores a sent form, posts it for review
and answers the member (`/corrections propose` and cards alike); a card's "Suggest a
correction" (the card's `CorrectButton`, handed to the cog's `suggest`, then `ask_field`) asks
which field, and the choice opens the same form prefilled with that field's value as the server
sees it.

The field menu (`FieldSelect`, custom id `paperclub:correct-field:<paper>`) is a `DynamicItem`
the extension registers, like the card's button, so a card or a menu sent before a restart
works."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.client.answers import title
from bot.client.cog_host import host_of
from bot.client.respond import respond
from bot.client.tree import lang_of
from bot.features.corrections.rules import current_value
from bot.features.corrections.service import Submitted
from bot.features.corrections.views import (
    ProposalModal,
    field_name,
    review_embed,
    review_view,
    server_lang,
)
from bot.features.papers.card import fit
from bot.shared.lang import Lang
from bot.shared.messages import Refusal, t
from domain.corrections import Field, Target
from domain.paper import Paper

if TYPE_CHECKING:
    from bot.bundle import Services

log = logging.getLogger(__name__)


async def submit(services: Services, interaction: discord.Interaction, target: Target,
                 value: str, reason: str) -> None:
    """The form was sent: store the proposal, post it for review, answer the member (a
    `Refusal` for a value the field's rules refuse)."""
    lang = lang_of(interaction)
    submitted = await services.corrections.propose(
        interaction.guild_id or 0, target, value, reason, interaction.user.id)
    message = await post_review(interaction, submitted)
    if message is not None:
        await services.corrections.set_review_message(
            submitted.proposal, message.channel.id, message.id)
    key = "corrections.proposed" if message else "corrections.proposed_unposted"
    await respond(interaction, t(lang, key, id=submitted.proposal.id), ephemeral=True)


class Proposer:
    """What the form calls when it is sent from a card (the bot's services at that moment)."""

    async def submit(self, interaction: discord.Interaction, target: Target, value: str,
                     reason: str) -> None:
        """Store, post for review, answer."""
        await submit(host_of(interaction.client).services, interaction, target, value, reason)


async def post_review(interaction: discord.Interaction,
                      submitted: Submitted) -> discord.Message | None:
    """The review message in the curators' channel (None when none is set or reachable)."""
    proposal = submitted.proposal
    if submitted.review_channel_id is None:
        return None
    channel = interaction.client.get_channel(submitted.review_channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return None
    lang = server_lang(interaction)
    embed = review_embed(proposal, title(submitted.paper, lang), lang)
    try:
        return await channel.send(embed=embed, view=review_view(proposal))
    except discord.HTTPException:
        log.warning("could not post correction #%s for review in %s", proposal.id,
                    submitted.review_channel_id)
        return None


OPTION_LIMIT = 25
"""Discord's options per select menu."""
TEXT_LIMIT = 100
"""Discord's longest option label and description."""
_FIELDS = (Field.TITLE_ZH, Field.TITLE_EN, Field.SUMMARY_ZH, Field.SUMMARY_EN, Field.AUTHORS,
           Field.CONFERENCE, Field.YEAR, Field.TRACK, Field.WORKSHOP, Field.HONOURS,
           Field.ARXIV_ID)


def targets(paper: Paper) -> list[Target]:
    """What the menu offers: each field, then each affiliation's two names (up to 25 in all;
    `/corrections propose` reaches any affiliation)."""
    found = [Target(paper.id, field) for field in _FIELDS]
    for position in range(len(paper.affiliations)):
        found += [Target(paper.id, Field.AFFILIATION_EN, position),
                  Target(paper.id, Field.AFFILIATION_ZH, position)]
    return found[:OPTION_LIMIT]


def field_options(paper: Paper, lang: Lang) -> list[discord.SelectOption]:
    """One option per target, described by the field's value now (cut to Discord's limit)."""
    return [discord.SelectOption(
        label=fit(field_name(target, lang), TEXT_LIMIT),
        value=f"{target.field.value}:{target.position}",
        description=fit(current_value(paper, target), TEXT_LIMIT) or None)
        for target in targets(paper)]


async def ask_field(interaction: discord.Interaction, paper_id: str) -> None:
    """A card's button was clicked: in a server, the field menu, only for the clicker;
    corrections belong to a server, so a DM's card is told so."""
    lang = lang_of(interaction)
    if interaction.guild_id is None:
        await interaction.response.send_message(t(lang, "error.guild_only"), ephemeral=True)
        return
    host = host_of(interaction.client)
    paper = await host.services.search.paper(paper_id, interaction.guild_id)
    if paper is None:
        await interaction.response.send_message(t(lang, "card.gone"), ephemeral=True)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(FieldSelect(paper, lang))
    await interaction.response.send_message(
        t(lang, "corrections.pick_field", title=title(paper, lang)), view=host.track(view),
        ephemeral=True)


class FieldSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
                  template=r"paperclub:correct-field:(?P<paper>[0-9a-f]{16})"):
    """The field menu: a choice opens the form prefilled with that field's value."""

    def __init__(self, paper: Paper | str, lang: Lang = Lang.EN) -> None:
        paper_id = paper if isinstance(paper, str) else paper.id
        options = ([] if isinstance(paper, str) else field_options(paper, lang)) or [
            discord.SelectOption(label=Field.TITLE_ZH.value, value=f"{Field.TITLE_ZH}:0")]
        super().__init__(discord.ui.Select(
            custom_id=f"paperclub:correct-field:{paper_id}", options=options,
            placeholder=t(lang, "corrections.pick_placeholder")))
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> FieldSelect:
        """Rebuild the menu from its custom id (the choice arrives with the click)."""
        return cls(match["paper"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the form for the chosen field (a refusal, such as a gone paper, is said)."""
        lang = lang_of(interaction)
        field, _, position = (self.item.values or [""])[0].partition(":")
        services = host_of(interaction.client).services
        try:
            draft = await services.corrections.draft(
                interaction.guild_id or 0, self.paper_id, Field(field), int(position or 0))
        except (Refusal, ValueError) as exc:
            text = exc.text(lang) if isinstance(exc, Refusal) else t(lang, "card.gone")
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.send_modal(
            ProposalModal(Proposer(), draft.target, draft.value, lang))
