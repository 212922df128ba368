"""What the recommendation service needs from storage."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from domain.recommend import Signal, Verdict


class RecommendStore(Protocol):
    """👍 / 👎 per (server, member, paper), and every signal a server's tables hold."""

    async def rate(self, guild_id: int, user_id: int, paper_id: str, verdict: Verdict,
                   at: datetime) -> bool:
        """Record a member's verdict on a paper; False if it was already that verdict."""

    async def unrate(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Take a verdict back; False if there was none."""

    async def verdict(self, guild_id: int, user_id: int, paper_id: str) -> Verdict | None:
        """A member's verdict on a paper, if any."""

    async def signals(self, guild_id: int) -> list[Signal]:
        """Every signal in a server on papers still in the catalog: bookmarks, suggestions and
        +1s, ballots, the discussed history and presenters, 👍 / 👎; oldest first."""

    async def forget(self, user_id: int) -> int:
        """Delete a member's verdicts everywhere (their other signals go with their stores)."""
