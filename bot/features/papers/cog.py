"""`/paper` and `/random-paper`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import paper_choices
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import SentAnswer, defer, respond
from bot.client.tree import UserFacingError, lang_of
from bot.features.papers.answer import (
    FIRST_ANSWER,
    Asked,
    join_close,
    looking,
    reply_for,
    send_reply,
)
from bot.features.papers.card import fit
from bot.features.papers.card_view import AbstractButton, CorrectButton, send_card
from bot.features.papers.lookup import PaperLookup, names_by_identifier
from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.results import CHOICE_NAME_LIMIT, PER_PAGE
from bot.features.papers.results_view import ListButton, ListSelect
from bot.features.papers.search import FirstAnswer
from bot.shared.ahead import ahead, drop
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.crosslingual import Translation
from domain.query import SearchQuery

if TYPE_CHECKING:
    from bot.bundle import Services

T = TypeVar("T")

AUTOCOMPLETE_LIMIT = 25
RESULT_LIMIT = 50
"""Results a list holds at most."""
FIRST_SEARCH = FIRST_ANSWER + 1
"""The limit of the first answer's search."""
DEFER_AFTER_SECONDS = 1.5
BUSY_LOOKUPS = 8
"""Lookups in flight beyond which a new one is deferred at once."""


class Deadline:
    """Keeps `/paper` within Discord's 3-second deadline, even when lookups pile up.

    A lookup is deferred when it is not done 1.5 s after Discord created the interaction (not
    after the handler started: a busy event loop may start it late), and at once when
    `BUSY_LOOKUPS` others are already in flight (then the loop is saturated and even the
    deferral's own timer would fire late)."""

    def __init__(self) -> None:
        self.in_flight = 0

    async def answer(self, interaction: discord.Interaction, work: Awaitable[T], *,
                     ephemeral: bool) -> T:
        """Run `work`, deferring the answer when it cannot come in time."""
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        wait = DEFER_AFTER_SECONDS - max(0.0, age)
        self.in_flight += 1
        try:
            if self.in_flight > BUSY_LOOKUPS or wait <= 0:
                await defer(interaction, ephemeral=ephemeral)
                return await work
            task = asyncio.ensure_future(work)
            done, _ = await asyncio.wait({task}, timeout=wait)
            if not done:
                await defer(interaction, ephemeral=ephemeral)
            return await task
        finally:
            self.in_flight -= 1


