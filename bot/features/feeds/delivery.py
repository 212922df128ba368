"""What feeds need from Discord: the "new in <feed>" post and the port that sends it.

`bot.features.feeds.poster` implements the port; the feed service only sees these types.
Failures are the digest's `DeliveryFailed` (a reason, a Discord code, whether to retry).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.shared.delivery import DeliveryFailed
from domain.paper import Paper

__all__ = ["DeliveryFailed", "FeedPost", "FeedPoster"]


@dataclass(frozen=True, slots=True)
class FeedPost:
    """One (feed, poll) announcement: the query, the new papers (newest first), the marker."""

    guild_id: int
    channel_id: int
    query: str
    papers: tuple[Paper, ...]
    marker: str


class FeedPoster(Protocol):
    """The Discord operations feeds need."""

    async def send(self, post: FeedPost, nonce: str) -> int:
        """Post to the channel, pinging nobody; returns the message id. `DeliveryFailed`."""
        ...

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our post sent after `since` carrying `nonce` or `marker`, if any."""
        ...
