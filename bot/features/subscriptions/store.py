"""The subscriptions' store: topics, the notification ledger, paused DMs. The protocol is what the
feature's services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from domain.reasons import Reason
from domain.subscriptions import AddResult, Forgotten, Subscription


class SubscriptionStore(Protocol):
    """Topic subscriptions, the notification ledger and paused DM delivery."""

    async def add(self, subscription: Subscription) -> AddResult:
        """Add a topic unless over the member's limit; a followed topic gets the new delivery
        (DELIVERY_CHANGED) or stays (DUPLICATE)."""
        ...

    async def remove(self, guild_id: int, user_id: int, topic_key: str) -> bool:
        """Remove one topic; False if the member had no such topic."""
        ...

    async def of_member(self, guild_id: int, user_id: int) -> list[Subscription]:
        """A member's topics in a server, oldest first."""
        ...

    async def in_guild(self, guild_id: int) -> list[Subscription]:
        """Every subscription in a server."""
        ...

    async def guilds_with_subscriptions(self) -> list[int]:
        """Servers that have at least one subscription."""
        ...

    async def topic_counts(self, guild_id: int) -> list[tuple[str, int]]:
        """Topics with how many members follow each, most followed first."""
        ...

    async def followers(self, guild_id: int, topic_key: str) -> list[int]:
        """Members of a server following one topic."""
        ...

    async def notified(self, guild_id: int, paper_id: str) -> set[int]:
        """Members already told about a paper in a server."""
        ...

    async def dm_pause(self, user_id: int) -> Reason | None:
        """Why a member's DM delivery is paused, or None."""
        ...

    async def paused_dm_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these members have DM delivery paused."""
        ...

    async def pause_dms(self, user_id: int, reason: Reason) -> None:
        """Stop DMs to a member."""
        ...

    async def resume_dms(self, user_id: int) -> bool:
        """Allow DMs again; False if they were not paused."""
        ...

    async def forget(self, user_id: int) -> Forgotten:
        """Delete every record of a member, in every server."""
        ...


class SimilarStore(Protocol):
    """Members who follow papers like their bookmarks and 👍, with a threshold each."""

    async def follow(self, guild_id: int, user_id: int, threshold: int) -> int | None:
        """Follow (or change the threshold); the previous threshold, None if new."""
        ...

    async def threshold(self, guild_id: int, user_id: int) -> int | None:
        """A member's threshold in a server, None when they do not follow."""
        ...

    async def unfollow(self, guild_id: int, user_id: int) -> bool:
        """Stop following; False if they did not."""
        ...

    async def in_guild(self, guild_id: int) -> dict[int, int]:
        """Every follower of a server with their threshold."""
        ...

    async def guilds(self) -> list[int]:
        """Servers with at least one follower."""
        ...

    async def forget(self, user_id: int) -> int:
        """Delete a member's follows in every server."""
        ...
