"""Corrections on Discord: the proposal form, the curators' review message with Approve and
Reject buttons that work after a restart, and the texts of a proposal.

The buttons are `DynamicItem`s whose custom id names the proposal and the decision
(`paperclub:correction:<id>:approve|reject`); the cog registers the class, so a click on a
review posted before a restart still arrives. Member text is escaped everywhere and the diff
sits in a code block it cannot close, so nothing a member types renders or pings.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.client.answers import title, who
from bot.client.cog_host import host_of
from bot.client.respond import respond, safe_send
from bot.client.tree import lang_of, note_lang, permission_name
from bot.features.corrections.rules import LIMITS, REASON_LIMIT, diff_text
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.shared.lang import Lang
from bot.shared.messages import Refusal, t
from domain.corrections import Action, Field, Proposal, ReviewSettings, Status, Target

if TYPE_CHECKING:
    from bot.bundle import Services

log = logging.getLogger(__name__)

MODAL_TITLE_LIMIT = 45
INPUT_LIMIT = 4000
"""Discord's longest text input."""
DESCRIPTION_LIMIT = 4000
FIELD_LIMIT = 1000
_LONG_FIELDS = frozenset({Field.SUMMARY_ZH, Field.SUMMARY_EN, Field.AUTHORS})
STATUS_KEYS = {Status.PENDING: "corrections.status.pending",
               Status.APPROVED: "corrections.status.approved",
               Status.REJECTED: "corrections.status.rejected",
               Status.REVERTED: "corrections.status.reverted"}
FIELD_KEYS = {
    Field.TITLE_ZH: "corrections.field.title_zh", Field.TITLE_EN: "corrections.field.title_en",
    Field.SUMMARY_ZH: "corrections.field.summary_zh",
    Field.SUMMARY_EN: "corrections.field.summary_en", Field.AUTHORS: "corrections.field.authors",
    Field.AFFILIATION_EN: "corrections.field.affiliation_en",
    Field.AFFILIATION_ZH: "corrections.field.affiliation_zh",
    Field.CONFERENCE: "corrections.field.conference", Field.YEAR: "corrections.field.year",
    Field.TRACK: "corrections.field.track", Field.WORKSHOP: "corrections.field.workshop",
    Field.HONOURS: "corrections.field.honours", Field.ARXIV_ID: "corrections.field.arxiv_id"}
ACTION_KEYS = {
    Action.PROPOSED: "corrections.action.proposed", Action.APPROVED: "corrections.action.approved",
    Action.REJECTED: "corrections.action.rejected", Action.REVERTED: "corrections.action.reverted",
    Action.SUPERSEDED: "corrections.action.superseded", Action.KEPT: "corrections.action.kept",
    Action.DROPPED: "corrections.action.dropped", Action.IMPORTED: "corrections.action.imported"}


def field_name(target: Target, lang: Lang) -> str:
    """`Chinese title`, `Affiliation 2 (English)`, in `lang`."""
    name = t(lang, FIELD_KEYS[target.field])
    return f"{name} #{target.position + 1}" if target.field.positional else name


def code_block(text: str) -> str:
    """`text` in a diff code block that member text cannot close."""
    return "```diff\n" + text.replace("`", "\u02cb") + "\n```"


def review_embed(proposal: Proposal, paper_title: str, lang: Lang) -> discord.Embed:
    """The paper, the field, the change as a diff, the reason, who proposed it and its status."""
    diff = code_block(fit(diff_text(proposal.old_value, proposal.new_value), DESCRIPTION_LIMIT))
    embed = discord.Embed(
        title=fit(t(lang, "corrections.review.title", id=proposal.id, title=paper_title), 256),
        description=diff, colour=CARD_COLOUR)
    embed.add_field(name=t(lang, "corrections.review.field"),
                    value=field_name(proposal.target, lang), inline=True)
    embed.add_field(name=t(lang, "corrections.review.by"),
                    value=proposer(proposal, lang), inline=True)
    embed.add_field(name=t(lang, "corrections.review.status"),
                    value=status_text(proposal, lang), inline=True)
    if proposal.reason:
        embed.add_field(name=t(lang, "corrections.review.reason"),
                        value=fit(escape(proposal.reason), FIELD_LIMIT), inline=False)
    embed.set_footer(text=f"{proposal.target.paper_id} · #{proposal.id}")
    return embed


def proposer(proposal: Proposal, lang: Lang) -> str:
    """Who proposed it: a member (never pinged), "a former member", or "import"."""
    return t(lang, "corrections.by_import") if proposal.imported else who(
        proposal.proposed_by, lang)


def status_text(proposal: Proposal, lang: Lang) -> str:
    """`Approved by @x`, `Pending`."""
    text = t(lang, STATUS_KEYS[proposal.status])
    if proposal.status is not Status.PENDING:
        decider = proposer(proposal, lang) if proposal.imported else who(proposal.decided_by,
                                                                         lang)
        text += " · " + decider
    return text


