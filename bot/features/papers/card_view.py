"""The one paper-card formatter: `Card` (pure) -> discord.Embed plus its buttons.

A card links to the paper's arXiv page (or a title search) and its PDF; when the paper has both
an English abstract and a Chinese AI summary, the card opens with the reader's and an
`AbstractButton` shows the other, only to whoever clicks. The button is a `DynamicItem` (custom
id `paperclub:abstract:<paper>:<en|zh>`), so it keeps working on cards posted before a restart.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord
from discord.utils import escape_markdown, escape_mentions

from bot.client.cog_host import host_of
from bot.client.respond import respond, sending
from bot.client.tree import lang_of
from bot.features.papers.card import (
    DESCRIPTION_LIMIT,
    TITLE_LIMIT,
    AbstractKind,
    Card,
    abstract_heading,
    abstract_text,
    build_card,
    fit,
)
from bot.features.recommend.views import feedback_buttons
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper

CARD_COLOUR = discord.Colour.from_rgb(88, 101, 242)


_MAY_NEED_ESCAPING = re.compile(r"[_\\~|*`\[@]|^\s*[->#]", re.MULTILINE)
"""A superset of what `escape_markdown` and `escape_mentions` change: a markdown character,
a `[` (of a masked link), an `@`, or a line starting (after spaces) with `-`, `>` or `#`."""


def escape(text: str) -> str:
    """Catalog or user text made inert: no markdown, no mention syntax. Text with nothing to
    escape, as most titles, authors and venues are, is returned as it is without running
    discord.py's two substitutions (a quarter of a result page's rendering)."""
    if _MAY_NEED_ESCAPING.search(text) is None:
        return text
    return escape_mentions(escape_markdown(text))


def card_for(paper: Paper, lang: Lang, note: str = "", footer_note: str = "") -> Card:
    """The pure card with Discord's escaping applied."""
    return build_card(paper, lang, escape=escape, note=note, footer_note=footer_note)


def card_embed(card: Card) -> discord.Embed:
    """An embed with the card's title, link, description, fields and footer."""
    embed = discord.Embed(title=card.title, url=card.url, description=card.description,
                          colour=CARD_COLOUR)
    for field in card.fields:
        embed.add_field(name=field.name, value=field.value, inline=field.inline)
    embed.set_footer(text=card.footer)
    return embed


def link_button(card: Card) -> discord.ui.Button[discord.ui.View]:
    """The button that opens the arXiv page (or a title search)."""
    return discord.ui.Button(style=discord.ButtonStyle.link, label=card.link_label, url=card.url)


class AbstractButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                     template=r"paperclub:abstract:(?P<paper>[0-9a-f]{16}):(?P<kind>en|zh)"):
    """Shows a paper's other text (English abstract or Chinese AI summary), ephemerally."""

    def __init__(self, paper_id: str, kind: AbstractKind, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or kind.value, style=discord.ButtonStyle.secondary,
            custom_id=f"paperclub:abstract:{paper_id}:{kind.value}"))
        self.paper_id = paper_id
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> AbstractButton:
        """Rebuild the button from its custom id (also after a restart)."""
        return cls(match["paper"], AbstractKind(match["kind"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer only the clicker."""
        await send_abstract(interaction, self.paper_id, self.kind)


async def send_abstract(interaction: discord.Interaction, paper_id: str,
                        kind: AbstractKind) -> None:
    """Answer only the clicker, in their language, with the text as it is stored now."""
    bot = host_of(interaction.client)
    lang = lang_of(interaction)
    paper = await bot.services.search.paper(paper_id, interaction.guild_id)
    text = abstract_text(paper, kind, lang) if paper is not None else ""
    if paper is None or not text:
        await interaction.response.send_message(t(lang, "card.gone"), ephemeral=True)
        return
    card = card_for(paper, lang)
    embed = discord.Embed(
        title=fit(f"{abstract_heading(paper, kind, lang, escape)} · {card.title}", TITLE_LIMIT),
        url=card.url, description=fit(escape(text), DESCRIPTION_LIMIT), colour=CARD_COLOUR)
    await interaction.response.send_message(embed=embed, ephemeral=True)


CORRECTIONS_COG = "CorrectionsCog"
"""The cog that answers the button (`bot.features.corrections.cog`)."""


class Suggesting(Protocol):
    """What the corrections cog offers the card."""

    async def suggest(self, interaction: discord.Interaction, paper_id: str) -> None:
        """Start a member's proposal for `paper_id`."""
        ...


class CorrectButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                    template=r"paperclub:correct:(?P<paper>[0-9a-f]{16})"):
    """A card's "Suggest a correction"; a click opens the proposal form (see the module)."""

    def __init__(self, paper_id: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            emoji="✏️", label=label or None, style=discord.ButtonStyle.secondary,
            custom_id=f"paperclub:correct:{paper_id}"))
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CorrectButton:
        """Rebuild the button from its custom id (also after a restart)."""
        return cls(match["paper"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the corrections feature."""
        await suggest_correction(interaction, self.paper_id)


async def suggest_correction(interaction: discord.Interaction, paper_id: str) -> None:
    """Hand a "Suggest a correction" click to the corrections feature (or say it is not
    loaded)."""
    cog: Suggesting | None = getattr(interaction.client, "get_cog", lambda _: None)(
        CORRECTIONS_COG)
    if cog is None:
        await interaction.response.send_message(t(lang_of(interaction), "card.correct_off"),
                                                ephemeral=True)
        return
    await cog.suggest(interaction, paper_id)


def correct_button(paper_id: str, lang: Lang) -> CorrectButton:
    """The card's button for `paper_id`, labelled in `lang`."""
    return CorrectButton(paper_id, t(lang, "card.correct"))


def link_buttons(card: Card) -> list[discord.ui.Item[Any]]:
    """The card's link buttons: its arXiv page (or a search), and its PDF when known."""
    items: list[discord.ui.Item[Any]] = [link_button(card)]
    if card.pdf_url:
        items.append(discord.ui.Button(style=discord.ButtonStyle.link, label=card.pdf_label,
                                       url=card.pdf_url))
    return items


def card_items(card: Card, lang: Lang) -> list[discord.ui.Item[Any]]:
    """The card's buttons: links, the other text's, 👍 / 👎 / 🔎 and the correction's (on
    every card, a result list's opened one too); those that click are dynamic items,
    dispatched by their custom ids."""
    items = link_buttons(card)
    if card.paper_id:
        if card.other is not None:
            items.append(AbstractButton(card.paper_id, card.other, card.other_label))
        items.extend(feedback_buttons(card.paper_id, lang))
        items.append(correct_button(card.paper_id, lang))
    return items


def card_view(card: Card, lang: Lang = Lang.EN) -> discord.ui.View:
    """The card's buttons (`card_items`) in a view without timeout. A view holding only
    dynamic items is never stored, so stopping it once sent (`sending`) unregisters nothing; a
    stored view that stopped would unregister its dynamic classes for every message."""
    view = discord.ui.View(timeout=None)
    for item in card_items(card, lang):
        view.add_item(item)
    return view


def paper_message(paper: Paper, lang: Lang, note: str = "", footer_note: str = ""
                  ) -> tuple[discord.Embed, discord.ui.View]:
    """Embed and view for a single paper."""
    card = card_for(paper, lang, note, footer_note)
    return card_embed(card), card_view(card, lang)


async def send_card(interaction: discord.Interaction, paper: Paper, lang: Lang, *,
                    content: str | None = None, note: str = "",
                    ephemeral: bool = False) -> None:
    """Answer `interaction` with `paper`'s card (its view is kept by nothing once sent)."""
    embed, view = paper_message(paper, lang, note=note)
    with sending(view):
        await respond(interaction, content, embed=embed, view=view, ephemeral=ephemeral)
