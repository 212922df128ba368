""""Papers like my bookmarks": a member is told of a new paper close to what they liked.

Close means the paper's standing in the member's own ranking (the recommend model over their
👍 and bookmarks, 👎 as negatives; `bot.features.recommend.standing`): the share of the catalog
it would rank above for them, 0-100. A member follows with a threshold (default 90: a new
paper that would rank in their top 10%) and is told when a new paper reaches it, through the
outbox like topic matches, once per member and paper.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.features.recommend.standing import Standing
from bot.features.subscriptions.store import SimilarStore, SubscriptionStore

DEFAULT_THRESHOLD = 90


class Closeness(Protocol):
    """The recommend service's standings (`RecommendService.standings`)."""

    async def standings(self, guild_id: int, user_ids: Iterable[int],
                        paper_ids: Sequence[str]) -> dict[int, Standing]:
        """Each member's standing of these papers."""
        ...


@dataclass(frozen=True, slots=True)
class SimilarFollow:
    """A member's "papers like my bookmarks": the threshold, the one it replaced (None when
    new), and how many liked papers it learns from now."""

    threshold: int
    previous: int | None
    liked: int


class SimilarService:
    """Follow, change, stop, and work out who a new paper is close to."""

    def __init__(self, store: SimilarStore, closeness: Closeness,
                 subscriptions: SubscriptionStore) -> None:
        self.store = store
        self.closeness = closeness
        self.subscriptions = subscriptions

    async def follow(self, guild_id: int, user_id: int, threshold: int | None) -> SimilarFollow:
        """Follow with `threshold` (None: keep the current one, else the default)."""
        current = await self.store.threshold(guild_id, user_id)
        wanted = threshold if threshold is not None else (
            current if current is not None else DEFAULT_THRESHOLD)
        wanted = max(0, min(100, wanted))
        previous = await self.store.follow(guild_id, user_id, wanted)
        return SimilarFollow(wanted, previous, await self.liked(guild_id, user_id))

    async def unfollow(self, guild_id: int, user_id: int) -> bool:
        """Stop; False if the member did not follow."""
        return await self.store.unfollow(guild_id, user_id)

    async def status(self, guild_id: int, user_id: int) -> SimilarFollow | None:
        """The member's threshold here and their liked papers, None when not following."""
        threshold = await self.store.threshold(guild_id, user_id)
        if threshold is None:
            return None
        return SimilarFollow(threshold, threshold, await self.liked(guild_id, user_id))

    async def liked(self, guild_id: int, user_id: int) -> int:
        """How many liked papers (👍 and bookmarks) the member's ranking learns from."""
        standings = await self.closeness.standings(guild_id, [user_id], ())
        return standings[user_id].liked if user_id in standings else 0

    async def guilds(self) -> list[int]:
        """Servers where someone follows papers like theirs."""
        return await self.store.guilds()

    async def new_paper_matches(self, guild_id: int, paper_ids: Sequence[str]
                                ) -> dict[int, list[tuple[str, int]]]:
        """Followers (DMs not paused) with the new papers at or above their threshold, and
        each paper's standing, in the papers' order."""
        followers = await self.store.in_guild(guild_id)
        if not followers or not paper_ids:
            return {}
        paused = await self.subscriptions.paused_dm_users(followers)
        asked = [u for u in sorted(followers) if u not in paused]
        standings = await self.closeness.standings(guild_id, asked, paper_ids)
        found: dict[int, list[tuple[str, int]]] = {}
        for user_id, standing in standings.items():
            close = [(pid, standing.of[pid]) for pid in paper_ids
                     if pid in standing.of and standing.of[pid] >= followers[user_id]]
            if close:
                found[user_id] = close
        return found
