"""`/corrections`: members propose a fix to one field of a paper through a form, curators
approve or reject it on the review message (Manage Server, or the role `/group corrections`
names), and anyone in the server may list, show and trace the corrections."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import paper_choices, title, who
from bot.client.checks import in_guild
from bot.client.cog_base import ServiceGroupCog
from bot.client.cog_host import host_of
from bot.client.respond import respond
from bot.client.tree import UserFacingError, lang_of
from bot.features.corrections.answer import FieldSelect, ask_field, submit
from bot.features.corrections.poster import SourceButton
from bot.features.corrections.service import Draft
from bot.features.corrections.views import (
    ACTION_KEYS,
    ProposalModal,
    ReviewButton,
    curators_only,
    field_name,
    is_curator,
    outcome_text,
    review_embed,
)
from bot.features.papers.card import fit
from bot.features.papers.card_view import escape
from bot.features.papers.lookup import PAPER_ID, PaperLookup
from bot.shared.messages import Refusal, t
from domain.corrections import Field, Proposal, Status, Target

log = logging.getLogger(__name__)

LIST_LIMIT = 20
LINE_LIMIT = 200
_FIELD_CHOICES = [
    app_commands.Choice(name="Chinese title", value=Field.TITLE_ZH.value),
    app_commands.Choice(name="English title", value=Field.TITLE_EN.value),
    app_commands.Choice(name="Chinese summary", value=Field.SUMMARY_ZH.value),
    app_commands.Choice(name="English summary", value=Field.SUMMARY_EN.value),
    app_commands.Choice(name="Authors", value=Field.AUTHORS.value),
    app_commands.Choice(name="Affiliation (English name)", value=Field.AFFILIATION_EN.value),
    app_commands.Choice(name="Affiliation (Chinese name)", value=Field.AFFILIATION_ZH.value),
    app_commands.Choice(name="Conference", value=Field.CONFERENCE.value),
    app_commands.Choice(name="Year", value=Field.YEAR.value),
    app_commands.Choice(name="Track (main, workshop, unknown)", value=Field.TRACK.value),
    app_commands.Choice(name="Workshop name", value=Field.WORKSHOP.value),
    app_commands.Choice(name="Honours (oral, spotlight, poster)", value=Field.HONOURS.value),
    app_commands.Choice(name="arXiv id", value=Field.ARXIV_ID.value),
]
_STATUS_CHOICES = [app_commands.Choice(name=name, value=status.value) for name, status in (
    ("Pending", Status.PENDING), ("Approved", Status.APPROVED), ("Rejected", Status.REJECTED),
    ("Reverted", Status.REVERTED))]


class CorrectionsCog(ServiceGroupCog, group_name="corrections",
                     group_description="Corrections of the catalog proposed in this server"):
    """Propose, review, list and trace corrections."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Guild only: corrections belong to a server."""
        return in_guild(interaction)

    @property
    def _lookup(self) -> PaperLookup:
        """The one resolver of a `paper:` option (id, arXiv id, DOI, exact title, choices)."""
        return PaperLookup(self.services.search)

    @app_commands.command(name="propose",
                          description="Suggest a correction to one field of a paper")
    @app_commands.describe(paper="A title, author or topic; pick one from the list",
                           field="The field to correct",
                           affiliation="Which affiliation, counting from 1")
    @app_commands.choices(field=_FIELD_CHOICES)
    async def propose(self, interaction: discord.Interaction,
                      paper: app_commands.Range[str, 1, 300], field: str,
                      affiliation: app_commands.Range[int, 1, 100] = 1) -> None:
        """Open the form prefilled with the field's value as the server sees it."""
        lang = lang_of(interaction)
        guild_id = interaction.guild_id or 0
        named = await self._lookup.named(paper, guild_id)
        try:
            draft: Draft = await self.services.corrections.draft(
                guild_id, named.id, Field(field), affiliation - 1)
        except Refusal as exc:
            raise UserFacingError(exc.text(lang)) from None
        await interaction.response.send_modal(self.bot.track(  # stopped when the bot closes
            ProposalModal(self, draft.target, draft.value, lang)))

    @propose.autocomplete("paper")
    async def paper_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """Catalog titles; the value is the paper's id."""
        return await paper_choices(self.services.search, interaction, current)

    async def submit(self, interaction: discord.Interaction, target: Target, value: str,
                     reason: str) -> None:
        """The form was sent: store the proposal, post it for review, answer the member."""
        await submit(self.services, interaction, target, value, reason)

    async def suggest(self, interaction: discord.Interaction, paper_id: str) -> None:
        """A card's "Suggest a correction": which field, then the form."""
        await ask_field(interaction, paper_id)

    @app_commands.command(name="list", description="Corrections proposed in this server")
    @app_commands.describe(status="Only those of one status (default: pending)")
    @app_commands.choices(status=_STATUS_CHOICES)
    async def list_(self, interaction: discord.Interaction,
                    status: str = Status.PENDING.value) -> None:
        """Newest first, one line each."""
        lang = lang_of(interaction)
        listing = await self.services.corrections.listing(
            interaction.guild_id or 0, Status(status), interaction.user.id, LIST_LIMIT)
        guild = escape(interaction.guild.name) if interaction.guild else ""
        lines = [outcome_text(p, lang, guild) for p in listing.untold]
        lines += [fit(f"**#{p.id}** · {field_name(p.target, lang)} · `{p.target.paper_id}` · "
                      f"{escape(p.new_value)}", LINE_LIMIT) for p in listing.proposals]
        await respond(interaction, "\n".join(lines)[:2000] or t(lang, "corrections.none"),
                      ephemeral=True)

    @app_commands.command(name="show", description="One correction: the change, why, and who")
    @app_commands.describe(correction="The correction's number")
    async def show(self, interaction: discord.Interaction,
                   correction: app_commands.Range[int, 1]) -> None:
        """The review card of one correction."""
        lang = lang_of(interaction)
        try:
            found, paper, owed = await self.services.corrections.shown(
                interaction.guild_id or 0, correction, interaction.user.id)
        except Refusal as exc:
            raise UserFacingError(exc.text(lang)) from None
        heading = title(paper, lang, found.target.paper_id)  # the id only of a paper gone
        await respond(interaction, "\n".join(_owed(interaction, owed))[:2000] or None,
                      embed=review_embed(found, heading, lang), ephemeral=True)

    @app_commands.command(name="history", description="Every change to a paper's corrections")
    @app_commands.describe(paper="A title, author or topic; pick one from the list")
    async def history(self, interaction: discord.Interaction,
                      paper: app_commands.Range[str, 1, 300]) -> None:
        """Who did what, when and why, oldest first."""
        lang = lang_of(interaction)
        guild_id = interaction.guild_id or 0
        paper_id = (paper.lower() if PAPER_ID.fullmatch(paper.lower())  # gone papers too
                    else (await self._lookup.named(paper, guild_id)).id)
        events, untold = await self.services.corrections.traced(
            guild_id, paper_id, interaction.user.id)
        owed = _owed(interaction, untold)
        if not events:
            await respond(interaction, "\n".join([*owed, t(lang, "corrections.no_history")]),
                          ephemeral=True)
            return
        lines = owed + [fit(t(lang, ACTION_KEYS[e.action], id=e.proposal_id,
                       who=who(e.actor_id, lang), when=f"<t:{int(e.at.timestamp())}:f>")
                     + (f" — {escape(e.note)}" if e.note else ""), LINE_LIMIT)
                 for e in events]
        await respond(interaction, "\n".join(lines)[:2000], ephemeral=True)

    @history.autocomplete("paper")
    async def history_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        """Catalog titles; the value is the paper's id."""
        return await paper_choices(self.services.search, interaction, current)

    @app_commands.command(name="revert", description="Withdraw an approved correction (curators)")
    @app_commands.describe(correction="The correction's number", reason="Why")
    async def revert(self, interaction: discord.Interaction,
                     correction: app_commands.Range[int, 1],
                     reason: app_commands.Range[str, 0, 500] = "") -> None:
        """The paper shows its source value again; the history keeps who and why."""
        lang = lang_of(interaction)
        if not await is_curator(interaction, self.services):
            raise UserFacingError(curators_only(lang))
        reverted = await self.services.corrections.revert(
            interaction.guild_id or 0, correction, by=interaction.user.id, note=reason)
        key = "corrections.reverted" if reverted else "corrections.not_approved"
        await respond(interaction, t(lang, key, id=correction), ephemeral=True)


def _owed(interaction: discord.Interaction, owed: list[Proposal]) -> list[str]:
    """The outcomes owed to the member (their DMs were closed), one line each."""
    guild = escape(interaction.guild.name) if interaction.guild else ""
    return [outcome_text(p, lang_of(interaction), guild) for p in owed]


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: the cog and its persistent review buttons."""
    host = host_of(bot)
    await bot.add_cog(CorrectionsCog(host, host.services))
    # review and source-change buttons, and the cards' "Suggest a correction" menu, keep
    # working after a restart
    bot.add_dynamic_items(ReviewButton, SourceButton, FieldSelect)
