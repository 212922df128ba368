"""The one paper-card formatter: `Card` (pure) -> discord.Embed plus its link button."""

from __future__ import annotations

import discord
from discord.utils import escape_markdown, escape_mentions

from bot.core.card import Card, build_card
from bot.core.lang import Lang
from bot.core.models import Paper

CARD_COLOUR = discord.Colour.from_rgb(88, 101, 242)


def escape(text: str) -> str:
    """Catalog or user text made inert: no markdown, no mention syntax."""
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
    """The button that opens an arXiv title search."""
    return discord.ui.Button(style=discord.ButtonStyle.link, label=card.link_label, url=card.url)


def card_view(card: Card) -> discord.ui.View:
    """A view holding only the link button (nothing to dispatch, so no timeout needed)."""
    view = discord.ui.View(timeout=None)
    view.add_item(link_button(card))
    return view


def paper_message(paper: Paper, lang: Lang, note: str = "", footer_note: str = ""
                  ) -> tuple[discord.Embed, discord.ui.View]:
    """Embed and view for a single paper."""
    card = card_for(paper, lang, note, footer_note)
    return card_embed(card), card_view(card)
