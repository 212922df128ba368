"""The arXiv feeds' store. The protocol is what the feature's services depend on; `storage/`
implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from domain.feeds import Announcement, Feed, FeedAdded, PausedFeed, PollClaim
from domain.leases import Lease
from domain.reasons import Reason


class FeedStore(Protocol):
    """Servers' arXiv feeds, one poll schedule per distinct query, the ids each query has seen
    and the exactly-once (feed, poll) announcement ledger."""

    async def add_feed(self, guild_id: int, query: str, channel_id: int | None,
                       created_by: int, now: datetime, *, limit: int) -> FeedAdded:
        """Follow a canonical query (due for a poll at once if new); a paused feed with that
        query resumes, an active one is a duplicate; at most `limit` feeds a server."""
        ...

    async def feeds(self, guild_id: int) -> list[Feed]:
        """A server's feeds, oldest first, with their query's last poll."""
        ...

    async def remove_feed(self, guild_id: int, feed_id: int) -> Feed | None:
        """Stop following; None if the feed is not the server's."""
        ...

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the feeds they started; how many."""
        ...

    async def due_queries(self, now: datetime) -> list[str]:
        """Queries due for a poll that at least one active feed follows."""
        ...

    async def claim_poll(self, query: str, now: datetime, next_at: datetime) -> PollClaim | None:
        """Take a due query's poll and schedule the next at `next_at`, in one atomic
        statement; None when it is not due (another process or tick took it)."""
        ...

    async def seen_ids(self, query: str, arxiv_ids: Sequence[str]) -> set[str]:
        """Which of these arXiv ids the query has seen."""
        ...

    async def record_poll(self, query: str, poll: int, found: Sequence[tuple[str, str]],
                          now: datetime) -> int:
        """Mark (arXiv id, paper id) pairs seen, newest first, and, in the same transaction,
        owe the ones not seen before to every active feed of the query with a channel (one
        announcement per feed and poll). Returns the announcements created."""
        ...

    async def poll_failed(self, query: str, reason: Reason, now: datetime) -> None:
        """Record why a poll found nothing."""
        ...

    async def open_announcements(self, now: datetime) -> list[tuple[int, int, int]]:
        """(feed, poll, server) of pending announcements and of claims whose lease expired."""
        ...

    async def claim_announcement(self, feed_id: int, poll: int, lease: Lease,
                                 now: datetime) -> Announcement | None:
        """Claim an open announcement in one atomic statement; None if another holds it."""
        ...

    async def hold_announcement(self, feed_id: int, poll: int, lease: Lease,
                                now: datetime) -> bool:
        """Take or renew the lease on a claimed announcement: True when it is now
        `lease.owner`'s, False when it is no longer claimed or another owner's lease is live
        at `now`."""
        ...

    async def mark_announced(self, feed_id: int, poll: int, message_id: int,
                             now: datetime) -> None:
        """Record the sent post, whoever holds the claim now: the post exists (a process that
        took the claim over looks for it by its marker before sending, and sends under the
        same nonce, which Discord keeps to one message for a few minutes)."""
        ...

    async def release_announcement(self, feed_id: int, poll: int, owner: str) -> None:
        """Give `owner`'s claim back after a transient failure (tried again at the next tick);
        nothing when the announcement is not claimed or another owner took the claim over."""
        ...

    async def mark_announce_failed(self, feed_id: int, poll: int, reason: Reason,
                                   now: datetime, *, pause: bool) -> bool:
        """Record a post that will not be sent; `pause` pauses the feed and owes its admins
        a notice. True when this paused it."""
        ...

    async def take_notices(self, guild_id: int) -> list[PausedFeed]:
        """Paused feeds the admins have not heard of, marked told in one atomic statement."""
        ...
