"""What the digest needs from Discord: the poster and audience ports, and the post itself.

`bot.client.outbound` implements them; the digest service only sees these types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

from bot.features.subscriptions.service import Audience
from domain.paper import Paper

__all__ = ["Audience", "DigestAudience", "DigestPost", "DigestPoster"]



@dataclass(frozen=True, slots=True)
class DigestPost:
    """Everything the Discord side needs to render one paper of the day."""

    guild_id: int
    channel_id: int
    local_date: date
    paper: Paper
    position: int
    cycle_size: int
    late: bool
    marker: str
    audience: Audience = field(default_factory=Audience)
    recommended: bool = False
    """Picked for the group by `pick:recommended` (the note says so instead of the cycle)."""
    like: Paper | None = None
    """The group's liked paper the recommendation is closest to."""


class DigestPoster(Protocol):
    """The Discord operations the digest needs (`bot.features.digest.poster`)."""

    async def send(self, post: DigestPost, nonce: str) -> int:
        """Post to the channel; returns the message id. Raises `DeliveryFailed`."""
        ...

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """The id of our post sent after `since` that carries `nonce` or `marker`, if any:
        the whole history since then is searched. Raises `DeliveryFailed`."""
        ...

    async def open_thread(self, guild_id: int, channel_id: int, message_id: int,
                          name: str | None) -> int:
        """Open a discussion thread on the message, named `name` (None: the catalogue's
        "paper of the day" in the server's language); returns its id. `DeliveryFailed`."""
        ...


class DigestAudience(Protocol):
    """Who to tell about a paper of the day (`bot.features.notifications.notifier`)."""

    async def digest_audience(self, guild_id: int, paper: Paper, *,
                              mention: bool) -> Audience:
        """Members to mention in the post, and members to DM."""
        ...

    async def after_digest(self, guild_id: int, local_date: date, paper: Paper,
                           audience: Audience, link: str, reply_in: int) -> None:
        """Once the post is out: record the members it pinged, and queue the other mentions
        (as follow-ups in `reply_in`, the thread or the channel) and the DMs, in one
        transaction that also marks the ledger row's followers queued (once per post)."""
        ...
