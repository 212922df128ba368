"""Telling members about papers on Discord: digest mention lines and paced DMs.

A DM refused with 50007 pauses that member's DM delivery at once, so a server with thousands
of closed DMs produces one failed request per member, never a retry loop; DMs are paced, which
keeps even failures far below Discord's 10,000 invalid requests per 10 minutes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

import discord

from bot.client.background import BackgroundTasks
from bot.client.ui.cards import escape, paper_message
from bot.core.card import fit
from bot.core.lang import Lang
from bot.core.messages import t
from bot.core.models import Paper
from bot.core.results import titles_in_order
from bot.core.subscription_types import Delivery
from bot.services.subscriptions import Audience, SubscriptionService

log = logging.getLogger(__name__)

MAX_LISTED = 10
CONTENT_LIMIT = 2000


def guild_lang(client: discord.Client, guild_id: int) -> Lang:
    """The server's preferred language: for its channel posts and for DMs about it."""
    guild = client.get_guild(guild_id)
    return Lang.from_locale(str(guild.preferred_locale)) if guild else Lang.EN


def mention_line(audience: Audience, lang: Lang) -> str:
    """`For: @a @b — matched grokking, ridge regression`, within Discord's 2,000 characters."""
    people = " ".join(f"<@{user_id}>" for user_id in audience.mention_ids)
    topics = ", ".join(escape(topic) for topic in audience.mention_topics)
    return fit(t(lang, "notify.mention", people=people, topics=topics), CONTENT_LIMIT)


def new_papers_message(papers: list[tuple[Paper, list[str]]], guild_name: str,
                       lang: Lang) -> str:
    """One DM per load: at most 10 papers listed, then how many more."""
    lines = [t(lang, "notify.new_papers", guild=escape(guild_name))]
    for paper, topics in papers[:MAX_LISTED]:
        title = titles_in_order(paper, lang.chinese)[0]
        lines.append(f"• **{escape(fit(title, 200))}** — {escape(', '.join(topics))} "
                     f"(`/paper {paper.id}`)")
    if len(papers) > MAX_LISTED:
        lines.append(t(lang, "notify.more", n=len(papers) - MAX_LISTED))
    return fit("\n".join(lines), CONTENT_LIMIT)


class Notifier:
    """DMs and digest audiences for one bot (`DigestAudience` and `NewPaperAnnouncer`)."""

    def __init__(self, client: discord.Client, service: SubscriptionService,
                 background: BackgroundTasks, *, dm_interval: float = 0.25) -> None:
        self.client = client
        self.service = service
        self.background = background
        self.dm_interval = dm_interval
        self._dm_lock = asyncio.Lock()

    async def digest_audience(self, guild_id: int, paper: Paper, *, mention: bool) -> Audience:
        """Who the paper of the day concerns in this server."""
        return await self.service.digest_audience(guild_id, paper, mention=mention)

    def announce(self, papers: list[Paper]) -> None:
        """New papers were loaded: tell subscribers in the background."""
        if papers:
            self.background.spawn(self.new_papers(papers), "new-paper notifications")

    async def after_digest(self, guild_id: int, paper: Paper, audience: Audience,
                           link: str) -> None:
        """Record the mentions and DMs, then send the DMs in the background (they are paced,
        and the digest must not wait for them)."""
        await self.service.record_notifications(
            guild_id, ((u, paper.id) for u in audience.mention_ids), Delivery.MENTION)
        fresh = await self.service.record_notifications(
            guild_id, ((u, paper.id) for u in audience.dm), Delivery.DM)
        if fresh:
            self.background.spawn(
                self._digest_dms(paper, audience, sorted(u for u, _ in fresh), link,
                                 guild_lang(self.client, guild_id)),
                "paper-of-the-day DMs")

    async def _digest_dms(self, paper: Paper, audience: Audience, user_ids: list[int],
                          link: str, lang: Lang) -> None:
        for user_id in user_ids:
            topics = ", ".join(audience.dm[user_id])
            embed, view = paper_message(paper, lang)
            view.stop()
            await self.dm(user_id, t(lang, "notify.digest_dm", topics=escape(topics), link=link),
                          embed=embed)

    async def new_papers(self, papers: Iterable[Paper]) -> int:
        """After a catalog load: one DM per member and server listing the new matching papers."""
        papers = list(papers)
        sent = 0
        for guild_id in await self.service.guilds_with_subscriptions():
            per_member = await self.service.new_paper_matches(guild_id, papers)
            guild = self.client.get_guild(guild_id)
            lang = guild_lang(self.client, guild_id)
            for user_id, matches in per_member.items():
                fresh = await self.service.record_notifications(
                    guild_id, ((user_id, p.id) for p, _ in matches), Delivery.DM)
                listed = [(p, topics) for p, topics in matches if (user_id, p.id) in fresh]
                name = guild.name if guild else t(lang, "notify.your_server")
                if listed and await self.dm(user_id, new_papers_message(listed, name, lang)):
                    sent += 1
        return sent

    async def dm(self, user_id: int, content: str, *, embed: discord.Embed | None = None
                 ) -> bool:
        """Send one DM, paced; a 50007 refusal pauses the member's DM delivery."""
        if await self.service.dms_paused(user_id):
            return False
        async with self._dm_lock:
            try:
                channel = await self.client.create_dm(discord.Object(id=user_id))
                await channel.send(content, embed=embed or discord.utils.MISSING,
                                   allowed_mentions=discord.AllowedMentions.none())
                return True
            except discord.Forbidden as exc:
                if exc.code == 50007:
                    await self.service.pause_dms(user_id)
                log.info("DM to %s refused: %s", user_id, exc)
                return False
            except discord.HTTPException as exc:
                log.warning("DM to %s failed: %s", user_id, exc)
                return False
            finally:
                await asyncio.sleep(self.dm_interval)
