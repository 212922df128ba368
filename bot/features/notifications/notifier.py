"""Telling members about papers: who the paper of the day concerns, and queueing the DMs and
follow-up mentions in the outbox (`outbox_sender` sends them)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from bot.features.notifications.outbox import OutboxService
from bot.features.notifications.sender import OutboxSender
from bot.features.subscriptions.service import Audience, SubscriptionService
from bot.shared.mentions import mention_batches
from domain.paper import Paper
from domain.subscriptions import similar_topic


class Notifier:
    """Digest audiences and new-paper announcements (`DigestAudience`, `NewPaperAnnouncer`)."""

    def __init__(self, service: SubscriptionService, outbox: OutboxService,
                 sender: OutboxSender) -> None:
        self.service = service
        self.outbox = outbox
        self.sender = sender

    async def digest_audience(self, guild_id: int, paper: Paper, *, mention: bool) -> Audience:
        """Who the paper of the day concerns in this server."""
        return await self.service.digest_audience(guild_id, paper, mention=mention)

    async def announce(self, papers: list[Paper]) -> None:
        """New papers were loaded: queue one DM per member and server listing the new papers
        matching their topics or close to what they liked ("papers like my bookmarks"), each
        paper once per member."""
        queued = 0
        similar = self.service.similar
        guilds = set(await self.service.guilds_with_subscriptions())
        guilds |= set(await similar.guilds()) if similar is not None else set()
        order = {paper.id: n for n, paper in enumerate(papers)}
        for guild_id in sorted(guilds):
            per_member: dict[int, dict[str, list[str]]] = defaultdict(dict)
            for user_id, matches in (await self.service.new_paper_matches(
                    guild_id, papers)).items():
                for paper, topics in matches:
                    per_member[user_id][paper.id] = list(topics)
            if similar is not None:
                close = await similar.new_paper_matches(guild_id, [p.id for p in papers])
                for user_id, standings in close.items():
                    for paper_id, standing in standings:
                        per_member[user_id].setdefault(paper_id, []).append(
                            similar_topic(standing))
            queued += await self.outbox.queue_new_papers(guild_id, {
                user_id: sorted(matches.items(), key=lambda item: order[item[0]])
                for user_id, matches in per_member.items()})
        if queued:
            self.sender.wake()

    async def after_digest(self, guild_id: int, local_date: date, paper: Paper,
                           audience: Audience, link: str, reply_in: int) -> None:
        """The post is out with the first batch of mentions: record those members as told and
        queue the other batches (in `reply_in`, the thread or channel) and the DMs, all in one
        transaction, once per post."""
        batches = mention_batches(audience.mention_ids) or [()]
        queued = await self.outbox.queue_digest(
            guild_id, local_date, paper.id, pinged=batches[0], mentions=batches[1:],
            topics=audience.mention_topics, reply_in=reply_in, dms=audience.dm, link=link)
        if queued:
            self.sender.wake()
