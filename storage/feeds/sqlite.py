"""Feeds on SQLite: servers' followed arXiv queries, one poll schedule per distinct query, the
arXiv ids each query has seen, and the (feed, poll) announcement ledger.

A query's poll is claimed with one conditional UPDATE (of two processes or two ticks, one gets
it); what a poll found is recorded, and every announcement it owes created, in one transaction;
an announcement is claimed with one conditional UPDATE, leased, before anything is sent."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from domain.digest import Lease
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
from domain.reasons import Reason
from storage.digest.rows import encoded, lease_instant
from storage.feeds.rows import (
    ANNOUNCEMENT_COLUMNS,
    FEED_COLUMNS,
    FEED_FROM,
    announcement_from_row,
    feed_from_row,
    paused_from_row,
)
from storage.sqlite.database import Database


class SqliteFeedStore:
    """Feeds, poll schedules, seen ids and the announcement ledger (implements `FeedStore`)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def add_feed(self, guild_id: int, query: str, channel_id: int | None,
                       created_by: int, now: datetime, *, limit: int) -> FeedAdded:
        """Follow a canonical query: a paused feed with that query resumes (with this channel),
        an active one is a DUPLICATE, a server with `limit` feeds is refused (LIMIT)."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                    "SELECT id, paused_reason FROM feeds WHERE guild_id = ? AND query = ?",
                    (guild_id, query)) as cursor:
                existing = await cursor.fetchone()
            if existing is not None and existing[1] is None:
                status = FeedAddStatus.DUPLICATE
            elif existing is not None:
                await conn.execute(
                    "UPDATE feeds SET channel_id = ?, paused_reason = NULL, notice_pending = 0 "
                    "WHERE id = ?", (channel_id, existing[0]))
                status = FeedAddStatus.RESUMED
            else:
                async with conn.execute("SELECT count(*) FROM feeds WHERE guild_id = ?",
                                        (guild_id,)) as cursor:
                    count = (await cursor.fetchone() or (0,))[0]
                if count >= limit:
                    return FeedAdded(FeedAddStatus.LIMIT)
                await conn.execute(
                    "INSERT INTO feeds (guild_id, query, channel_id, created_by, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (guild_id, query, channel_id, created_by, lease_instant(now)))
                status = FeedAddStatus.ADDED
            await conn.execute(
                "INSERT INTO feed_queries (query, next_poll_at) VALUES (?, ?) "
                "ON CONFLICT DO NOTHING", (query, lease_instant(now)))
            async with conn.execute(
                    f"SELECT {FEED_COLUMNS} FROM {FEED_FROM} "
                    "WHERE f.guild_id = ? AND f.query = ?", (guild_id, query)) as cursor:
                row = await cursor.fetchone()
        return FeedAdded(status, feed_from_row(row) if row else None)

    async def feeds(self, guild_id: int) -> list[Feed]:
        """A server's feeds, oldest first."""
        return [feed_from_row(row) for row in await self._db.fetchall(
            f"SELECT {FEED_COLUMNS} FROM {FEED_FROM} WHERE f.guild_id = ? ORDER BY f.id",
            (guild_id,))]

    async def remove_feed(self, guild_id: int, feed_id: int) -> Feed | None:
        """Stop following (its unsent announcements go too); None if it is not the server's."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                    f"SELECT {FEED_COLUMNS} FROM {FEED_FROM} WHERE f.guild_id = ? AND f.id = ?",
                    (guild_id, feed_id)) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            await conn.execute("DELETE FROM feed_announcements WHERE feed_id = ?", (feed_id,))
            await conn.execute("DELETE FROM feeds WHERE id = ?", (feed_id,))
        return feed_from_row(row)

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the feeds they started (the feeds stay; `created_by`
        becomes FORGOTTEN_MEMBER); how many."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("UPDATE feeds SET created_by = ? WHERE created_by = ?",
                                        (FORGOTTEN_MEMBER, user_id))
            return cursor.rowcount

    async def due_queries(self, now: datetime) -> list[str]:
        """Queries due for a poll that at least one active feed follows."""
        return [str(row[0]) for row in await self._db.fetchall(
            "SELECT q.query FROM feed_queries q WHERE q.next_poll_at <= ? AND EXISTS "
            "(SELECT 1 FROM feeds f WHERE f.query = q.query AND f.paused_reason IS NULL) "
            "ORDER BY q.next_poll_at, q.query", (lease_instant(now),))]

    async def claim_poll(self, query: str, now: datetime, next_at: datetime) -> PollClaim | None:
        """Take a due query's poll and schedule the next one, in one conditional UPDATE; None
        when it is not due (another process or tick took it)."""
        async with self._db.transaction() as conn, conn.execute(
                "UPDATE feed_queries SET next_poll_at = ?, polls = polls + 1 "
                "WHERE query = ? AND next_poll_at <= ? RETURNING polls, "
                "NOT EXISTS (SELECT 1 FROM feed_seen s WHERE s.query = feed_queries.query)",
                (lease_instant(next_at), query, lease_instant(now))) as cursor:
            row = await cursor.fetchone()
        return PollClaim(query, int(row[0]), bool(row[1])) if row else None

    async def seen_ids(self, query: str, arxiv_ids: Sequence[str]) -> set[str]:
        """Which of these arXiv ids the query has seen."""
        if not arxiv_ids:
            return set()
        marks = ", ".join("?" for _ in arxiv_ids)
        return {str(row[0]) for row in await self._db.fetchall(
            f"SELECT arxiv_id FROM feed_seen WHERE query = ? AND arxiv_id IN ({marks})",
            (query, *arxiv_ids))}

    async def record_poll(self, query: str, poll: int, found: Sequence[tuple[str, str]],
                          now: datetime) -> int:
        """What a poll found, (arXiv id, paper id) newest first: the ids not seen before are
        marked seen and owed, in the same transaction, to every active feed of the query with
        a channel (one announcement each). Returns the announcements created."""
        async with self._db.transaction() as conn:
            fresh = []
            for arxiv_id, paper_id in found:
                async with conn.execute(
                        "INSERT INTO feed_seen (query, arxiv_id, poll) VALUES (?, ?, ?) "
                        "ON CONFLICT DO NOTHING RETURNING arxiv_id",
                        (query, arxiv_id, poll)) as cursor:
                    if await cursor.fetchone() is not None and paper_id:
                        fresh.append(paper_id)
            await conn.execute(
                "UPDATE feed_queries SET last_polled_at = ?, last_error = NULL WHERE query = ?",
                (lease_instant(now), query))
            if not fresh:
                return 0
            before = conn.total_changes
            await conn.execute(
                "INSERT INTO feed_announcements (feed_id, poll, guild_id, channel_id, query, "
                "paper_ids, status, created_at) SELECT id, ?, guild_id, channel_id, query, ?, ?, ? "
                "FROM feeds WHERE query = ? AND paused_reason IS NULL AND channel_id IS NOT NULL "
                "ON CONFLICT DO NOTHING",
                (poll, json.dumps(fresh), AnnouncementStatus.PENDING, lease_instant(now),
                 query))
            return conn.total_changes - before

    async def poll_failed(self, query: str, reason: Reason, now: datetime) -> None:
        """Why a poll found nothing (arXiv busy…): shown in `/feed list`."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_queries SET last_polled_at = ?, last_error = ? WHERE query = ?",
                (lease_instant(now), reason.encode(), query))

    async def open_announcements(self, now: datetime) -> list[tuple[int, int, int]]:
        """(feed, poll, server) of announcements to send: pending, or claimed by a process
        whose lease has expired."""
        return [(int(r[0]), int(r[1]), int(r[2])) for r in await self._db.fetchall(
            "SELECT feed_id, poll, guild_id FROM feed_announcements WHERE status = ? "
            "OR (status = ? AND lease_until <= ?) ORDER BY poll, feed_id",
            (AnnouncementStatus.PENDING, AnnouncementStatus.CLAIMED, lease_instant(now)))]

    async def claim_announcement(self, feed_id: int, poll: int, lease: Lease,
                                 now: datetime) -> Announcement | None:
        """Claim an open announcement for `lease.owner`, in one conditional UPDATE; None when
        another process holds it or it is finished."""
        async with self._db.transaction() as conn, conn.execute(
                "UPDATE feed_announcements SET status = ?, claims = claims + 1, owner = ?, "
                "lease_until = ?, claimed_at = coalesce(claimed_at, ?) "
                "WHERE feed_id = ? AND poll = ? AND (status = ? OR (status = ? AND "
                f"lease_until <= ?)) RETURNING {ANNOUNCEMENT_COLUMNS}",
                (AnnouncementStatus.CLAIMED, lease.owner, lease_instant(lease.until),
                 lease_instant(now), feed_id, poll, AnnouncementStatus.PENDING,
                 AnnouncementStatus.CLAIMED, lease_instant(now))) as cursor:
            row = await cursor.fetchone()
        return announcement_from_row(row) if row else None

    async def hold_announcement(self, feed_id: int, poll: int, lease: Lease,
                                now: datetime) -> bool:
        """Take or renew the lease on a claimed announcement, in one conditional UPDATE: True
        when it is now `lease.owner`'s, False when it is no longer claimed or another owner's
        lease is live at `now`."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE feed_announcements SET owner = ?, lease_until = ? "
                "WHERE feed_id = ? AND poll = ? AND status = ? "
                "AND (owner = ? OR lease_until IS NULL OR lease_until <= ?)",
                (lease.owner, lease_instant(lease.until), feed_id, poll,
                 AnnouncementStatus.CLAIMED, lease.owner, lease_instant(now)))
            return cursor.rowcount > 0

    async def mark_announced(self, feed_id: int, poll: int, message_id: int,
                             now: datetime) -> None:
        """Record the sent post."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_announcements SET status = ?, message_id = ?, finished_at = ?, "
                "owner = NULL, lease_until = NULL WHERE feed_id = ? AND poll = ?",
                (AnnouncementStatus.POSTED, message_id, lease_instant(now), feed_id, poll))

    async def release_announcement(self, feed_id: int, poll: int) -> None:
        """Give a claim back (a transient failure): the next tick tries again."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_announcements SET status = ?, owner = NULL, lease_until = NULL "
                "WHERE feed_id = ? AND poll = ? AND status = ?",
                (AnnouncementStatus.PENDING, feed_id, poll, AnnouncementStatus.CLAIMED))

    async def mark_announce_failed(self, feed_id: int, poll: int, reason: Reason,
                                   now: datetime, *, pause: bool) -> bool:
        """Record a post that will not be sent; with `pause`, the feed pauses and its admins
        are owed a notice. True when this paused the feed."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_announcements SET status = ?, reason = ?, finished_at = ?, "
                "owner = NULL, lease_until = NULL WHERE feed_id = ? AND poll = ?",
                (AnnouncementStatus.FAILED, reason.encode(), lease_instant(now), feed_id,
                 poll))
            if not pause:
                return False
            cursor = await conn.execute(
                "UPDATE feeds SET paused_reason = ?, notice_pending = 1 "
                "WHERE id = ? AND paused_reason IS NULL", (encoded(reason), feed_id))
            return cursor.rowcount > 0

    async def take_notices(self, guild_id: int) -> list[PausedFeed]:
        """Paused feeds the server's admins have not been told about; marks them told in one
        conditional UPDATE (two processes never both tell)."""
        async with self._db.transaction() as conn, conn.execute(
                "UPDATE feeds SET notice_pending = 0 WHERE guild_id = ? AND notice_pending = 1 "
                "RETURNING id, query, paused_reason", (guild_id,)) as cursor:
            rows = await cursor.fetchall()
        return sorted((paused_from_row(r) for r in rows if r[2]), key=lambda p: p.feed_id)
