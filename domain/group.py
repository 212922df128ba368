"""The reading group's own records: the suggestion queue, bookmarks, what was discussed, and
what `/forget-me` erased. Votes live in `vote_types`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

NOTE_LIMIT = 300
"""Characters kept of a suggestion's note (the command refuses longer ones)."""


class SuggestOutcome(StrEnum):
    """What `/suggest` did."""

    ADDED = "added"
    SUPPORTED = "supported"
    ALREADY = "already"


class RemoveOutcome(StrEnum):
    """What `/queue remove` did."""

    REMOVED = "removed"
    WITHDRAWN = "withdrawn"
    NOT_ALLOWED = "not_allowed"
    NOT_QUEUED = "not_queued"


@dataclass(frozen=True, slots=True)
class Supporter:
    """One member behind a queued paper (None once they asked to be forgotten)."""

    user_id: int | None
    note: str
    at: datetime


@dataclass(frozen=True, slots=True)
class QueueItem:
    """A queued paper with everyone who suggested it, first suggester first."""

    guild_id: int
    paper_id: str
    supporters: tuple[Supporter, ...]

    @property
    def suggested_by(self) -> int | None:
        """Who suggested it first."""
        return self.supporters[0].user_id

    @property
    def suggested_at(self) -> datetime:
        """When it was first suggested."""
        return self.supporters[0].at

    @property
    def support(self) -> int:
        """How many members want to read it."""
        return len(self.supporters)


def queue_order(items: list[QueueItem]) -> list[QueueItem]:
    """Most supported first, then oldest, then by paper id (deterministic)."""
    return sorted(items, key=lambda i: (-i.support, i.suggested_at, i.paper_id))


@dataclass(frozen=True, slots=True)
class Bookmark:
    """A paper on one member's reading list in one server."""

    guild_id: int
    user_id: int
    paper_id: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Discussed:
    """A paper the group discussed: when, who presented, notes, the discussion thread."""

    guild_id: int
    paper_id: str
    when: datetime
    presenter_id: int | None
    notes: str
    thread_id: int | None


class ErasedKind(StrEnum):
    """Kinds of records `/forget-me` erases or anonymises."""

    SUBSCRIPTIONS = "subscriptions"
    NOTIFICATIONS = "notifications"
    BOOKMARKS = "bookmarks"
    SUGGESTIONS = "suggestions"
    BALLOTS = "ballots"
    PRESENTATIONS = "presentations"
    FEEDS = "feeds"
    RATINGS = "ratings"
    """👍 / 👎 on papers (recommendations)."""
    CORRECTIONS = "corrections"
    """Corrections proposed or decided (the name is removed; the correction stays)."""


Erased = dict[ErasedKind, int]
"""How many records of each kind were erased (or anonymised)."""
