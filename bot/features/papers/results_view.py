"""The result list: pages of papers with ◀ ▶, and a select menu that opens one card.

A list is a `ResultList` kept live by the bot (`bot.client.ui.live.LiveLists`) under the id of
the interaction it answered. Its message's controls are dynamic items (`ListButton`,
`ListSelect`) whose custom ids carry that key, so no discord.py view stays behind per message.
The list keeps the ids of its results, not the papers: each page (or opened card) is fetched
again through the search service when it is shown. It may hold a first answer's results only,
the rest searched when a page past them is turned to (`WholeList`). A click on a list that is no
longer live (timed out, evicted, or sent before a restart) greys its controls out and says so.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import discord

from bot.client.cog_host import host_of
from bot.client.respond import SentAnswer, respond, safe_send, sending
from bot.client.tree import lang_of
from bot.client.ui.live import LiveLists
from bot.client.ui.owned import grey_out
from bot.features.papers.card import Card
from bot.features.papers.card_view import CARD_COLOUR, card_embed, card_for, card_items, escape
from bot.features.papers.results import PER_PAGE, option_label, page_count, result_page
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.crosslingual import Translation
from domain.paper import Paper

log = logging.getLogger(__name__)

PaperFetch = Callable[[Sequence[str]], Awaitable[Sequence[Paper]]]
"""Papers by id, in the order asked, leaving out any no longer in the catalog."""
WholeList = Callable[[], Awaitable[tuple[Sequence[str], Mapping[str, Sequence[Translation]]]]]
"""The whole list's ids, best first, and its papers found through the other language (by id):
searched when a page past the ones a first answer holds is turned to."""
Turn = Literal["prev", "next", "back"]
Option = tuple[str, str, str]
"""A select option: label, description, paper id."""
ARROWS: dict[str, str] = {"prev": "◀", "next": "▶"}


@dataclass(frozen=True, slots=True)
class PaperPages:
    """The list's results: ids only; each page's papers are fetched when it is shown."""

    paper_ids: tuple[str, ...]
    query: str
    lang: Lang
    fetch: PaperFetch
    heading: str | None = None
    """Shown instead of "N papers match “query”" (a list that is not a search's)."""
    matched: Mapping[str, Sequence[Translation]] = field(default_factory=dict)
    """The papers found through the other language, with the terms read, by id."""
    close: frozenset[str] = frozenset()
    """The papers found by meaning alone, by id (marked "close in meaning")."""
    more: WholeList | None = None
    """Set while the list holds a first answer's results only and goes on past them."""

    @property
    def page_count(self) -> int:
        """Number of pages (one more while the list goes on: the next is searched for)."""
        return self.held_pages + (self.more is not None)

    @property
    def held_pages(self) -> int:
        """The pages of the results held."""
        return page_count(len(self.paper_ids))

    async def page(self, number: int, at_hand: Sequence[Paper] = ()
                   ) -> tuple[discord.Embed, tuple[Option, ...]]:
        """Page `number` and its select options; its papers read now unless `at_hand` (the
        papers of `paper_ids`, in order, just read) has them."""
        start = number * PER_PAGE
        wanted = self.paper_ids[start:start + PER_PAGE]
        shown = tuple(at_hand[start:start + PER_PAGE])
        if tuple(paper.id for paper in shown) != wanted:
            shown = tuple(await self.fetch(wanted))
        page = result_page(shown, number, len(self.paper_ids), self.query, self.lang, escape,
                           heading=self.heading, matched=self.matched,
                           more=self.more is not None, close=self.close)
        embed = discord.Embed(title=page.heading, description=page.body, colour=CARD_COLOUR)
        embed.set_footer(text=page.footer)
        return embed, tuple((*option_label(paper, self.lang), paper.id)
                            for paper in page.papers)


@dataclass(frozen=True, slots=True)
class Shown:
    """What the list's controls show besides ◀ ▶: kept to grey them out without reading
    again."""

    options: tuple[Option, ...] = ()
    card: Card | None = None
    """The opened paper's card (shown instead of the page)."""


@dataclass(slots=True, eq=False)
class ResultList:
    """A paged result list owned by the member who searched: only they may turn its pages; a
    paper picked in the select menu is shown as its card, with a button back to the list."""

    key: int
    """The id of the interaction the list answered (its controls' custom ids carry it)."""
    owner_id: int
    owner_name: str
    source: PaperPages
    page: int = 0
    opened: str | None = None
    """The id of the paper whose card is shown instead of the list."""
    message: SentAnswer | None = None
    """The message showing the list, once sent (what greying out edits)."""
    shown: Shown | None = None

    @classmethod
    def of(cls, interaction: discord.Interaction, source: PaperPages) -> ResultList:
        """The list answering `interaction`, owned by whoever sent it."""
        return cls(interaction.id, interaction.user.id, interaction.user.display_name, source)

    @property
    def lang(self) -> Lang:
        """The language the list is shown in."""
        return self.source.lang

    @property
    def paper_ids(self) -> tuple[str, ...]:
        """The ids of the results held, best first."""
        return self.source.paper_ids

    @property
    def page_count(self) -> int:
        """How many pages the list has (one more while it goes on past its first answer)."""
        return self.source.page_count

    async def render(self, at_hand: Sequence[Paper] = ()
                     ) -> tuple[discord.Embed, discord.ui.View]:
        """Fetch what is on screen; the embed and the controls to show.

        `at_hand`: the papers of `paper_ids`, in order, just read (a search's hits): a page of
        them is shown as they are, not read again (the first answer of `/paper` needs no reads
        beyond its search)."""
        if self.opened is not None:
            found = await self.source.fetch([self.opened])
            if found:
                card = card_for(found[0], self.lang)
                self.shown = Shown(card=card)
                return card_embed(card), self.controls()
            self.opened = None  # gone from the catalog since: back to the list
        if self.source.more is not None and self.page >= self.source.held_pages:
            await self._search_the_rest()
        embed, options = await self.source.page(self.page, at_hand)
        self.shown = Shown(options)
        return embed, self.controls()

    def controls(self, *, disabled: bool = False) -> discord.ui.View:
        """The controls of what is shown (greyed out: `disabled`; link buttons stay usable).

        The view holds dynamic items only, is never stored and has no timeout: the list's
        state is here, found again by the key in a click."""
        assert self.shown is not None, "render first"
        shown, view = self.shown, discord.ui.View(timeout=None)
        if shown.card is None:
            items: list[discord.ui.Item[Any]] = [
                ListButton(self.key, "prev", disabled=self.page == 0),
                ListButton(self.key, "next", disabled=self.page >= self.page_count - 1)]
            if shown.options:
                items.append(ListSelect(self.key, shown.options, self.lang))
        else:
            items = [ListButton(self.key, "back", label=t(self.lang, "results.back")),
                     *card_items(shown.card, self.lang)]
        for item in items:
            view.add_item(grey_out(item) if disabled else item)
        return view

    async def answer(self, interaction: discord.Interaction, action: Turn | None,
                     chosen: str | None = None) -> None:
        """A click on the list's controls: turn (`action`) or open `chosen`; only the owner
        may (others are told so)."""
        if interaction.user.id != self.owner_id:
            await safe_send(interaction, t(self.lang, "results.only_owner",
                                           name=escape(self.owner_name)), ephemeral=True)
            return
        if action == "back":
            self.opened = None
        elif action is not None:
            step = -1 if action == "prev" else 1
            self.page = max(0, min(self.page_count - 1, self.page + step))
        elif chosen in self.paper_ids:
            self.opened = chosen
        embed, view = await self.render()
        with sending(view):
            await interaction.response.edit_message(embed=embed, view=view)

    async def disable(self) -> None:
        """Grey out the controls in the message (it answers no more clicks)."""
        if self.message is not None and self.shown is not None:
            try:
                with sending(self.controls(disabled=True)) as view:
                    await self.message.edit(view=view)
            except discord.HTTPException as exc:
                log.info("could not grey out an expired result list: %s", exc)
        self.message = None

    async def grow(self, held: PaperPages, grown: PaperPages, *, content: str,
                   at_hand: Sequence[Paper] = ()) -> bool:
        """Hold `grown` (the results `held` with more joined, as papers close in meaning do
        after a first answer) in place of `held`, and show its first page with `content` ('':
        no text) when that page is on screen; whether the message was edited. A list that
        moved on (its whole list searched since) keeps what it holds; one turned past its
        first page or showing a card shows the new results at the next turn."""
        if self.source is not held:
            return False
        self.source = grown
        if self.page or self.opened is not None or self.message is None:
            return False
        embed, options = await grown.page(0, at_hand)
        if self.source is not grown or self.page or self.opened is not None or (
                self.message is None):  # turned meanwhile: that turn shows the new results
            return False
        self.shown = Shown(options)
        with sending(self.controls()) as view:
            await self.message.edit(content=content, embeds=[embed], view=view)
        return True

    async def _search_the_rest(self) -> None:
        """The whole list, in place of the first answer's results (kept if the search now
        finds nothing: the catalog changed since)."""
        held = self.source
        assert held.more is not None
        paper_ids, matched = await held.more()
        self.source = dataclasses.replace(
            held, paper_ids=tuple(paper_ids) or held.paper_ids,
            matched=dict(matched) if paper_ids else held.matched, more=None)
        self.page = min(self.page, self.page_count - 1)


async def send_list(lists: LiveLists, interaction: discord.Interaction, source: PaperPages, *,
                    content: str | None = None, at_hand: Sequence[Paper] = (),
                    ephemeral: bool = False) -> ResultList:
    """Answer `interaction` with the list of `source` (its first page), live in `lists`;
    `at_hand`: as `ResultList.render`."""
    results = ResultList.of(interaction, source)
    embed, view = await results.render(at_hand)
    lists.add(results.key, results)
    with sending(view):
        results.message = SentAnswer.of(interaction, await respond(
            interaction, content, embed=embed, view=view, ephemeral=ephemeral))
    return results


class ListButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                 template=r"paperclub:list:(?P<key>[0-9]{1,20}):(?P<action>prev|next|back)"):
    """◀, ▶ or "Back to results" of the list `key`."""

    def __init__(self, key: int, action: Turn, *, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or ARROWS.get(action), style=discord.ButtonStyle.secondary,
            disabled=disabled, custom_id=f"paperclub:list:{key}:{action}"))
        self.key = key
        self.action: Turn = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ListButton:
        """The button of a click (its list is looked up when it is answered)."""
        action: Turn = match["action"]  # type: ignore[assignment]  # the template's choices
        return cls(int(match["key"]), action)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Turn the list's page, or go back to it from a card."""
        await answer_click(interaction, self.key, self.action)


class ListSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
                 template=r"paperclub:list:(?P<key>[0-9]{1,20}):pick"):
    """The menu that opens one of the page's papers as its card."""

    def __init__(self, key: int, options: Sequence[Option], lang: Lang) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"paperclub:list:{key}:pick", placeholder=t(lang, "results.pick"),
            options=[
                discord.SelectOption(label=label, description=description, value=value)
                for label, description, value in options]))
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ListSelect:
        """The menu of a click (the paper chosen is read from the click itself)."""
        return cls(int(match["key"]), (), lang_of(interaction))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the chosen paper's card."""
        values = self.item.values
        await answer_click(interaction, self.key, None, values[0] if values else None)


async def answer_click(interaction: discord.Interaction, key: int, action: Turn | None,
                       chosen: str | None = None) -> None:
    """Hand a click to its live list; a list no longer live is greyed out, and the clicker
    told; a failure is logged and apologised for."""
    live = host_of(interaction.client).lists.get(key)
    if not isinstance(live, ResultList):
        await _expired(interaction)
        return
    try:
        await live.answer(interaction, action, chosen)
    except Exception:
        log.exception("result list %s failed on a click", key)
        await safe_send(interaction, t(live.lang, "results.failed"), ephemeral=True)


async def _expired(interaction: discord.Interaction) -> None:
    """Grey out the clicked message's controls and say the list is no longer live."""
    lang = lang_of(interaction)
    if interaction.message is not None:
        view = discord.ui.View.from_message(interaction.message, timeout=None)
        for item in view.children:
            grey_out(item)
        view.stop()  # shown, never stored: it answers nothing
        await interaction.response.edit_message(view=view)
    await safe_send(interaction, t(lang, "results.expired"), ephemeral=True)

