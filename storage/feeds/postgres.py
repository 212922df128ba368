"""Feeds on PostgreSQL: the same queries, polls, seen ids and announcement ledger as SQLite.

Claims are single conditional statements (`UPDATE … WHERE … RETURNING`, `INSERT … ON CONFLICT
DO NOTHING`): the row lock makes exactly one of any number of processes win. Adding a feed
takes a per-server advisory lock, so two admins at once never pass the server's limit."""

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
from storage.postgres.database import PgDatabase, rows_affected

_GUILD_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"


class PgFeedStore:
    """Feeds, poll schedules, seen ids and the announcement ledger (implements `FeedStore`)."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def add_feed(self, guild_id: int, query: str, channel_id: int | None,
                       created_by: int, now: datetime, *, limit: int) -> FeedAdded:
        """See `storage.feeds.sqlite.SqliteFeedStore.add_feed`."""
        async with self._db.transaction() as conn:
            await conn.execute(_GUILD_LOCK, f"feeds:{guild_id}")
            existing = await conn.fetchrow(
                "SELECT id, paused_reason FROM feeds WHERE guild_id = $1 AND query = $2",
                guild_id, query)
            if existing is not None and existing[1] is None:
                status = FeedAddStatus.DUPLICATE
            elif existing is not None:
                await conn.execute(
                    "UPDATE feeds SET channel_id = $1, paused_reason = NULL, notice_pending = 0 "
                    "WHERE id = $2", channel_id, existing[0])
                status = FeedAddStatus.RESUMED
            else:
                count = await conn.fetchval("SELECT count(*) FROM feeds WHERE guild_id = $1",
                                            guild_id)
                if count >= limit:
                    return FeedAdded(FeedAddStatus.LIMIT)
                await conn.execute(
                    "INSERT INTO feeds (guild_id, query, channel_id, created_by, created_at) "
                    "VALUES ($1, $2, $3, $4, $5)",
                    guild_id, query, channel_id, created_by, lease_instant(now))
                status = FeedAddStatus.ADDED
            await conn.execute(
                "INSERT INTO feed_queries (query, next_poll_at) VALUES ($1, $2) "
                "ON CONFLICT DO NOTHING", query, lease_instant(now))
            row = await conn.fetchrow(
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
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                f"SELECT {FEED_COLUMNS} FROM {FEED_FROM} WHERE f.guild_id = $1 AND f.id = $2",
                guild_id, feed_id)
            if row is None:
                return None
            await conn.execute("DELETE FROM feed_announcements WHERE feed_id = $1", feed_id)
            await conn.execute("DELETE FROM feeds WHERE id = $1", feed_id)
        return feed_from_row(row)

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the feeds they started (the feeds stay; `created_by`
        becomes FORGOTTEN_MEMBER); how many."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "UPDATE feeds SET created_by = $1 WHERE created_by = $2",
                FORGOTTEN_MEMBER, user_id))

    async def due_queries(self, now: datetime) -> list[str]:
        """Queries due for a poll that at least one active feed follows."""
        return [str(row[0]) for row in await self._db.fetch(
            "SELECT q.query FROM feed_queries q WHERE q.next_poll_at <= $1 AND EXISTS "
            "(SELECT 1 FROM feeds f WHERE f.query = q.query AND f.paused_reason IS NULL) "
            "ORDER BY q.next_poll_at, q.query", lease_instant(now))]

    async def claim_poll(self, query: str, now: datetime, next_at: datetime) -> PollClaim | None:
        """Take a due query's poll and schedule the next one, in one conditional UPDATE."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE feed_queries SET next_poll_at = $1, polls = polls + 1 "
                "WHERE query = $2 AND next_poll_at <= $3 RETURNING polls, "
                "NOT EXISTS (SELECT 1 FROM feed_seen s WHERE s.query = feed_queries.query)",
                lease_instant(next_at), query, lease_instant(now))
        return PollClaim(query, int(row[0]), bool(row[1])) if row else None

    async def seen_ids(self, query: str, arxiv_ids: Sequence[str]) -> set[str]:
        """Which of these arXiv ids the query has seen."""
        if not arxiv_ids:
            return set()
        return {str(row[0]) for row in await self._db.fetch(
            "SELECT arxiv_id FROM feed_seen WHERE query = $1 AND arxiv_id = ANY($2::text[])",
            query, list(arxiv_ids))}

    async def record_poll(self, query: str, poll: int, found: Sequence[tuple[str, str]],
                          now: datetime) -> int:
        """See `storage.feeds.sqlite.SqliteFeedStore.record_poll`."""
        async with self._db.transaction() as conn:
            fresh = []
            for arxiv_id, paper_id in found:
                if await conn.fetchval(
                        "INSERT INTO feed_seen (query, arxiv_id, poll) VALUES ($1, $2, $3) "
                        "ON CONFLICT DO NOTHING RETURNING arxiv_id", query, arxiv_id,
                        poll) and paper_id:
                    fresh.append(paper_id)
            await conn.execute(
                "UPDATE feed_queries SET last_polled_at = $1, last_error = NULL "
                "WHERE query = $2", lease_instant(now), query)
            if not fresh:
                return 0
            status = await conn.execute(
                "INSERT INTO feed_announcements (feed_id, poll, guild_id, channel_id, query, "
                "paper_ids, status, created_at) SELECT id, $1, guild_id, channel_id, query, $2, "
                "$3, $4 FROM feeds WHERE query = $5 AND paused_reason IS NULL "
                "AND channel_id IS NOT NULL ON CONFLICT DO NOTHING",
                poll, json.dumps(fresh), AnnouncementStatus.PENDING.value, lease_instant(now),
                query)
            return rows_affected(status)

    async def poll_failed(self, query: str, reason: Reason, now: datetime) -> None:
        """Why a poll found nothing (arXiv busy…): shown in `/feed list`."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_queries SET last_polled_at = $1, last_error = $2 WHERE query = $3",
                lease_instant(now), reason.encode(), query)

    async def open_announcements(self, now: datetime) -> list[tuple[int, int, int]]:
        """(feed, poll, server) of pending announcements and of claims whose lease expired."""
        return [(int(r[0]), int(r[1]), int(r[2])) for r in await self._db.fetch(
            "SELECT feed_id, poll, guild_id FROM feed_announcements WHERE status = $1 "
            "OR (status = $2 AND lease_until <= $3) ORDER BY poll, feed_id",
            AnnouncementStatus.PENDING.value, AnnouncementStatus.CLAIMED.value,
            lease_instant(now))]

    async def claim_announcement(self, feed_id: int, poll: int, lease: Lease,
                                 now: datetime) -> Announcement | None:
        """Claim an open announcement for `lease.owner`, in one conditional UPDATE."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE feed_announcements SET status = $1, claims = claims + 1, owner = $2, "
                "lease_until = $3, claimed_at = coalesce(claimed_at, $4) "
                "WHERE feed_id = $5 AND poll = $6 AND (status = $7 OR (status = $1 AND "
                f"lease_until <= $4)) RETURNING {ANNOUNCEMENT_COLUMNS}",
                AnnouncementStatus.CLAIMED.value, lease.owner, lease_instant(lease.until),
                lease_instant(now), feed_id, poll, AnnouncementStatus.PENDING.value)
        return announcement_from_row(row) if row else None

    async def hold_announcement(self, feed_id: int, poll: int, lease: Lease,
                                now: datetime) -> bool:
        """Take or renew the lease on a claimed announcement, in one conditional UPDATE."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "UPDATE feed_announcements SET owner = $1, lease_until = $2 "
                "WHERE feed_id = $3 AND poll = $4 AND status = $5 "
                "AND (owner = $1 OR lease_until IS NULL OR lease_until <= $6)",
                lease.owner, lease_instant(lease.until), feed_id, poll,
                AnnouncementStatus.CLAIMED.value, lease_instant(now))) > 0

    async def mark_announced(self, feed_id: int, poll: int, message_id: int,
                             now: datetime) -> None:
        """Record the sent post."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_announcements SET status = $1, message_id = $2, finished_at = $3, "
                "owner = NULL, lease_until = NULL WHERE feed_id = $4 AND poll = $5",
                AnnouncementStatus.POSTED.value, message_id, lease_instant(now), feed_id, poll)

    async def release_announcement(self, feed_id: int, poll: int) -> None:
        """Give a claim back (a transient failure): the next tick tries again."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_announcements SET status = $1, owner = NULL, lease_until = NULL "
                "WHERE feed_id = $2 AND poll = $3 AND status = $4",
                AnnouncementStatus.PENDING.value, feed_id, poll,
                AnnouncementStatus.CLAIMED.value)

    async def mark_announce_failed(self, feed_id: int, poll: int, reason: Reason,
                                   now: datetime, *, pause: bool) -> bool:
        """See `storage.feeds.sqlite.SqliteFeedStore.mark_announce_failed`."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE feed_announcements SET status = $1, reason = $2, finished_at = $3, "
                "owner = NULL, lease_until = NULL WHERE feed_id = $4 AND poll = $5",
                AnnouncementStatus.FAILED.value, reason.encode(), lease_instant(now), feed_id,
                poll)
            if not pause:
                return False
            status = await conn.execute(
                "UPDATE feeds SET paused_reason = $1, notice_pending = 1 "
                "WHERE id = $2 AND paused_reason IS NULL", encoded(reason), feed_id)
            return rows_affected(status) > 0

    async def take_notices(self, guild_id: int) -> list[PausedFeed]:
        """Paused feeds the server's admins have not been told about, marked told at once."""
        async with self._db.transaction() as conn:
            rows = await conn.fetch(
                "UPDATE feeds SET notice_pending = 0 WHERE guild_id = $1 AND notice_pending = 1 "
                "RETURNING id, query, paused_reason", guild_id)
        return sorted((paused_from_row(r) for r in rows if r[2]), key=lambda p: p.feed_id)