class PapersCog(commands.Cog):
    """Looking papers up."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.deadline = Deadline()

    @app_commands.command(
        name="paper", description="Find a paper by title, author or topic, in English or Chinese")
    @app_commands.describe(
        query="Words from the title, an author, or a topic; leave empty for a random paper",
        author="Only papers by this author (a surname is enough)",
        venue="Main track, workshop, or a conference or workshop name",
        honours="Spotlight, oral or poster",
        private="Show the answer only to you",
    )
    @app_commands.choices(
        honours=[app_commands.Choice(name="Spotlight", value="spotlight"),
                 app_commands.Choice(name="Oral", value="oral"),
                 app_commands.Choice(name="Poster", value="poster")],
    )
    async def paper(
        self,
        interaction: discord.Interaction,
        query: app_commands.Range[str, 0, 300] | None = None,
        author: app_commands.Range[str, 1, 100] | None = None,
        venue: app_commands.Range[str, 1, 100] | None = None,
        honours: str | None = None,
        private: bool = False,
    ) -> None:
        """One match: its card. Several: a paged list. None: suggestions. Papers close in
        meaning join in an edit a moment later (`bot.features.papers.answer`)."""
        lang = lang_of(interaction)
        text_query = (query or "").strip()
        try:
            parsed: SearchQuery | None = parse_query(text_query, author=author, venue=venue,
                                                     honour=honours)
            refused = None
        except QueryError as exc:
            parsed, refused = None, exc
        searching: asyncio.Task[FirstAnswer] | None = None
        if not (author or venue or honours):  # an id, arXiv id, DOI or exact title: its card
            if (parsed is not None and not parsed.is_empty()
                    and not names_by_identifier(text_query)):
                # the search, needed unless the text is an exact title, overlaps that check
                searching = ahead(self._search(parsed, interaction.guild_id))
            try:
                named = await PaperLookup(self.services.search).identify(text_query,
                                                                         interaction.guild_id)
            except BaseException:
                drop(searching)
                raise
            if named.paper is not None:  # as this server sees it (its corrections applied)
                drop(searching)
                await send_card(interaction, named.paper, lang, ephemeral=private)
                return
            if named.identifier:
                raise UserFacingError(t(lang, "lookup.not_in_catalog",
                                        ref=named.identifier[:100]))
        if parsed is None:
            assert refused is not None
            raise UserFacingError(refused.text(lang)) from None
        if parsed.is_empty():
            if text_query or author:
                raise UserFacingError(t(lang, "query.no_words"))
            await self._random(interaction, lang, private)
            return
        first = await self.deadline.answer(
            interaction, searching or self._search(parsed, interaction.guild_id),
            ephemeral=private)
        asked = Asked(parsed, text_query, lang,
                      partial(self.services.search.papers, guild_id=interaction.guild_id),
                      partial(self._whole_list, parsed, interaction.guild_id))
        outcome, later = first.outcome, first.later
        # with papers close in meaning still to come, "nothing matches" would be premature
        shown = (looking(asked) if later is not None and not outcome.hits
                 else await reply_for(interaction, outcome, asked))
        if later is None:
            await send_reply(self.bot.lists, interaction, shown, ephemeral=private)
            return
        # they join in an edit of that answer, looked for while it is being sent
        sent: asyncio.Future[SentAnswer] = asyncio.get_running_loop().create_future()
        self.bot.background.spawn(
            join_close(self.bot.lists, interaction, asked, outcome, shown, sent, later),
            "/paper: papers close in meaning")
        try:
            sent.set_result(await send_reply(self.bot.lists, interaction, shown,
                                             ephemeral=private))
        finally:
            sent.cancel()  # not sent: nothing to edit (a no-op once the answer is set)

    def _search(self, parsed: SearchQuery, guild_id: int | None
                ) -> Coroutine[Any, Any, FirstAnswer]:
        # the list's first page is shown now; the other pages are read when turned to; the
        # papers close in meaning are looked for once it is shown
        return self.services.search.search_first(parsed, limit=FIRST_SEARCH, guild_id=guild_id,
                                                 papers=PER_PAGE)

    async def _whole_list(self, parsed: SearchQuery, guild_id: int | None
                          ) -> tuple[list[str], dict[str, tuple[Translation, ...]]]:
        """The ids of the list's `RESULT_LIMIT` results (their papers are read as their pages
        are shown) and those found through the other language."""
        outcome = await self.services.search.search(parsed, limit=RESULT_LIMIT,
                                                    guild_id=guild_id, papers=0)
        return [hit.id for hit in outcome.hits], outcome.crossed

    @paper.autocomplete("query")
    async def paper_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """Up to 25 titles, in the language being typed; the value is the paper's id."""
        return await paper_choices(self.services.search, interaction, current)

    @paper.autocomplete("venue")
    async def venue_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """Main track, workshop, any, then the catalog's conferences and workshops."""
        lang = lang_of(interaction)
        typed = current.strip().casefold()
        tracks = [app_commands.Choice(name=t(lang, key), value=value) for key, value in (
            ("cmd.choice.main", "main"), ("cmd.choice.workshop", "workshop"),
            ("cmd.choice.any", "any"))]
        choices = [c for c in tracks if typed in c.value or typed in c.name.casefold()]
        names = await self.services.search.venue_names(current.strip(), AUTOCOMPLETE_LIMIT)
        choices += [app_commands.Choice(name=fit(name, CHOICE_NAME_LIMIT),
                                        value=name[:CHOICE_NAME_LIMIT]) for name in names]
        return choices[:AUTOCOMPLETE_LIMIT]

    @app_commands.command(name="random-paper", description="Show a random paper from the catalog")
    @app_commands.describe(private="Show the answer only to you")
    async def random_paper(self, interaction: discord.Interaction, private: bool = False) -> None:
        """A random paper card."""
        await self._random(interaction, lang_of(interaction), private)

    async def _random(self, interaction: discord.Interaction, lang: Lang, private: bool) -> None:
        paper = await self.services.search.random(interaction.guild_id)
        if paper is None:
            await respond(interaction, ephemeral=True, content=t(lang, "results.empty_catalog"))
            return
        await send_card(interaction, paper, lang, ephemeral=private)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(PapersCog(host, host.services))
    # a card's buttons keep working after a restart; a list's say it is no longer live
    bot.add_dynamic_items(AbstractButton, CorrectButton, ListButton, ListSelect)
