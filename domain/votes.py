"""A vote on the next paper: its options (a snapshot of the queue), status and ballots."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from domain.polls import VoteStyle
from domain.reasons import Reason

MAX_OPTIONS = 10
MIN_OPTIONS = 2
MAX_HOURS = 32 * 24
DEFAULT_HOURS = 24
DEFAULT_OPTIONS = 5


class VoteStatus(StrEnum):
    """`open` → `claimed` (the close is being announced) → `announced`, or `failed`."""

    OPEN = "open"
    CLAIMED = "claimed"
    ANNOUNCED = "announced"
    FAILED = "failed"


class BallotOutcome(StrEnum):
    """What a click on a vote button did."""

    CAST = "cast"
    CHANGED = "changed"
    SAME = "same"
    CLOSED = "closed"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class VoteOption:
    """One paper on the ballot, with its queue support and age when the vote opened."""

    position: int
    paper_id: str
    support: int
    suggested_at: datetime


@dataclass(frozen=True, slots=True)
class Vote:
    """One vote in one server."""

    id: int
    guild_id: int
    channel_id: int
    created_by: int | None
    opened_at: datetime
    ends_at: datetime
    status: VoteStatus
    options: tuple[VoteOption, ...]
    message_id: int | None = None
    winner: str | None = None
    nonce: str | None = None
    closed_early: bool = False
    announcement_id: int | None = None
    reason: Reason | None = None
    claimed_at: datetime | None = None
    """When the close was claimed: the resumed announcement searches the channel since."""
    style: VoteStyle = VoteStyle.BUTTONS
    """Buttons (ballots in the store) or a native poll (counted by Discord; `message_id` is
    the poll's message)."""

    def option(self, position: int) -> VoteOption | None:
        """The option at a 1-based position."""
        return next((o for o in self.options if o.position == position), None)


def tally(options: tuple[VoteOption, ...], ballots: Mapping[int, str]) -> dict[str, int]:
    """Votes per paper id (every option present, ballots for unknown papers ignored)."""
    counts = {option.paper_id: 0 for option in options}
    for paper_id in ballots.values():
        if paper_id in counts:
            counts[paper_id] += 1
    return counts


def winner(options: tuple[VoteOption, ...], counts: Mapping[str, int]) -> VoteOption:
    """Most votes; ties broken by queue support, then the older suggestion, then position."""
    if not options:
        raise ValueError("a vote has at least one option")
    return min(options, key=lambda o: (-counts.get(o.paper_id, 0), -o.support, o.suggested_at,
                                       o.position))
