"""arXiv feeds: servers follow queries; each distinct query is polled once per interval, its new
papers join the catalog (subscribers hear once) and each feed with a channel gets at most one
"new in <feed>" post per poll, exactly once.

The scheduler only calls `tick()`. A query's poll is claimed atomically (two ticks or two
processes: one polls); arXiv is asked newest first, page by page, until a paper the query has
seen; the papers are added, then what was seen and the announcements it owes are recorded in
one transaction. Nothing is recorded when arXiv is busy: the next poll finds the same papers.
An announcement is claimed (leased) before it is sent, carries a nonce derived from (feed,
poll), and is marked after; the lease is renewed before each Discord call, and a process whose
renewal fails leaves the claim to its new owner. A claim left by a crash is resumed by
searching the channel for the post (nonce or footer marker) before sending. A channel that
is gone pauses the feed and tells the server's admins once; one server's failure never touches
another's.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from bot.features.adding.arxiv_atom import ArxivEntry
from bot.features.adding.arxiv_port import ArxivSource
from bot.features.adding.arxiv_types import ArxivError, ArxivRejected, SortBy, SortOrder
from bot.features.catalog.service import CatalogService
from bot.features.digest.scheduler import HISTORY_MARGIN
from bot.features.feeds.delivery import DeliveryFailed, FeedPost, FeedPoster
from bot.features.feeds.query import canonical_query
from bot.features.feeds.store import FeedStore
from bot.features.papers.store import PaperStore
from bot.shared.clock import Clock, utc_now
from bot.shared.fanout import each_isolated
from bot.shared.leases import Leaser, process_owner
from bot.shared.noticed import Noticed
from bot.shared.pacing import discord_pace
from domain.catalog import AddStatus
from domain.feeds import (
    FIRST_POLL_PAPERS,
    MAX_FEEDS_PER_GUILD,
    MAX_PAPERS_PER_POLL,
    POLL_PAGE,
    Announcement,
    Feed,
    FeedAdded,
    PausedFeed,
    PollClaim,
    announcement_marker,
    announcement_nonce,
)
from domain.reasons import Reason, ReasonCode
from domain.shards import ALL_SHARDS, Shards

log = logging.getLogger(__name__)

FEED_SOURCE = "arxiv-feed"
"""The catalog source of papers a feed added."""
MAX_ATTEMPTS = 3
"""Claims of one announcement before a transient failure counts as final."""
CHANNEL_PROBLEMS = frozenset({ReasonCode.CHANNEL_MISSING, ReasonCode.NO_ACCESS,
                              ReasonCode.NO_PERMISSION})
"""Failures that pause a feed: trying again would fail again until an admin acts."""


@dataclass(frozen=True, slots=True)
class PollOutcome:
    """One query's poll: papers arXiv gave that the query had not seen, papers new to the
    catalog, announcements owed; or why it failed (nothing recorded)."""

    query: str
    poll: int
    fresh: int = 0
    added: int = 0
    announcements: int = 0
    error: Reason | None = None


@dataclass(frozen=True, slots=True)
class AnnounceOutcome:
    """One (feed, poll) announcement: posted (its message), given back, failed or paused."""

    feed_id: int
    poll: int
    message_id: int | None = None
    reason: Reason | None = None
    paused: bool = False


@dataclass(frozen=True, slots=True)
class FeedTick:
    """What one scheduled turn did."""

    polls: tuple[PollOutcome, ...]
    announcements: tuple[AnnounceOutcome, ...]


class FeedService:
    """`/feed` and the scheduled polls and announcements."""

    def __init__(self, feeds: FeedStore, catalog: CatalogService, papers: PaperStore,
                 arxiv: ArxivSource, poster: FeedPoster, *, poll_every: timedelta,
                 clock: Clock = utc_now, leases: Leaser | None = None,
                 shards: Shards = ALL_SHARDS, concurrency: int = 10,
                 requests_per_second: float = 45.0) -> None:
        """`leases` names this process in its announcement claims and times their leases
        (default: this process, `DEFAULT_LEASE` by `clock`)."""
        self.feeds = feeds
        self.catalog = catalog
        self.papers = papers
        self.arxiv = arxiv
        self.poster = poster
        self.poll_every = poll_every
        self.clock = clock
        self.leases = leases or Leaser(process_owner(), clock=clock)
        self.shards = shards
        self._concurrency = concurrency
        self._pace = discord_pace(requests_per_second)

    # -- /feed --------------------------------------------------------------------------------

    async def add(self, guild_id: int, query: str, channel_id: int | None,
                  created_by: int) -> FeedAdded:
        """Follow an arXiv query (a `Refusal` when it is not one); polled at the next tick."""
        return await self.feeds.add_feed(guild_id, canonical_query(query), channel_id,
                                         created_by, self.clock(), limit=MAX_FEEDS_PER_GUILD)

    async def of_guild(self, guild_id: int) -> list[Feed]:
        """A server's feeds."""
        return await self.feeds.feeds(guild_id)

    async def remove(self, guild_id: int, feed_id: int) -> Feed | None:
        """Stop following; None if the server has no such feed."""
        return await self.feeds.remove_feed(guild_id, feed_id)

    async def pending_notices(self, guild_id: int) -> list[PausedFeed]:
        """Feeds that paused since the admins last looked, once."""
        return await self.feeds.take_notices(guild_id)

    # -- `/feed` commands: the result with the feeds that paused since the admins looked -----

    async def follow(self, guild_id: int, query: str, channel_id: int | None,
                     created_by: int) -> Noticed[FeedAdded, PausedFeed]:
        """`/feed add`: `add`, with the pending pause notices (a `Refusal` for a query that
        is not one leaves them pending)."""
        canonical = canonical_query(query)
        notices = tuple(await self.pending_notices(guild_id))
        return Noticed(await self.add(guild_id, canonical, channel_id, created_by), notices)

    async def overview(self, guild_id: int) -> Noticed[list[Feed], PausedFeed]:
        """`/feed list`: the server's feeds, with the pending pause notices."""
        notices = tuple(await self.pending_notices(guild_id))
        return Noticed(await self.of_guild(guild_id), notices)

    async def unfollow(self, guild_id: int, feed_id: int) -> Noticed[Feed | None, PausedFeed]:
        """`/feed remove`: `remove`, with the pending pause notices."""
        notices = tuple(await self.pending_notices(guild_id))
        return Noticed(await self.remove(guild_id, feed_id), notices)

    # -- the scheduled turn -------------------------------------------------------------------

    async def tick(self) -> FeedTick:
        """Poll every due query (arXiv paces them one at a time), then send what is owed to
        the servers on this process's shards. Each query and each post is isolated."""
        polls = []
        for query in await self.feeds.due_queries(self.clock()):
            try:
                outcome = await self.poll(query)
            except Exception as exc:
                log.exception("polling feed query %r failed", query)
                outcome = PollOutcome(query, 0, error=Reason(ReasonCode.TEXT, {
                    "text": type(exc).__name__}))
            if outcome is not None:
                polls.append(outcome)
        return FeedTick(tuple(polls), tuple(await self.deliver()))

    async def poll(self, query: str) -> PollOutcome | None:
        """Poll one query if it is due (None when another tick or process has it)."""
        now = self.clock()
        claim = await self.feeds.claim_poll(query, now, now + self.poll_every)
        if claim is None:
            return None
        try:
            entries = await self._new_entries(claim)
        except ArxivError as exc:
            reason = (Reason(ReasonCode.ARXIV_REJECTED, {"text": exc.reason})
                      if isinstance(exc, ArxivRejected) else Reason(ReasonCode.ARXIV_BUSY))
            log.warning("feed query %r: %s (trying again at the next poll)", query, exc)
            await self.feeds.poll_failed(query, reason, self.clock())
            return PollOutcome(query, claim.number, error=reason)
        outcomes = await self.catalog.add_papers([e.to_paper() for e in entries],
                                                 source=FEED_SOURCE)
        # Seen either way; announced ("new in …") only when new to the catalog: a paper it had
        # already (another source, an older version) is found with /paper, not news.
        found = [(entry.ref.id, o.paper.id if o.status is AddStatus.ADDED else "")
                 for entry, o in zip(entries, outcomes, strict=True)]
        owed = await self.feeds.record_poll(query, claim.number, found, self.clock())
        added = sum(o.status is AddStatus.ADDED for o in outcomes)
        return PollOutcome(query, claim.number, len(entries), added, owed)

    async def _new_entries(self, claim: PollClaim) -> list[ArxivEntry]:
        """The query's papers newest first, page by page, up to the first one seen before
        (its first poll: only the newest few)."""
        limit = FIRST_POLL_PAPERS if claim.first else MAX_PAPERS_PER_POLL
        entries: list[ArxivEntry] = []
        start = 0
        while len(entries) < limit:
            size = min(POLL_PAGE, limit - len(entries))
            result = await self.arxiv.search(claim.query, max_results=size, start=start,
                                             sort_by=SortBy.SUBMITTED,
                                             sort_order=SortOrder.DESCENDING)
            page = [e for e in result.entries if e.ref.id not in {n.ref.id for n in entries}]
            seen = await self.feeds.seen_ids(claim.query, [e.ref.id for e in page])
            for entry in page:
                if entry.ref.id in seen:
                    return entries
                entries.append(entry)
            start += len(result.entries)
            if len(result.entries) < size or start >= result.total_results:
                break
        return entries[:limit]

    async def deliver(self) -> list[AnnounceOutcome]:
        """Send every open announcement of a server on this process's shards."""
        owned = [(feed_id, poll) for feed_id, poll, guild_id
                 in await self.feeds.open_announcements(self.clock())
                 if self.shards.owns(guild_id)]

        def failed(item: tuple[int, int], exc: Exception) -> AnnounceOutcome:
            log.exception("announcing feed %s poll %s failed", *item)
            return AnnounceOutcome(item[0], item[1], reason=Reason(ReasonCode.TEXT, {
                "text": type(exc).__name__}))

        done = await each_isolated(owned, self._concurrency,
                                   lambda item: self._announce(*item), failed)
        return [outcome for outcome in done if outcome is not None]

    async def _announce(self, feed_id: int, poll: int) -> AnnounceOutcome | None:
        claimed = await self.leases.hold(
            partial(self.feeds.claim_announcement, feed_id, poll))
        if claimed is None:
            return None  # another process has it, or it is done
        marker, nonce = announcement_marker(feed_id, poll), announcement_nonce(feed_id, poll)
        papers = tuple(p for p in [await self.papers.get(i) for i in claimed.paper_ids] if p)
        try:
            message_id = None
            if claimed.resumed:
                since = claimed.claimed_at - HISTORY_MARGIN
                async with self._pace:
                    if not await self._hold(feed_id, poll):
                        return None
                    message_id = await self.poster.find(claimed.channel_id, marker, nonce, since)
            if message_id is None and not papers:
                return await self._failed(claimed, Reason(ReasonCode.PAPER_LEFT_CATALOG))
            if message_id is None:
                post = FeedPost(claimed.guild_id, claimed.channel_id, claimed.query, papers,
                                marker)
                async with self._pace:
                    if not await self._hold(feed_id, poll):
                        log.info("feed %s poll %s was taken over by another process",
                                 feed_id, poll)
                        return None
                    message_id = await self.poster.send(post, nonce)
        except DeliveryFailed as exc:
            log.warning("feed %s poll %s: %s", feed_id, poll, exc.reason)
            if exc.retryable and exc.reason.code not in CHANNEL_PROBLEMS \
                    and claimed.attempt < MAX_ATTEMPTS:
                await self.feeds.release_announcement(feed_id, poll, self.leases.owner)
                return AnnounceOutcome(feed_id, poll, reason=exc.reason)
            return await self._failed(claimed, exc.reason)
        await self.feeds.mark_announced(feed_id, poll, message_id, self.clock())
        return AnnounceOutcome(feed_id, poll, message_id)

    async def _hold(self, feed_id: int, poll: int) -> bool:
        """Renew this process's lease on a claimed announcement before a Discord call (a slow
        answer must not let another process take the claim over while this one still sends);
        False once the claim is not ours any more: the new owner finishes it."""
        return await self.leases.hold(partial(self.feeds.hold_announcement, feed_id, poll))

    async def _failed(self, claimed: Announcement, reason: Reason) -> AnnounceOutcome:
        paused = await self.feeds.mark_announce_failed(
            claimed.feed_id, claimed.poll, reason, self.clock(),
            pause=reason.code in CHANNEL_PROBLEMS)
        return AnnounceOutcome(claimed.feed_id, claimed.poll, reason=reason, paused=paused)
