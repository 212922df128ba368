"""`/suggest` and `/queue show|remove`: the server's queue of papers to read next."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import (
    listed_choices,
    paper_choices,
    send_pages,
    title,
    when,
    who,
)
from bot.client.checks import in_guild, is_organiser, may_add
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import defer, respond
from bot.client.tree import lang_of, permission_name
from bot.features.adding.answer import item_line, report_text
from bot.features.papers.card_view import escape
from bot.features.queue.service import QueueEntry
from bot.shared.lang import Lang
from bot.shared.messages import t
from bot.shared.pages import text_pages
from domain.adding import AddedStatus
from domain.arxiv_ids import IdScan, find_arxiv_ids
from domain.group import NOTE_LIMIT, RemoveOutcome, SuggestOutcome

if TYPE_CHECKING:
    from bot.bundle import Services

SUGGEST_KEYS = {SuggestOutcome.ADDED: "queue.added", SuggestOutcome.SUPPORTED: "queue.supported",
                SuggestOutcome.ALREADY: "queue.already"}
REMOVE_KEYS = {RemoveOutcome.REMOVED: "queue.removed", RemoveOutcome.WITHDRAWN: "queue.withdrawn",
               RemoveOutcome.NOT_ALLOWED: "queue.not_allowed",
               RemoveOutcome.NOT_QUEUED: "queue.not_queued"}


def queue_entry(number: int, entry: QueueEntry, lang: Lang) -> str:
    """`**1. Title** — 3 in favour`, who suggested it and when, +1s, and the escaped note."""
    item = entry.item
    first = item.supporters[0]
    lines = [f"**{number}. {title(entry.paper, lang, item.paper_id)}** — "
             + t(lang, "queue.support", n=item.support),
             t(lang, "queue.by", user=who(first.user_id, lang), when=when(first.at))]
    if item.support > 1:
        lines.append(t(lang, "queue.plus_ones", users=", ".join(
            who(s.user_id, lang) for s in item.supporters[1:])))
    for supporter in item.supporters:
        if supporter.note:
            lines.append(f"> {who(supporter.user_id, lang)}: {escape(supporter.note)}")
    return "\n".join(lines)


class QueueCog(commands.Cog):
    """Anyone suggests; the queue is most supported first, then oldest."""

    queue = app_commands.Group(name="queue", description="Papers suggested for the group")

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services

    @app_commands.command(name="suggest", description="Suggest a paper for the group to read next")
    @app_commands.describe(paper="A title, author, topic or arXiv link; pick one from the list",
                           note="Why the group should read it")
    async def suggest(self, interaction: discord.Interaction,
                      paper: app_commands.Range[str, 1, 300],
                      note: app_commands.Range[str, 1, NOTE_LIMIT] | None = None) -> None:
        """Queue a paper (or +1 it), publicly, with the escaped note. An arXiv link or id is
        added to the catalog first, if the member may add papers."""
        in_guild(interaction)
        lang = lang_of(interaction)
        added = ""
        arxiv = find_arxiv_ids(paper).found
        known = await self.services.search.by_link(arxiv_id=arxiv[0].id) if arxiv else None
        if known is not None:  # already in the catalog: anyone may suggest it
            paper = known.id
        elif arxiv:
            await may_add(interaction, self.services)
            await defer(interaction, ephemeral=False)  # arXiv may make us wait seconds
            report = await self.services.adding.add_scanned(IdScan(arxiv[:1], ()))
            if not report.papers:
                await respond(interaction, report_text(report, lang))
                return
            item = report.items[0]
            added = item_line(item, lang) if item.status is not AddedStatus.UNCHANGED else ""
            paper = report.papers[0].id
        done = await self.services.queue.suggest(interaction.guild_id or 0,
                                                 interaction.user.id, paper, note or "")
        text = t(lang, SUGGEST_KEYS[done.outcome], user=interaction.user.mention,
                 title=title(done.paper, lang), n=done.item.support)
        if done.outcome is SuggestOutcome.ALREADY:
            await respond(interaction, text, ephemeral=True)
            return
        if note:
            text += "\n" + t(lang, "queue.note", note=escape(note))
        await respond(interaction, "\n".join(filter(None, (added, text))))

    @suggest.autocomplete("paper")
    async def suggest_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        """Catalog titles."""
        return await paper_choices(self.services.search, interaction, current)

    @queue.command(name="show", description="The queue, most supported first")
    async def show(self, interaction: discord.Interaction) -> None:
        """The queue, paged; only the asker turns the pages."""
        in_guild(interaction)
        lang = lang_of(interaction)
        entries = await self.services.queue.entries(interaction.guild_id or 0)
        lines = [queue_entry(n, e, lang) for n, e in enumerate(entries, start=1)]
        await send_pages(self.bot, interaction, text_pages(
            t(lang, "queue.title"), lines, lang, empty=t(lang, "queue.empty")), ephemeral=False)

    @queue.command(name="remove",
                   description="Remove your suggestion (organisers: any), or take back your +1")
    @app_commands.describe(paper="A paper in the queue")
    async def remove(self, interaction: discord.Interaction,
                     paper: app_commands.Range[str, 1, 300]) -> None:
        """Remove a queued paper, or withdraw the member's +1."""
        in_guild(interaction)
        lang = lang_of(interaction)
        outcome, found = await self.services.queue.remove(
            interaction.guild_id or 0, interaction.user.id, paper,
            organiser=await is_organiser(interaction, self.services))
        await respond(interaction, t(lang, REMOVE_KEYS[outcome], title=title(found, lang),
                                     perms=permission_name("manage_guild", lang)),
                      ephemeral=outcome is not RemoveOutcome.REMOVED)

    @remove.autocomplete("paper")
    async def queued_papers(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        """Papers in this server's queue."""
        entries = await self.services.queue.entries(interaction.guild_id or 0)
        papers = [e.paper for e in entries if e.paper is not None]
        return listed_choices(papers, current, lang_of(interaction))


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(QueueCog(host, host.services))
