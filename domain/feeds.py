"""Feeds as plain data: a server's followed arXiv query, its polls and the announcement ledger."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from domain.nonce import nonce_of
from domain.reasons import Reason

MAX_FEEDS_PER_GUILD = 10
"""Feeds one server may follow (each distinct query costs a request to arXiv per poll)."""
FIRST_POLL_PAPERS = 10
"""A query's first poll takes its newest papers only, not arXiv's whole history."""
MAX_PAPERS_PER_POLL = 100
"""Later polls page (newest first) until a paper seen before, at most this many papers."""
POLL_PAGE = 25
"""Papers asked for per page while looking for the first one seen before."""
FORGOTTEN_MEMBER = 0
"""`Feed.created_by` of a feed whose starter asked `/forget-me` (no Discord id is 0)."""


class AnnouncementStatus(StrEnum):
    """A (feed, poll) row of the ledger: pending, claimed by a process, posted, or failed."""

    PENDING = "pending"
    CLAIMED = "claimed"
    POSTED = "posted"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Feed:
    """One server's feed: a canonical arXiv query, maybe a channel for "new in" posts."""

    id: int
    guild_id: int
    query: str
    channel_id: int | None
    created_by: int
    """Who started it (FORGOTTEN_MEMBER once they asked to be forgotten)."""
    created_at: datetime
    paused_reason: Reason | None = None
    last_polled_at: datetime | None = None
    last_error: Reason | None = None

    @property
    def active(self) -> bool:
        """Polled and announced (not paused)."""
        return self.paused_reason is None


class FeedAddStatus(StrEnum):
    """What `/feed add` did."""

    ADDED = "added"
    RESUMED = "resumed"
    DUPLICATE = "duplicate"
    LIMIT = "limit"


@dataclass(frozen=True, slots=True)
class FeedAdded:
    """The new or resumed feed, the existing one with that query (DUPLICATE), or None (LIMIT)."""

    status: FeedAddStatus
    feed: Feed | None = None


@dataclass(frozen=True, slots=True)
class PollClaim:
    """A query's poll, claimed by one process: its number, and whether it is the first."""

    query: str
    number: int
    first: bool


@dataclass(frozen=True, slots=True)
class Announcement:
    """A claimed "new in <feed>" post: what to list (public paper ids, newest first), where."""

    feed_id: int
    poll: int
    guild_id: int
    channel_id: int
    query: str
    paper_ids: tuple[str, ...]
    claimed_at: datetime
    attempt: int
    """1 for the first claim; later claims (a crash, a failure given back) look for the post
    in the channel before sending it."""

    @property
    def resumed(self) -> bool:
        """Claimed before: the post may be out already."""
        return self.attempt > 1


@dataclass(frozen=True, slots=True)
class PausedFeed:
    """A feed that paused, for the notice its server's admins have not seen yet."""

    feed_id: int
    query: str
    reason: Reason


def announcement_nonce(feed_id: int, poll: int) -> str:
    """The nonce of a (feed, poll) post: every retry of it carries the same one."""
    return nonce_of(f"feed:{feed_id}:{poll}")


def announcement_marker(feed_id: int, poll: int) -> str:
    """The footer that finds a (feed, poll) post in the channel's history again: short and in
    no language, as members read it too (`📡 #1.2`: feed 1, its second poll)."""
    return f"📡 #{feed_id}.{poll}"
