"""The result list: pages of papers with buttons, and a select menu that opens one card.

A view keeps the ids of its results, not the papers: each page (or opened card) is fetched again
through the search service when it is shown, so a live list costs a few kilobytes. A list may
hold a first answer's results only, the rest searched when a page past them is turned to
(`WholeList`). At most `MAX_LIVE_VIEWS` lists answer their buttons at once; beyond that the
oldest is disabled.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.client.ui.owned import VIEW_TIMEOUT
from bot.client.ui.pages import PagedMenu, ShownPage
from bot.features.papers.card_view import (
    CARD_COLOUR,
    card_embed,
    card_for,
    escape,
    link_buttons,
    send_abstract,
    suggest_correction,
)
from bot.features.papers.results import PER_PAGE, option_label, page_count, result_page
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.crosslingual import Translation
from domain.paper import Paper

log = logging.getLogger(__name__)

MAX_LIVE_VIEWS = 500
"""Result lists whose buttons work at the same time (each holds ids only: a few KB)."""

PaperFetch = Callable[[Sequence[str]], Awaitable[Sequence[Paper]]]
"""Papers by id, in the order asked, leaving out any no longer in the catalog."""
WholeList = Callable[[], Awaitable[tuple[Sequence[str], Mapping[str, Sequence[Translation]]]]]
"""The whole list's ids, best first, and its papers found through the other language (by id):
searched when a page past the ones a first answer holds is turned to."""
Spawn = Callable[[Coroutine[Any, Any, Any], str], None]


@dataclass(frozen=True, slots=True)
class PaperPages:
    """The result list's page source: ids only; each page's papers are fetched when it is
    shown, with a select menu that opens one of them (`pick`)."""

    paper_ids: tuple[str, ...]
    query: str
    lang: Lang
    fetch: PaperFetch
    pick: Callable[[discord.Interaction], Coroutine[Any, Any, None]]
    heading: str | None = None
    """Shown instead of "N papers match “query”" (a list that is not a search's)."""
    matched: Mapping[str, Sequence[Translation]] = field(default_factory=dict)
    """The papers found through the other language, with the terms read, by id."""
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

    async def page(self, number: int, at_hand: Sequence[Paper] = ()) -> ShownPage:
        """Page `number`: its papers, read now unless `at_hand` (the papers of `paper_ids`,
        in order, just read) has them."""
        start = number * PER_PAGE
        wanted = self.paper_ids[start:start + PER_PAGE]
        shown = tuple(at_hand[start:start + PER_PAGE])
        if tuple(paper.id for paper in shown) != wanted:
            shown = tuple(await self.fetch(wanted))
        page = result_page(shown, number, len(self.paper_ids), self.query, self.lang, escape,
                           heading=self.heading, matched=self.matched,
                           more=self.more is not None)
        embed = discord.Embed(title=page.heading, description=page.body, colour=CARD_COLOUR)
        embed.set_footer(text=page.footer)
        return ShownPage(embed, [self._select(page.papers)] if page.papers else [])

    def _select(self, papers: Sequence[Paper]) -> discord.ui.Select[ResultsView]:
        options = []
        for paper in papers:
            label, description = option_label(paper, self.lang)
            options.append(discord.SelectOption(label=label, description=description,
                                                value=paper.id))
        select = discord.ui.Select[ResultsView](placeholder=t(self.lang, "results.pick"),
                                                options=options)
        select.callback = self.pick  # type: ignore[method-assign, assignment]
        return select


class ResultsView(PagedMenu):
    """A paged result list owned by the person who searched (see `PagedMenu`); a paper picked
    in the select menu is shown as its card, with a button back to the list."""

    source: PaperPages

    def __init__(self, *, owner: discord.abc.User, paper_ids: Sequence[str], query: str,
                 lang: Lang, fetch: PaperFetch, timeout: float = VIEW_TIMEOUT,
                 heading: str | None = None,
                 matched: Mapping[str, Sequence[Translation]] | None = None,
                 more: WholeList | None = None) -> None:
        super().__init__(PaperPages(tuple(paper_ids), query, lang, fetch, self._open,
                                    heading=heading, matched=dict(matched or {}), more=more),
                         owner=owner, lang=lang, timeout=timeout)
        self.opened: str | None = None
        """The id of the paper whose card is shown instead of the list."""
        self._fetch = fetch

    @property
    def paper_ids(self) -> tuple[str, ...]:
        """The ids of the results, best first."""
        return self.source.paper_ids

    async def render(self, at_hand: Sequence[Paper] = ()) -> discord.Embed:
        """Fetch what is on screen, rebuild the controls, and return the embed to show.

        `at_hand`: the papers of `paper_ids`, in order, just read (a search's hits): a page of
        them is shown as they are, not read again (the first answer of `/paper` needs no reads
        beyond its search)."""
        if self.opened is not None:
            found = await self._fetch([self.opened])
            if found:
                return self._card(found[0])
            self.opened = None  # gone from the catalog since: back to the list
        if self.source.more is not None and self.page >= self.source.held_pages:
            await self._search_the_rest()
        return self.lay_out(await self.source.page(self.page, at_hand))

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

    def _card(self, paper: Paper) -> discord.Embed:
        card = card_for(paper, self.lang)
        self.clear_items()
        back = discord.ui.Button[ResultsView](
            label=t(self.lang, "results.back"), style=discord.ButtonStyle.secondary)
        back.callback = self._back  # type: ignore[method-assign]
        self.add_item(back)
        for item in link_buttons(card):
            self.add_item(item)
        if card.other is not None:
            other = discord.ui.Button[ResultsView](label=card.other_label,
                                                   style=discord.ButtonStyle.secondary)
            kind, paper_id = card.other, paper.id
            other.callback = (  # type: ignore[method-assign]
                lambda interaction: send_abstract(interaction, paper_id, kind))
            self.add_item(other)
        correct = discord.ui.Button[ResultsView](emoji="✏️", label=t(self.lang, "card.correct"),
                                                 style=discord.ButtonStyle.secondary)
        shown_id = paper.id
        correct.callback = (  # type: ignore[method-assign]
            lambda interaction: suggest_correction(interaction, shown_id))
        self.add_item(correct)
        return card_embed(card)

    async def _open(self, interaction: discord.Interaction) -> None:
        select = next(i for i in self.children if isinstance(i, discord.ui.Select))
        chosen = select.values[0] if select.values else None
        if chosen in self.paper_ids:
            self.opened = chosen
        await self.show(interaction)

    async def _back(self, interaction: discord.Interaction) -> None:
        self.opened = None
        await self.show(interaction)


class LiveViews:
    """The result lists still answering their buttons, oldest first, at most `cap` of them.

    Adding one more disables the oldest: stopped at once, its message edited in the
    background once the new list's answer is sent (`adding`), so the edit never delays it.
    Finished views are forgotten: only weak references are kept."""

    def __init__(self, spawn: Spawn, cap: int = MAX_LIVE_VIEWS) -> None:
        self.cap = cap
        self._spawn = spawn
        self._views: deque[weakref.ref[ResultsView]] = deque()

    def __len__(self) -> int:
        return sum(1 for ref in self._views if not _done(ref))

    @contextlib.contextmanager
    def adding(self, view: ResultsView) -> Iterator[ResultsView]:
        """Track `view` inside the block that sends it; the oldest live views beyond the cap
        stop at once and their messages are greyed out when the block ends."""
        self._views.append(weakref.ref(view))
        while self._views and _done(self._views[0]):  # views expire in about creation order
            self._views.popleft()
        evicted = []
        while len(self._views) > self.cap:
            oldest = self._views.popleft()()
            if oldest is not None:
                oldest.stop()
                evicted.append(oldest)
        try:
            yield view
        finally:
            for oldest in evicted:
                self._spawn(oldest.disable(), "disable the oldest result list")


def _done(ref: weakref.ref[ResultsView]) -> bool:
    view = ref()
    return view is None or view.is_finished()
