"""A paged embed of text entries with ◀ ▶, used by `/queue show`, `/bookmarks` and `/history`."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.client.ui.owned import VIEW_TIMEOUT, OwnedView
from bot.features.papers.card_view import CARD_COLOUR
from bot.shared.lang import Lang
from bot.shared.pages import TextPage


def page_embed(page: TextPage) -> discord.Embed:
    """The embed of one page."""
    embed = discord.Embed(title=page.heading, description=page.body, colour=CARD_COLOUR)
    embed.set_footer(text=page.footer)
    return embed


class PagesView(OwnedView):
    """Pages of text; only the member who asked may turn them (see `OwnedView`)."""

    def __init__(self, *, owner: discord.abc.User, pages: Sequence[TextPage], lang: Lang,
                 timeout: float = VIEW_TIMEOUT) -> None:
        super().__init__(owner=owner, lang=lang, timeout=timeout)
        self.pages = list(pages)
        self.page = 0
        self._render_items()

    def embed(self) -> discord.Embed:
        """The current page."""
        return page_embed(self.pages[self.page])

    def _render_items(self) -> None:
        self.clear_items()
        prev = discord.ui.Button[PagesView](label="◀", style=discord.ButtonStyle.secondary,
                                            disabled=self.page == 0)
        nxt = discord.ui.Button[PagesView](label="▶", style=discord.ButtonStyle.secondary,
                                           disabled=self.page >= len(self.pages) - 1)
        prev.callback = self._prev  # type: ignore[method-assign]
        nxt.callback = self._next  # type: ignore[method-assign]
        self.add_item(prev)
        self.add_item(nxt)

    async def _show(self, interaction: discord.Interaction) -> None:
        self._render_items()
        await interaction.response.edit_message(embed=self.embed(), view=self)

    async def _prev(self, interaction: discord.Interaction) -> None:
        self.page = max(0, self.page - 1)
        await self._show(interaction)

    async def _next(self, interaction: discord.Interaction) -> None:
        self.page = min(len(self.pages) - 1, self.page + 1)
        await self._show(interaction)
