"""One paginator for every paged reply, after RoboDanny's: a page source knows how many pages
there are and how to produce page N; the menu owns the ◀ ▶ buttons, turns the pages, lets only
the member who asked turn them (`OwnedView.interaction_check`) and greys itself out when it
times out (`OwnedView.on_timeout`).

`TextPages` is the source of `/queue show`, `/bookmarks` and `/history` (prepared text). The
result list of `/paper` (`bot.features.papers.results_view`) pages the same way, through
dynamic items, so that no view stays behind per message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.client.ui.live import VIEW_TIMEOUT
from bot.client.ui.owned import OwnedView
from bot.features.papers.card_view import CARD_COLOUR
from bot.shared.lang import Lang
from bot.shared.pages import TextPage


def page_embed(page: TextPage) -> discord.Embed:
    """The embed of one page."""
    embed = discord.Embed(title=page.heading, description=page.body, colour=CARD_COLOUR)
    embed.set_footer(text=page.footer)
    return embed


@dataclass(frozen=True, slots=True)
class ShownPage:
    """One page as the menu shows it: the embed, and the page's own controls (after ◀ ▶)."""

    embed: discord.Embed
    items: Sequence[discord.ui.Item[Any]] = field(default=())


class PageSource(Protocol):
    """What a menu pages through: how many pages, and page `number` (from 0)."""

    @property
    def page_count(self) -> int:
        """How many pages (at least one)."""
        ...

    async def page(self, number: int) -> ShownPage:
        """Page `number`, ready to show."""
        ...


@dataclass(frozen=True, slots=True)
class TextPages:
    """Pages of prepared text (`bot.shared.pages.text_pages`)."""

    pages: Sequence[TextPage]

    @property
    def page_count(self) -> int:
        """How many pages."""
        return len(self.pages)

    async def page(self, number: int) -> ShownPage:
        """The embed of page `number`."""
        return ShownPage(page_embed(self.pages[number]))


class PagedMenu(OwnedView):
    """◀ ▶ over a `PageSource`; only the member who asked may turn (see `OwnedView`)."""

    def __init__(self, source: PageSource, *, owner: discord.abc.User, lang: Lang,
                 timeout: float = VIEW_TIMEOUT) -> None:
        super().__init__(owner=owner, lang=lang, timeout=timeout)
        self.source = source
        self.page = 0

    @property
    def page_count(self) -> int:
        """How many pages the source has."""
        return self.source.page_count

    async def render(self) -> discord.Embed:
        """Produce the current page, rebuild the controls, and return the embed to show."""
        return self.lay_out(await self.source.page(self.page))

    def lay_out(self, shown: ShownPage) -> discord.Embed:
        """The controls of a page: ◀ ▶ (greyed out at either end), then the page's own."""
        self.clear_items()
        prev = discord.ui.Button[PagedMenu](label="◀", style=discord.ButtonStyle.secondary,
                                            disabled=self.page == 0)
        nxt = discord.ui.Button[PagedMenu](label="▶", style=discord.ButtonStyle.secondary,
                                           disabled=self.page >= self.page_count - 1)
        prev.callback = self._prev  # type: ignore[method-assign]
        nxt.callback = self._next  # type: ignore[method-assign]
        self.add_item(prev)
        self.add_item(nxt)
        for item in shown.items:
            self.add_item(item)
        return shown.embed

    async def show(self, interaction: discord.Interaction) -> None:
        """Answer a control by editing the message to what is on screen now."""
        embed = await self.render()
        await interaction.response.edit_message(embed=embed, view=self)

    async def show_page(self, interaction: discord.Interaction, number: int) -> None:
        """Turn to page `number` (kept within the pages) and show it."""
        self.page = max(0, min(self.page_count - 1, number))
        await self.show(interaction)

    async def _prev(self, interaction: discord.Interaction) -> None:
        await self.show_page(interaction, self.page - 1)

    async def _next(self, interaction: discord.Interaction) -> None:
        await self.show_page(interaction, self.page + 1)
