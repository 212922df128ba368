"""Telling members exactly once: every DM and follow-up mention goes through the outbox.

Rows are written before anything is sent; a unit (one message) is leased to one process, sent,
and deleted while its members are recorded as told, in one transaction. A crash or restart
leaves the rows for the next start (an expired lease is taken over); the unit's nonce lets
Discord drop a resend of a message it had accepted just before the crash.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date

from bot.features.notifications.store import OutboxStore
from bot.features.papers.store import PaperStore
from bot.features.subscriptions.store import SubscriptionStore
from bot.shared.server_view import ServerView, seen
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from domain.paper import Paper
from domain.reasons import Reason, ReasonCode
from domain.shards import ALL_SHARDS, Shards

log = logging.getLogger(__name__)

DEFAULT_LEASE_SECONDS = 60.0
MAX_ATTEMPTS = 5
RETRY_DELAY_SECONDS = 30.0

PaperMatches = Sequence[tuple[str, Sequence[str]]]
"""(paper id, matched topics) for one member."""


class OutboxService:
    """Queue notifications, and lease, complete or give back the units the sender sends."""

    def __init__(self, store: OutboxStore, subscriptions: SubscriptionStore,
                 papers: PaperStore, *, lease_seconds: float = DEFAULT_LEASE_SECONDS,
                 clock: Callable[[], float] = time.time, shards: Shards = ALL_SHARDS,
                 view: ServerView | None = None) -> None:
        """Only units of servers on `shards` are claimed (this process's share of the work);
        `view` shows each server its corrections of the papers."""
        self.view = view
        self.store = store
        self.subscriptions = subscriptions
        self.papers = papers
        self.lease_seconds = lease_seconds
        self.clock = clock
        self.shards = shards

    async def queue_digest(self, guild_id: int, local_date: date, paper_id: str, *,
                           pinged: Iterable[int], mentions: Sequence[Sequence[int]],
                           topics: Sequence[str], reply_in: int,
                           dms: Mapping[int, Sequence[str]], link: str) -> int | None:
        """Once per posted paper of the day, in one transaction: record the members its post
        `pinged` as told, and queue follow-up mention messages (one per batch, in `reply_in`)
        and one DM per member; returns how many members were queued, None if they were
        queued before (a resume after a crash, or another process)."""
        token = uuid.uuid4().hex[:12]
        units = [OutboxUnit(f"mention:{guild_id}:{paper_id}:{token}:{n}", OutboxKind.MENTION,
                            tuple(OutboxEntry(guild_id, user_id, paper_id, tuple(topics),
                                              channel_id=reply_in) for user_id in batch))
                 for n, batch in enumerate(mentions) if batch]
        units += [OutboxUnit(f"dm:{guild_id}:{paper_id}:{user_id}", OutboxKind.DIGEST_DM,
                             (OutboxEntry(guild_id, user_id, paper_id, tuple(member_topics),
                                          link=link),))
                  for user_id, member_topics in sorted(dms.items())]
        return await self.store.queue_followers(guild_id, local_date, paper_id, pinged, units)

    async def claim(self, owner: str) -> OutboxUnit | None:
        """Lease the next unit to send, or None when nothing is due."""
        now = self.clock()
        return await self.store.claim(owner, now, now + self.lease_seconds, self.shards)

    async def sent(self, unit: OutboxUnit, owner: str) -> int:
        """Discord accepted the unit: its members are now told."""
        return await self.store.complete(unit.key, owner)

    async def failed(self, unit: OutboxUnit, owner: str, *, retryable: bool) -> None:
        """Discord did not take the unit: try again later (a few times), or drop it."""
        if retryable and unit.attempts < MAX_ATTEMPTS:
            await self.store.retry_later(
                unit.key, owner, self.clock() + RETRY_DELAY_SECONDS * unit.attempts)
            return
        log.warning("dropping %s after %d attempts", unit.key, unit.attempts)
        await self.store.drop(unit.key, owner)

    async def refused_dm(self, unit: OutboxUnit, owner: str) -> None:
        """Discord refused a DM (50007): pause the member's DMs and drop every DM queued
        for them, so a closed inbox costs one failed request."""
        for user_id in {entry.user_id for entry in unit.entries}:
            await self.subscriptions.pause_dms(user_id, Reason(ReasonCode.DMS_CLOSED))
            await self.store.drop_dms(user_id)
        await self.store.drop(unit.key, owner)

    async def release(self, owner: str) -> int:
        """Give back what `owner` holds, for the next start or another process."""
        return await self.store.release(owner)

    async def paper(self, paper_id: str, guild_id: int | None = None) -> Paper | None:
        """A queued notification's paper as its server sees it (None if it left the
        catalog)."""
        return await seen(self.view, guild_id, await self.papers.get(paper_id))
