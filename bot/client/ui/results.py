"""The result list: pages of papers with buttons, and a select menu that opens one card."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.client.ui.cards import CARD_COLOUR, card_embed, card_for, escape, link_button
from bot.client.ui.owned import VIEW_TIMEOUT, OwnedView
from bot.core.lang import Lang
from bot.core.messages import t
from bot.core.models import Paper
from bot.core.results import option_label, page_count, result_page


class ResultsView(OwnedView):
    """A paged result list owned by the person who searched (see `OwnedView`)."""

    def __init__(self, *, owner: discord.abc.User, papers: Sequence[Paper], query: str,
                 lang: Lang, timeout: float = VIEW_TIMEOUT) -> None:
        super().__init__(owner=owner, lang=lang, timeout=timeout)
        self.papers = list(papers)
        self.query = query
        self.page = 0
        self.opened: Paper | None = None
        self._render_items()

    @property
    def pages(self) -> int:
        """Number of pages."""
        return page_count(len(self.papers))

    def embed(self) -> discord.Embed:
        """The list page, or the opened paper's card."""
        if self.opened is not None:
            return card_embed(card_for(self.opened, self.lang))
        page = result_page(self.papers, self.page, self.query, self.lang, escape)
        embed = discord.Embed(title=page.heading, description=page.body, colour=CARD_COLOUR)
        embed.set_footer(text=page.footer)
        return embed

    def _render_items(self) -> None:
        self.clear_items()
        if self.opened is not None:
            back = discord.ui.Button[ResultsView](
                label=t(self.lang, "results.back"), style=discord.ButtonStyle.secondary)
            back.callback = self._back  # type: ignore[method-assign]
            self.add_item(back)
            self.add_item(link_button(card_for(self.opened, self.lang)))
            return
        prev = discord.ui.Button[ResultsView](label="◀", style=discord.ButtonStyle.secondary,
                                              disabled=self.page == 0)
        nxt = discord.ui.Button[ResultsView](label="▶", style=discord.ButtonStyle.secondary,
                                             disabled=self.page >= self.pages - 1)
        prev.callback = self._prev  # type: ignore[method-assign]
        nxt.callback = self._next  # type: ignore[method-assign]
        self.add_item(prev)
        self.add_item(nxt)
        page = result_page(self.papers, self.page, self.query, self.lang, escape)
        options = []
        for offset, paper in enumerate(page.papers):
            label, description = option_label(paper, self.lang)
            options.append(discord.SelectOption(
                label=label, description=description, value=str(page.first + offset)))
        select = discord.ui.Select[ResultsView](placeholder=t(self.lang, "results.pick"),
                                                options=options)
        select.callback = self._open  # type: ignore[method-assign]
        self.add_item(select)

    async def _show(self, interaction: discord.Interaction) -> None:
        self._render_items()
        await interaction.response.edit_message(embed=self.embed(), view=self)

    async def _prev(self, interaction: discord.Interaction) -> None:
        self.page = max(0, self.page - 1)
        await self._show(interaction)

    async def _next(self, interaction: discord.Interaction) -> None:
        self.page = min(self.pages - 1, self.page + 1)
        await self._show(interaction)

    async def _open(self, interaction: discord.Interaction) -> None:
        select = next(i for i in self.children if isinstance(i, discord.ui.Select))
        index = int(select.values[0]) if select.values else -1
        if 0 <= index < len(self.papers):
            self.opened = self.papers[index]
        await self._show(interaction)

    async def _back(self, interaction: discord.Interaction) -> None:
        self.opened = None
        await self._show(interaction)