def review_view(proposal: Proposal) -> discord.ui.View:
    """Approve and Reject, disabled once the proposal is decided (a persistent view)."""
    view = discord.ui.View(timeout=None)
    done = proposal.status is not Status.PENDING
    for decision in ("approve", "reject"):
        view.add_item(ReviewButton(proposal.id, decision, disabled=done))
    return view


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=r"paperclub:correction:(?P<id>\d+):(?P<decision>approve|reject)"):
    """A curator's decision on one proposal; the first decision wins."""

    def __init__(self, proposal_id: int, decision: str, *, disabled: bool = False) -> None:
        approve = decision == "approve"
        super().__init__(discord.ui.Button(
            label="Approve" if approve else "Reject", disabled=disabled,
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
            custom_id=f"paperclub:correction:{proposal_id}:{decision}"))
        self.proposal_id = proposal_id
        self.approve = approve

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ReviewButton:
        """Rebuild the button from its custom id (also after a restart)."""
        return cls(int(match["id"]), match["decision"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Decide (curators only), update the review message, queue the proposer's DM."""
        await decide(interaction, self.proposal_id, self.approve)


async def decide(interaction: discord.Interaction, proposal_id: int, approve: bool) -> None:
    """A curator's click: one decision (the proposer's DM queued with it), the message
    updated (or, when that fails, left to `poster` on a later tick)."""
    services = host_of(interaction.client).services
    lang = lang_of(interaction)
    if not await is_curator(interaction, services):
        await respond(interaction, curators_only(lang), ephemeral=True)
        return
    try:
        decided = await services.corrections.decide(
            interaction.guild_id or 0, proposal_id, approve=approve, by=interaction.user.id)
    except Refusal as exc:
        await respond(interaction, exc.text(lang), ephemeral=True)
        return
    if decided is None:  # safe_send: another process may have answered this very click
        await safe_send(interaction, t(lang, "corrections.already_decided", id=proposal_id))
        return
    host_of(interaction.client).outbox.wake()  # the proposer's DM, queued with the decision
    shown = server_lang(interaction)
    paper = await services.search.paper(decided.target.paper_id)
    embed = review_embed(decided, title(paper, shown, decided.target.paper_id), shown)
    try:
        await show_decision(interaction, embed, review_view(decided))
    except discord.HTTPException as exc:  # the decision is stored; the review is shown later
        log.info("correction #%s: the review message is left to the next tick (%s)",
                 decided.id, exc)
        return
    await services.corrections.review_shown(decided.id)


async def show_decision(interaction: discord.Interaction, embed: discord.Embed,
                        view: discord.ui.View) -> None:
    """The clicked message shows the decision: through the click's answer, or, when another
    process answered the click first (both sessions of a shard get it during a rolling
    restart), by editing the message itself."""
    try:
        await interaction.response.edit_message(embed=embed, view=view)
    except discord.HTTPException as exc:
        if interaction.message is None:
            raise
        log.info("the click was answered elsewhere (%s): editing the message", exc.code)
        await interaction.message.edit(embed=embed, view=view)


async def is_curator(interaction: discord.Interaction, services: Services) -> bool:
    """Manage Server, or the server's curator role (`/group corrections`)."""
    if interaction.permissions.manage_guild:
        return True
    settings = await services.corrections.review_settings(interaction.guild_id or 0)
    roles = getattr(interaction.user, "roles", [])
    return settings.curator_role_id is not None and any(
        role.id == settings.curator_role_id for role in roles)


def outcome_text(proposal: Proposal, lang: Lang, guild: str) -> str:
    """The proposer's notice of the decision."""
    key = ("corrections.outcome.approved" if proposal.status is Status.APPROVED
           else "corrections.outcome.rejected")
    return t(lang, key, id=proposal.id, guild=guild)


def curators_only(lang: Lang) -> str:
    """The refusal for a member who is not a curator."""
    return t(lang, "corrections.curators_only", perm=permission_name("manage_guild", lang))


def server_lang(interaction: discord.Interaction) -> Lang:
    """The server's language, for messages others read (the review, the proposer's DM)."""
    locale = interaction.guild_locale
    return lang_of(interaction) if locale is None else Lang.from_locale(str(locale))


class ProposalModal(discord.ui.Modal):
    """The form: the field's current value, prefilled, and an optional reason."""

    def __init__(self, cog: Any, target: Target, current: str, lang: Lang) -> None:
        super().__init__(title=fit(t(lang, "corrections.modal.title",
                                     field=field_name(target, lang)), MODAL_TITLE_LIMIT),
                         timeout=900)
        self.cog = cog
        self.target = target
        limit = min(INPUT_LIMIT, max(LIMITS[target.field], len(current)))
        long = target.field in _LONG_FIELDS or limit > 300
        self.value: discord.ui.TextInput[ProposalModal] = discord.ui.TextInput(
            label=fit(field_name(target, lang), MODAL_TITLE_LIMIT), custom_id="value",
            style=discord.TextStyle.long if long else discord.TextStyle.short,
            default=current[:limit] or None, required=False, max_length=limit)
        self.reason: discord.ui.TextInput[ProposalModal] = discord.ui.TextInput(
            label=fit(t(lang, "corrections.modal.reason"), MODAL_TITLE_LIMIT),
            custom_id="reason", style=discord.TextStyle.long, required=False,
            max_length=REASON_LIMIT)
        self.add_item(self.value)
        self.add_item(self.reason)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Store the proposal and post it for review (refusals answered to the member)."""
        note_lang(interaction)  # the outcome's DM is written in it
        try:
            await self.cog.submit(interaction, self.target, self.value.value,
                                  self.reason.value)
        except Refusal as exc:
            await safe_send(interaction, exc.text(lang_of(interaction)), ephemeral=True)


def review_settings_text(settings: ReviewSettings, lang: Lang) -> str:
    """Where proposals go now and who decides (for `/group corrections`)."""
    perm = permission_name("manage_guild", lang)
    where = f"<#{settings.channel_id}>" if settings.channel_id else "—"
    if settings.curator_role_id is not None:
        return t(lang, "corrections.settings.role", channel=where, perm=perm,
                 role=f"<@&{settings.curator_role_id}>")
    return t(lang, "corrections.settings.default", channel=where, perm=perm)
