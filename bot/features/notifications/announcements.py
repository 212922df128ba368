"""Telling subscribers about papers new to the catalog, resumably.

The transaction that adds papers records them as unannounced (`announce=True` on the paper
store); this step leases a batch of them, works out each server's members to tell (their topics,
and "papers like my bookmarks"), and queues one DM per member and server in the outbox in the
transaction that deletes the batch. It runs after each load or add, at start and on each
scheduler tick, so what a kill or a stop left unannounced is announced by the next run; the
outbox then sends each DM once.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence

from bot.features.notifications.outbox import PaperMatches
from bot.features.notifications.store import AnnouncementStore
from bot.features.papers.store import PaperStore
from bot.features.subscriptions.service import SubscriptionService
from bot.shared.leases import Leaser
from domain.outbox import OutboxEntry, OutboxKind, OutboxUnit
from domain.paper import Paper
from domain.subscriptions import similar_topic

log = logging.getLogger(__name__)

BATCH = 1000
"""Papers leased and announced at a time."""


class NewPaperAnnouncements:
    """Queues the DMs about unannounced papers (`NewPaperAnnouncer` of the catalog)."""

    def __init__(self, store: AnnouncementStore, papers: PaperStore,
                 service: SubscriptionService, leases: Leaser,
                 wake: Callable[[], None] = lambda: None) -> None:
        """`wake` tells the outbox's sender that something was queued."""
        self.store = store
        self.papers = papers
        self.service = service
        self.leases = leases
        self.wake = wake
        self._running = asyncio.Lock()

    async def announce_pending(self) -> int:
        """Announce every paper left unannounced whose lease is free, a batch at a time;
        returns how many DMs' rows were queued."""
        queued = 0
        async with self._running:
            while ids := await self.leases.hold(
                    lambda lease, now: self.store.claim(lease, now, BATCH)):
                units = await self._units(ids)
                done = await self.store.announced(self.leases.owner, ids, units)
                if done is None:
                    log.info("another process took over %d unannounced papers", len(ids))
                    continue
                queued += done
                log.info("announced %d new papers: %d notifications queued", len(ids), done)
                if done:
                    self.wake()
        return queued

    async def release(self) -> int:
        """Give back the papers this process holds (a clean stop)."""
        return await self.store.release(self.leases.owner)

    async def _units(self, paper_ids: Sequence[str]) -> list[OutboxUnit]:
        """One DM per member and server listing the papers matching their topics or close to
        what they liked, each paper once per member, in the papers' order."""
        papers = await self.papers.get_many(paper_ids)
        if not papers:
            return []
        similar = self.service.similar
        guilds = set(await self.service.guilds_with_subscriptions())
        guilds |= set(await similar.guilds()) if similar is not None else set()
        token = uuid.uuid4().hex[:12]
        units: list[OutboxUnit] = []
        for guild_id in sorted(guilds):
            for user_id, matches in sorted((await self._matches(guild_id, papers)).items()):
                units.append(OutboxUnit(
                    f"new:{guild_id}:{user_id}:{token}", OutboxKind.NEW_PAPERS_DM,
                    tuple(OutboxEntry(guild_id, user_id, paper_id, tuple(topics))
                          for paper_id, topics in matches)))
        return units

    async def _matches(self, guild_id: int, papers: list[Paper]) -> dict[int, PaperMatches]:
        order = {paper.id: n for n, paper in enumerate(papers)}
        per_member: dict[int, dict[str, list[str]]] = defaultdict(dict)
        for user_id, found in (await self.service.new_paper_matches(guild_id, papers)).items():
            for paper, topics in found:
                per_member[user_id][paper.id] = list(topics)
        similar = self.service.similar
        if similar is not None:
            close = await similar.new_paper_matches(guild_id, [p.id for p in papers])
            for user_id, standings in close.items():
                for paper_id, standing in standings:
                    per_member[user_id].setdefault(paper_id, []).append(similar_topic(standing))
        return {user_id: sorted(matches.items(), key=lambda item: order[item[0]])
                for user_id, matches in per_member.items() if matches}
