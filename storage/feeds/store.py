"""Feeds: servers' followed arXiv queries, one poll schedule per distinct query, the arXiv ids
each query has seen, and the (feed, poll) announcement ledger.

Claims are single conditional statements (`UPDATE … WHERE … RETURNING`, `INSERT … ON CONFLICT
DO NOTHING`): of any number of processes or ticks, exactly one wins. What a poll found is
recorded, and every announcement it owes created, in one transaction. Adding a feed holds a
per-server lock, so two admins at once never pass the server's limit."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from domain.feeds import (
    FORGOTTEN_MEMBER,
    Announcement,
    AnnouncementStatus,
    Feed,
    FeedAdded,
    FeedAddStatus,
    PausedFeed,
    PollClaim,
)
from domain.leases import Lease
from domain.reasons import Reason
from storage.db import Store
from storage.digest.rows import encoded
from storage.feeds.rows import (
    ANNOUNCEMENT_COLUMNS,
    FEED_COLUMNS,
    FEED_FROM,
    announcement_from_row,
    feed_from_row,
    paused_from_row,
)
from storage.times import stored


class FeedStore(Store):
    """Feeds, poll schedules, seen ids and the announcement ledger (implements `FeedStore`)."""

    async def add_feed(self, guild_id: int, query: str, channel_id: int | None,
                       created_by: int, now: datetime, *, limit: int) -> FeedAdded:
        """Follow a canonical query: a paused feed with that query resumes (with this channel),
        an active one is a DUPLICATE, a server with `limit` feeds is refused (LIMIT)."""
        async with self._db.transaction() as tx:
            await tx.lock(f"feeds:{guild_id}")
            existing = await tx.fetch_one(
                "SELECT id, paused_reason FROM feeds WHERE guild_id = $1 AND query = $2",
                guild_id, query)
            if existing is not None and existing[1] is None:
                status = FeedAddStatus.DUPLICATE
            elif existing is not None:
                await tx.execute(
                    "UPDATE feeds SET channel_id = $1, paused_reason = NULL, notice_pending = 0 "
                    "WHERE id = $2", channel_id, existing[0])
                status = FeedAddStatus.RESUMED
            else:
                count = await tx.fetch_value("SELECT count(*) FROM feeds WHERE guild_id = $1",
                                            guild_id)
                if count >= limit:
                    return FeedAdded(FeedAddStatus.LIMIT)
                await tx.execute(
                    "INSERT INTO feeds (guild_id, query, channel_id, created_by, created_at) "
                    "VALUES ($1, $2, $3, $4, $5)",
                    guild_id, query, channel_id, created_by, stored(now))
                status = FeedAddStatus.ADDED
            await tx.execute(
                "INSERT INTO feed_queries (query, next_poll_at) VALUES ($1, $2) "
                "ON CONFLICT DO NOTHING", query, stored(now))
            row = await tx.fetch_one(
                f"SELECT {FEED_COLUMNS} FROM {FEED_FROM} WHERE f.guild_id = $1 AND f.query = $2",
                guild_id, query)
        return FeedAdded(status, feed_from_row(row) if row else None)

    async def feeds(self, guild_id: int) -> list[Feed]:
        """A server's feeds, oldest first."""
        return [feed_from_row(row) for row in await self._db.fetch(
            f"SELECT {FEED_COLUMNS} FROM {FEED_FROM} WHERE f.guild_id = $1 ORDER BY f.id",
            guild_id)]

    async def remove_feed(self, guild_id: int, feed_id: int) -> Feed | None:
        """Stop following (its unsent announcements go too); None if it is not the server's."""
        async with self._db.transaction() as tx:
            row = await tx.fetch_one(
                f"SELECT {FEED_COLUMNS} FROM {FEED_FROM} WHERE f.guild_id = $1 AND f.id = $2",
                guild_id, feed_id)
            if row is None:
                return None
            await tx.execute("DELETE FROM feed_announcements WHERE feed_id = $1", feed_id)
            await tx.execute("DELETE FROM feeds WHERE id = $1", feed_id)
        return feed_from_row(row)

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the feeds they started (the feeds stay; `created_by`
        becomes FORGOTTEN_MEMBER); how many."""
        return await self._db.execute(
            "UPDATE feeds SET created_by = $1 WHERE created_by = $2",
            FORGOTTEN_MEMBER, user_id)

    async def due_queries(self, now: datetime) -> list[str]:
        """Queries due for a poll that at least one active feed follows."""
        return [str(row[0]) for row in await self._db.fetch(
            "SELECT q.query FROM feed_queries q WHERE q.next_poll_at <= $1 AND EXISTS "
            "(SELECT 1 FROM feeds f WHERE f.query = q.query AND f.paused_reason IS NULL) "
            "ORDER BY q.next_poll_at, q.query", stored(now))]

    async def claim_poll(self, query: str, now: datetime, next_at: datetime) -> PollClaim | None:
        """Take a due query's poll and schedule the next one, in one conditional UPDATE; None
        when it is not due (another process or tick took it)."""
        row = await self._db.returning_one(
            "UPDATE feed_queries SET next_poll_at = $1, polls = polls + 1 "
            "WHERE query = $2 AND next_poll_at <= $3 RETURNING polls, "
            "NOT EXISTS (SELECT 1 FROM feed_seen s WHERE s.query = feed_queries.query)",
            stored(next_at), query, stored(now))
        return PollClaim(query, int(row[0]), bool(row[1])) if row else None

    async def seen_ids(self, query: str, arxiv_ids: Sequence[str]) -> set[str]:
        """Which of these arXiv ids the query has seen."""
        if not arxiv_ids:
            return set()
        return {str(row[0]) for row in await self._db.fetch(
            "SELECT arxiv_id FROM feed_seen WHERE query = $1 "
            f"AND arxiv_id {self._dialect.in_array('$2')}", query,
            self._dialect.array(arxiv_ids))}

    async def record_poll(self, query: str, poll: int, found: Sequence[tuple[str, str]],
                          now: datetime) -> int:
        """What a poll found, (arXiv id, paper id) newest first: the ids not seen before are
        marked seen and owed, in the same transaction, to every active feed of the query with
        a channel (one announcement each). Returns the announcements created."""
        async with self._db.transaction() as tx:
            fresh = []
            for arxiv_id, paper_id in found:
                if await tx.fetch_value(
                        "INSERT INTO feed_seen (query, arxiv_id, poll) VALUES ($1, $2, $3) "
                        "ON CONFLICT DO NOTHING RETURNING arxiv_id", query, arxiv_id,
                        poll) and paper_id:
                    fresh.append(paper_id)
            await tx.execute(
                "UPDATE feed_queries SET last_polled_at = $1, last_error = NULL "
                "WHERE query = $2", stored(now), query)
            if not fresh:
                return 0
            return await tx.execute(
                "INSERT INTO feed_announcements (feed_id, poll, guild_id, channel_id, query, "
                "paper_ids, status, created_at) SELECT id, $1, guild_id, channel_id, query, $2, "
                "$3, $4 FROM feeds WHERE query = $5 AND paused_reason IS NULL "
                "AND channel_id IS NOT NULL ON CONFLICT DO NOTHING",
                poll, json.dumps(fresh), AnnouncementStatus.PENDING.value, stored(now),
                query)

    async def poll_failed(self, query: str, reason: Reason, now: datetime) -> None:
        """Why a poll found nothing (arXiv busy…): shown in `/feed list`."""
        await self._db.execute(
            "UPDATE feed_queries SET last_polled_at = $1, last_error = $2 WHERE query = $3",
            stored(now), reason.encode(), query)

    async def open_announcements(self, now: datetime) -> list[tuple[int, int, int]]:
        """(feed, poll, server) of announcements to send: pending, or claimed by a process
        whose lease has expired."""
        return [(int(r[0]), int(r[1]), int(r[2])) for r in await self._db.fetch(
            "SELECT feed_id, poll, guild_id FROM feed_announcements WHERE status = $1 "
            "OR (status = $2 AND lease_until <= $3) ORDER BY poll, feed_id",
            AnnouncementStatus.PENDING.value, AnnouncementStatus.CLAIMED.value,
            stored(now))]

    async def claim_announcement(self, feed_id: int, poll: int, lease: Lease,
                                 now: datetime) -> Announcement | None:
        """Claim an open announcement for `lease.owner`, in one conditional UPDATE; None when
        another process holds it or it is finished."""
        row = await self._db.returning_one(
            "UPDATE feed_announcements SET status = $1, claims = claims + 1, owner = $2, "
            "lease_until = $3, claimed_at = coalesce(claimed_at, $4) "
            "WHERE feed_id = $5 AND poll = $6 AND (status = $7 OR (status = $1 AND "
            f"lease_until <= $4)) RETURNING {ANNOUNCEMENT_COLUMNS}",
            AnnouncementStatus.CLAIMED.value, lease.owner, stored(lease.until),
            stored(now), feed_id, poll, AnnouncementStatus.PENDING.value)
        return announcement_from_row(row) if row else None

    async def hold_announcement(self, feed_id: int, poll: int, lease: Lease,
                                now: datetime) -> bool:
        """Take or renew the lease on a claimed announcement, in one conditional UPDATE: True
        when it is now `lease.owner`'s, False when it is no longer claimed or another owner's
        lease is live at `now`."""
        return await self._db.execute(
            "UPDATE feed_announcements SET owner = $1, lease_until = $2 "
            "WHERE feed_id = $3 AND poll = $4 AND status = $5 "
            "AND (owner = $1 OR lease_until IS NULL OR lease_until <= $6)",
            lease.owner, stored(lease.until), feed_id, poll,
            AnnouncementStatus.CLAIMED.value, stored(now)) > 0

    async def mark_announced(self, feed_id: int, poll: int, message_id: int,
                             now: datetime) -> None:
        """Record the sent post."""
        await self._db.execute(
            "UPDATE feed_announcements SET status = $1, message_id = $2, finished_at = $3, "
            "owner = NULL, lease_until = NULL WHERE feed_id = $4 AND poll = $5",
            AnnouncementStatus.POSTED.value, message_id, stored(now), feed_id, poll)

    async def release_announcement(self, feed_id: int, poll: int, owner: str) -> None:
        """Give `owner`'s claim back (a transient failure): the next tick tries again. A claim
        another process took over (this one's lease ran out) stays that process's."""
        await self._db.execute(
            "UPDATE feed_announcements SET status = $1, owner = NULL, lease_until = NULL "
            "WHERE feed_id = $2 AND poll = $3 AND status = $4 AND owner = $5",
            AnnouncementStatus.PENDING.value, feed_id, poll,
            AnnouncementStatus.CLAIMED.value, owner)

    async def mark_announce_failed(self, feed_id: int, poll: int, reason: Reason,
                                   now: datetime, *, pause: bool) -> bool:
        """Record a post that will not be sent; with `pause`, the feed pauses and its admins
        are owed a notice. True when this paused the feed. A post another process made (this
        one's lease ran out while it waited) stays posted, and the feed is not paused."""
        async with self._db.transaction() as tx:
            failed = await tx.execute(
                "UPDATE feed_announcements SET status = $1, reason = $2, finished_at = $3, "
                "owner = NULL, lease_until = NULL WHERE feed_id = $4 AND poll = $5 "
                "AND status <> $6",
                AnnouncementStatus.FAILED.value, reason.encode(), stored(now), feed_id,
                poll, AnnouncementStatus.POSTED.value)
            if not (pause and failed):
                return False
            return await tx.execute(
                "UPDATE feeds SET paused_reason = $1, notice_pending = 1 "
                "WHERE id = $2 AND paused_reason IS NULL", encoded(reason), feed_id) > 0

    async def take_notices(self, guild_id: int) -> list[PausedFeed]:
        """Paused feeds the server's admins have not been told about; marks them told in one
        conditional UPDATE (two processes never both tell)."""
        rows = await self._db.returning(
            "UPDATE feeds SET notice_pending = 0 WHERE guild_id = $1 AND notice_pending = 1 "
            "RETURNING id, query, paused_reason", guild_id)
        return sorted((paused_from_row(r) for r in rows if r[2]), key=lambda p: p.feed_id)
