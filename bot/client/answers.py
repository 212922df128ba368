"""What the cogs' answers share: paper autocomplete, titles, mentions, times and paged answers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord
from discord import app_commands

from bot.client.cog_host import CogHost
from bot.client.respond import SentAnswer, respond
from bot.client.tree import lang_of
from bot.client.ui.pages import PagedMenu, TextPages, page_embed
from bot.features.papers.card import fit
from bot.features.papers.card_view import escape
from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.results import choice_name, titles_in_order
from bot.features.papers.search import SearchService
from bot.shared.lang import Lang
from bot.shared.messages import t
from bot.shared.pages import TextPage
from domain.paper import Paper
from domain.text import has_cjk

AUTOCOMPLETE_LIMIT = 25
TITLE_LIMIT = 200


async def paper_choices(search: SearchService, interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 catalog titles for a `paper:` option; the value is the paper's id."""
    try:
        parsed = parse_query(current)
    except QueryError:
        return []
    if parsed.is_empty():
        return []
    outcome = await search.search(parsed, limit=AUTOCOMPLETE_LIMIT,
                                  guild_id=interaction.guild_id)
    lang = lang_of(interaction)
    chinese = has_cjk(current) or lang.chinese
    return [app_commands.Choice(name=choice_name(hit.paper, chinese, lang), value=hit.paper.id)
            for hit in outcome.hits]


def listed_choices(papers: Sequence[Paper], current: str,
                   lang: Lang) -> list[app_commands.Choice[str]]:
    """Autocomplete among a short list (the queue, a reading list) by what is typed."""
    wanted = current.strip().casefold()
    return [app_commands.Choice(name=choice_name(p, lang.chinese, lang), value=p.id)
            for p in papers
            if not wanted or wanted in f"{p.title_en} {p.title_zh} {p.id}".casefold()
            ][:AUTOCOMPLETE_LIMIT]


def title(paper: Paper | None, lang: Lang, fallback: str = "") -> str:
    """The paper's title in the reader's language, escaped and cut (its id if it is gone)."""
    return escape(plain_title(paper, lang, fallback))


def plain_title(paper: Paper | None, lang: Lang, fallback: str = "") -> str:
    """`title` as written, for text Discord shows as typed (a poll's answers): no Markdown
    escaping, whose backslashes would show there."""
    if paper is None:
        return fallback
    return fit(titles_in_order(paper, lang.chinese, lang)[0], TITLE_LIMIT)


def who(user_id: int | None, lang: Lang) -> str:
    """A member mention (never pings inside embeds or with mentions off), or 'a former member'."""
    return f"<@{user_id}>" if user_id is not None else t(lang, "queue.former_member")


def when(instant: datetime) -> str:
    """A Discord timestamp shown relative to now in each reader's own time zone."""
    return f"<t:{int(instant.timestamp())}:R>"


async def send_pages(bot: CogHost, interaction: discord.Interaction,
                     pages: Sequence[TextPage], *, ephemeral: bool) -> None:
    """One page as a plain embed; more with ◀ ▶ that only the asker can use."""
    lang = lang_of(interaction)
    if len(pages) == 1:
        await respond(interaction, embed=page_embed(pages[0]), ephemeral=ephemeral)
        return
    view = PagedMenu(TextPages(pages), owner=interaction.user, lang=lang)
    view.message = SentAnswer.of(interaction, await respond(
        interaction, embed=await view.render(), view=bot.track(view), ephemeral=ephemeral))
