"""What the vote service needs from Discord: the announcer port and the announcement itself.

`bot.features.votes.announcer` implements it; failures are the digest's `DeliveryFailed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.features.digest.delivery import DeliveryFailed
from domain.paper import Paper
from domain.votes import Vote

__all__ = ["DeliveryFailed", "Tallied", "VoteAnnouncement", "VoteAnnouncer"]


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


class VoteAnnouncer(Protocol):
    """Posts the winner, finds an earlier announcement, greys out the ballot."""

    async def announce(self, announcement: VoteAnnouncement, nonce: str) -> int:
        """Send the announcement with the nonce; the message id."""
        ...

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our announcement sent after `since` carrying `nonce` or `marker`, if any."""
        ...

    async def close_ballot(self, vote: Vote) -> None:
        """Disable the vote's buttons (best effort)."""
        ...
