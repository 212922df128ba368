"""`/feed`: follow arXiv searches (admins: Manage Server)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.cog_base import AdminGroupCog
from bot.client.cog_host import host_of
from bot.client.respond import respond
from bot.client.tree import UserFacingError, lang_of, permission_name
from bot.features.feeds.query import MAX_QUERY_LENGTH
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.shared.lang import Lang
from bot.shared.messages import duration, render_reason, t
from domain.feeds import MAX_FEEDS_PER_GUILD, Feed, FeedAddStatus, PausedFeed

if TYPE_CHECKING:
    pass

NEEDED_IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "read_message_history")
FIELD_LIMIT = 1024


def _missing_in(channel: discord.abc.GuildChannel, me: discord.Member | None) -> list[str]:
    if me is None:
        return []
    perms = channel.permissions_for(me)
    return [name for name in NEEDED_IN_CHANNEL if not getattr(perms, name)]


def _state(feed: Feed, lang: Lang) -> str:
    """Where it posts, and its last poll (or why it is paused)."""
    where = f"<#{feed.channel_id}>" if feed.channel_id else "—"
    if feed.paused_reason is not None:
        state = t(lang, "feed.list.paused", reason=escape(render_reason(lang,
                                                                         feed.paused_reason)))
    elif feed.last_error is not None:
        state = t(lang, "feed.list.error", reason=escape(render_reason(lang, feed.last_error)))
    elif feed.last_polled_at is not None:
        state = t(lang, "feed.list.polled",
                  when=discord.utils.format_dt(feed.last_polled_at, "R"))
    else:
        state = t(lang, "feed.list.never")
    return f"{where} · {state}"


@app_commands.default_permissions(manage_guild=True)
class FeedCog(AdminGroupCog, group_name="feed",
              group_description="Follow arXiv searches: new papers join the catalog"):
    """Follow, list and remove the server's arXiv feeds."""

    def _every(self, lang: Lang) -> str:
        return duration(lang, self.bot.settings.arxiv.poll_minutes)

    @staticmethod
    def _notice(lang: Lang, paused: tuple[PausedFeed, ...]) -> str:
        """Feeds that paused since the admins last looked, as lines to put first."""
        return "".join(t(lang, "feed.paused_notice", id=p.feed_id, query=p.query,
                         reason=escape(render_reason(lang, p.reason))) + "\n\n"
                       for p in paused)

    @app_commands.command(name="add", description="Follow an arXiv search query")
    @app_commands.describe(query="An arXiv search query, e.g. cat:cs.LG AND abs:grokking",
                           channel="Where to post the new titles (optional)")
    async def add(self, interaction: discord.Interaction,
                  query: app_commands.Range[str, 1, MAX_QUERY_LENGTH],
                  channel: discord.TextChannel | None = None) -> None:
        """Validate the query, check the bot can post in the channel, and follow it."""
        lang = lang_of(interaction)
        if channel is not None and (missing := _missing_in(channel, channel.guild.me)):
            names = ", ".join(permission_name(n, lang) for n in missing)
            raise UserFacingError(t(lang, "feed.cannot_post", channel=channel.mention,
                                    perms=names))
        noticed = await self.services.feeds.follow(interaction.guild_id or 0, query,
                                                   channel.id if channel else None,
                                                   interaction.user.id)
        added, notice = noticed.result, self._notice(lang, noticed.notices)
        feed = added.feed
        if added.status is FeedAddStatus.LIMIT or feed is None:
            raise UserFacingError(notice + t(lang, "feed.limit", limit=MAX_FEEDS_PER_GUILD))
        if added.status is FeedAddStatus.DUPLICATE:
            raise UserFacingError(notice + t(lang, "feed.duplicate", query=feed.query,
                                             id=feed.id))
        where = (t(lang, "feed.where.channel", channel=f"<#{feed.channel_id}>")
                 if feed.channel_id else t(lang, "feed.where.none"))
        key = "feed.resumed" if added.status is FeedAddStatus.RESUMED else "feed.added"
        await respond(interaction, notice + t(lang, key, query=feed.query, id=feed.id,
                                              every=self._every(lang), where=where),
                      ephemeral=True)

    @app_commands.command(name="list", description="The server's feeds and their last poll")
    async def list_feeds(self, interaction: discord.Interaction) -> None:
        """Every feed: its query, channel and last poll (or why it is paused)."""
        lang = lang_of(interaction)
        noticed = await self.services.feeds.overview(interaction.guild_id or 0)
        feeds, notice = noticed.result, self._notice(lang, noticed.notices)
        if not feeds:
            await respond(interaction, notice + t(lang, "feed.list.empty"), ephemeral=True)
            return
        embed = discord.Embed(title=t(lang, "feed.list.title"), colour=CARD_COLOUR,
                              description=t(lang, "feed.list.every", every=self._every(lang)))
        for feed in feeds:
            embed.add_field(name=fit(f"#{feed.id} · {feed.query}", 256),
                            value=fit(_state(feed, lang), FIELD_LIMIT), inline=False)
        await respond(interaction, notice or None, embed=embed, ephemeral=True)

    @app_commands.command(name="remove", description="Stop following a feed")
    @app_commands.describe(feed="The feed")
    async def remove(self, interaction: discord.Interaction,
                     feed: app_commands.Range[int, 1, 2**53]) -> None:
        """Stop following a feed (its papers stay in the catalog)."""
        lang = lang_of(interaction)
        noticed = await self.services.feeds.unfollow(interaction.guild_id or 0, feed)
        removed, notice = noticed.result, self._notice(lang, noticed.notices)
        if removed is None:
            raise UserFacingError(notice + t(lang, "feed.unknown", id=feed))
        await respond(interaction, notice + t(lang, "feed.removed", query=removed.query,
                                              id=removed.id), ephemeral=True)

    @remove.autocomplete("feed")
    async def feed_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[int]]:
        """The server's feeds whose number or query contains what is typed."""
        typed = current.strip().casefold()
        feeds = await self.services.feeds.of_guild(interaction.guild_id or 0)
        return [app_commands.Choice(name=fit(f"#{f.id} {f.query}", 100), value=f.id)
                for f in feeds if typed in f"#{f.id} {f.query}".casefold()][:25]


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(FeedCog(host, host.services))
