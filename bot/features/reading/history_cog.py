"""`/history` (what the group discussed, paged) and `/export` (a BibTeX or Markdown file)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import send_pages, title, who
from bot.client.checks import in_guild
from bot.client.cog_host import CogHost, host_of
from bot.client.respond import defer, respond
from bot.client.tree import lang_of
from bot.features.export.formats import ExportFormat, ExportWhat
from bot.features.export.service import thread_link
from bot.features.reading.history import HistoryEntry
from bot.shared.lang import Lang
from bot.shared.messages import t, tn
from bot.shared.pages import text_pages

if TYPE_CHECKING:
    from bot.bundle import Services

FALLBACK_SIZE_LIMIT = 10 * 1024 * 1024
"""Discord's attachment limit for bots when an interaction does not say (10 MiB)."""


def history_entry(number: int, entry: HistoryEntry, lang: Lang) -> str:
    """`**1. Title**`, the date, who presented, and a link to the discussion thread."""
    done = entry.discussed
    date = f"<t:{int(done.when.timestamp())}:D>"
    paper = title(entry.paper, lang, done.paper_id)
    line = (t(lang, "history.line", n=number, title=paper, date=date,
              presenter=who(done.presenter_id, lang))
            if done.presenter_id is not None
            else t(lang, "history.line_no_presenter", n=number, title=paper, date=date))
    link = thread_link(done.guild_id, done.thread_id)
    return line if link is None else f"{line} · [{t(lang, 'history.thread')}]({link})"


class MemberNames:
    """Members' display names for an export, fetched once each (at most `LOOKUPS` fetches;
    further members, and members who left, are named by id)."""

    LOOKUPS = 25

    def __init__(self, guild: discord.Guild | None, lang: Lang) -> None:
        self.guild = guild
        self.lang = lang
        self.known: dict[int, str] = {}

    async def name(self, user_id: int | None) -> str:
        """The member's display name."""
        if user_id is None:
            return t(self.lang, "queue.former_member")
        if user_id not in self.known:
            self.known[user_id] = await self._fetch(user_id)
        return self.known[user_id]

    async def _fetch(self, user_id: int) -> str:
        fallback = t(self.lang, "export.member", id=user_id)
        if self.guild is None or len(self.known) >= self.LOOKUPS:
            return fallback
        member = self.guild.get_member(user_id)
        if member is None:
            try:
                member = await self.guild.fetch_member(user_id)
            except discord.HTTPException:
                return fallback
        return member.display_name


def _size_text(limit: int) -> str:
    return f"{limit / (1024 * 1024):.0f} MiB" if limit >= 1024 * 1024 else f"{limit:,} bytes"


class HistoryCog(commands.Cog):
    """Any member reads the history and exports it (a reading list only to its owner)."""

    def __init__(self, bot: CogHost, services: Services) -> None:
        self.bot = bot
        self.services = services

    @app_commands.command(name="history", description="What the group has discussed, newest first")
    async def history(self, interaction: discord.Interaction) -> None:
        """The server's discussions, paged; presenters are shown, never pinged."""
        in_guild(interaction)
        lang = lang_of(interaction)
        entries = await self.services.history.entries(interaction.guild_id or 0)
        lines = [history_entry(n, e, lang) for n, e in enumerate(entries, start=1)]
        await send_pages(self.bot, interaction, text_pages(
            t(lang, "history.title"), lines, lang, empty=t(lang, "history.empty")),
            ephemeral=False)

    @app_commands.command(name="export",
                          description="The history, the queue or your reading list as a file")
    @app_commands.describe(what="What to export",
                           format="BibTeX (Zotero, LaTeX) or Markdown (a wiki)")
    @app_commands.choices(
        what=[app_commands.Choice(name="History", value=ExportWhat.HISTORY.value),
              app_commands.Choice(name="Queue", value=ExportWhat.QUEUE.value),
              app_commands.Choice(name="Your reading list", value=ExportWhat.BOOKMARKS.value)],
        format=[app_commands.Choice(name="BibTeX", value=ExportFormat.BIBTEX.value),
                app_commands.Choice(name="Markdown", value=ExportFormat.MARKDOWN.value)])
    async def export(self, interaction: discord.Interaction, what: str, format: str) -> None:
        """A file attachment, cut (and said so) to fit Discord's attachment limit."""
        in_guild(interaction)
        lang = lang_of(interaction)
        kind = ExportWhat(what)
        await defer(interaction, ephemeral=kind is ExportWhat.BOOKMARKS)
        names = MemberNames(interaction.guild, lang)
        name_of = names.name
        limit = interaction.filesize_limit or FALLBACK_SIZE_LIMIT
        made = await self.services.export.export(
            interaction.guild_id or 0, kind, ExportFormat(format), lang,
            user_id=interaction.user.id, name_of=name_of, limit_bytes=limit)
        content = made.content
        text = (tn(lang, "export.done", content.total) if content.kept == content.total
                else t(lang, "export.cut", kept=content.kept, total=content.total,
                       limit=_size_text(limit)))
        await respond(interaction, text,
                      file=discord.File(io.BytesIO(content.data), filename=made.filename),
                      ephemeral=kind is ExportWhat.BOOKMARKS)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(HistoryCog(host, host.services))
