"""What the vote service needs from Discord: the poster port and the announcement itself.

`bot.features.votes.poster` implements it; failures are `bot.shared.delivery.DeliveryFailed`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from domain.paper import Paper
from domain.votes import Vote

__all__ = ["PollCounts", "Tallied", "VoteAnnouncement", "VotePoster"]


@dataclass(frozen=True, slots=True)
class Tallied:
    """One option with its votes (paper None if it left the catalog)."""

    position: int
    paper_id: str
    paper: Paper | None
    votes: int


@dataclass(frozen=True, slots=True)
class VoteAnnouncement:
    """Everything the Discord side needs to announce a vote's winner."""

    vote: Vote
    winner: Tallied
    results: tuple[Tallied, ...]
    tie: bool
    marker: str

    @property
    def ballots(self) -> int:
        """How many members voted."""
        return sum(r.votes for r in self.results)


@dataclass(frozen=True, slots=True)
class PollCounts:
    """A native poll's votes per option position, and whether Discord has finalised them."""

    finalized: bool
    counts: Mapping[int, int] = field(default_factory=dict)


class VotePoster(Protocol):
    """Posts the winner, finds an earlier announcement, shows the ballot's tally, finds, reads
    and ends native polls."""

    async def announce(self, announcement: VoteAnnouncement, nonce: str) -> int:
        """Send the announcement with the nonce; the message id."""
        ...

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our announcement sent after `since` carrying `nonce` or `marker`, if any."""
        ...

    async def show_tally(self, vote: Vote, counts: Mapping[int, int], *, closed: bool) -> None:
        """Show each option's count (by position) on the ballot's buttons; `closed` greys them
        out."""
        ...

    async def find_poll(self, vote: Vote, marker: str, since: datetime,
                        until: datetime) -> int | None:
        """A poll vote's poll, if it went out between `since` and `until`: our message with a
        poll and `marker` ending its text."""
        ...

    async def poll_counts(self, vote: Vote) -> PollCounts:
        """A poll vote's counts as its message reports them now (a poll whose message is gone
        counts no votes); not finalised while its message id is not recorded."""
        ...

    async def end_poll(self, vote: Vote) -> None:
        """End a poll vote's poll now (nothing if it has ended already)."""
        ...
