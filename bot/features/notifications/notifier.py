"""Telling members about the paper of the day: who it concerns, and queueing the DMs and
follow-up mentions in the outbox (`outbox_sender` sends them; new papers are
`announcements`)."""

from __future__ import annotations

from datetime import date

from bot.features.notifications.outbox import OutboxService
from bot.features.notifications.sender import OutboxSender
from bot.features.subscriptions.service import Audience, SubscriptionService
from bot.shared.mentions import mention_batches
from domain.paper import Paper


class Notifier:
    """Digest audiences and their follow-up notifications (`DigestAudience`)."""

    def __init__(self, service: SubscriptionService, outbox: OutboxService,
                 sender: OutboxSender) -> None:
        self.service = service
        self.outbox = outbox
        self.sender = sender

    async def digest_audience(self, guild_id: int, paper: Paper, *, mention: bool) -> Audience:
        """Who the paper of the day concerns in this server."""
        return await self.service.digest_audience(guild_id, paper, mention=mention)

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
