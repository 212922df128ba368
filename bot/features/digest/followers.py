"""Who hears of a paper of the day besides the channel: the members its post mentions, and
the DMs and follow-up mentions queued once it is out (through the `DigestAudience` port)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.features.digest.delivery import Audience, DigestAudience
from domain.digest import DigestConfig, LedgerEntry
from domain.paper import Paper

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Followers:
    """The digest's audience port, or None where subscriptions are not wired (nobody)."""

    audience: DigestAudience | None

    async def who(self, config: DigestConfig, paper: Paper) -> Audience | None:
        """Who to tell about the paper (empty without subscriptions), None if that failed."""
        if self.audience is None:
            return Audience()
        try:
            return await self.audience.digest_audience(
                config.guild_id, paper, mention=config.mention_subscribers)
        except Exception:
            log.exception("could not work out who to tell about guild %s's paper",
                          config.guild_id)
            return None

    async def queue(self, config: DigestConfig, entry: LedgerEntry, paper: Paper,
                    message_id: int, thread_id: int | None,
                    audience: Audience | None = None) -> None:
        """Record who the post pinged and queue the DMs and follow-up mentions, in one
        transaction with the ledger's "followers queued" mark. `audience` is the one the
        post was sent with; after a crash it is worked out again (the same members: none of
        them is recorded as told until this transaction)."""
        if self.audience is None:
            return
        if audience is None and (audience := await self.who(config, paper)) is None:
            return
        channel_id = entry.channel_id or config.channel_id
        link = f"https://discord.com/channels/{config.guild_id}/{channel_id}/{message_id}"
        try:
            await self.audience.after_digest(config.guild_id, entry.local_date, paper,
                                             audience, link, thread_id or channel_id)
        except Exception:
            log.exception("notifying subscribers of guild %s failed", config.guild_id)
