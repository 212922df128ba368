"""Topic subscriptions, the notification ledger, paused DM delivery, and the members who follow
papers like their bookmarks."""

from __future__ import annotations

from collections.abc import Iterable

from domain.reasons import Reason
from domain.subscriptions import (
    MAX_TOPICS_PER_MEMBER,
    AddResult,
    Forgotten,
    Subscription,
)
from storage.db import Store
from storage.subscriptions.rows import COLUMNS, subscription_from_row
from storage.times import utc_timestamp


class SubscriptionStore(Store):
    """Subscriptions per (server, member, topic); notifications per (server, member, paper)."""

    async def add(self, subscription: Subscription) -> AddResult:
        """Add a topic unless the member already has 25 in the server; a topic they follow
        already gets the new delivery (DELIVERY_CHANGED) or stays as it is (DUPLICATE).

        The member's topics are counted under a transaction lock on (server, member), so two
        processes adding at once can never take a member past the limit."""
        s = subscription
        async with self._db.transaction() as tx:
            await tx.lock(f"subscriptions:{s.guild_id}:{s.user_id}")
            row = await tx.fetch_one(
                "SELECT count(*), count(*) FILTER (WHERE topic_key = $1) FROM subscriptions "
                "WHERE guild_id = $2 AND user_id = $3", s.topic_key, s.guild_id, s.user_id)
            count, duplicates = (int(row[0]), int(row[1])) if row else (0, 0)
            if duplicates:
                changed = await tx.execute(
                    "UPDATE subscriptions SET delivery = $1 WHERE guild_id = $2 AND user_id = $3 "
                    "AND topic_key = $4 AND delivery != $1",
                    s.delivery.value, s.guild_id, s.user_id, s.topic_key)
                return AddResult.DELIVERY_CHANGED if changed else AddResult.DUPLICATE
            if count >= MAX_TOPICS_PER_MEMBER:
                return AddResult.LIMIT
            await tx.execute(
                f"INSERT INTO subscriptions ({COLUMNS}, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                s.guild_id, s.user_id, s.topic, s.topic_key, s.delivery.value, utc_timestamp())
            return AddResult.ADDED

    async def remove(self, guild_id: int, user_id: int, topic_key: str) -> bool:
        """Remove one topic; False if the member had no such topic."""
        return await self._db.execute(
            "DELETE FROM subscriptions WHERE guild_id = $1 AND user_id = $2 AND topic_key = $3",
            guild_id, user_id, topic_key) > 0

    async def of_member(self, guild_id: int, user_id: int) -> list[Subscription]:
        """A member's topics in a server, oldest first."""
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM subscriptions WHERE guild_id = $1 AND user_id = $2 "
            f"ORDER BY created_at, topic_key{self._dialect.text_order}", guild_id, user_id)
        return [subscription_from_row(row) for row in rows]

    async def in_guild(self, guild_id: int) -> list[Subscription]:
        """Every subscription in a server."""
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM subscriptions WHERE guild_id = $1", guild_id)
        return [subscription_from_row(row) for row in rows]

    async def guilds_with_subscriptions(self) -> list[int]:
        """Servers that have at least one subscription."""
        rows = await self._db.fetch("SELECT DISTINCT guild_id FROM subscriptions")
        return [int(row[0]) for row in rows]

    async def topic_counts(self, guild_id: int) -> list[tuple[str, int]]:
        """Topics in a server with how many members follow each, most followed first."""
        topic = f"min(topic{self._dialect.text_order})"
        rows = await self._db.fetch(
            f"SELECT {topic}, count(*) FROM subscriptions WHERE guild_id = $1 "
            f"GROUP BY topic_key ORDER BY count(*) DESC, {topic}", guild_id)
        return [(str(row[0]), int(row[1])) for row in rows]

    async def followers(self, guild_id: int, topic_key: str) -> list[int]:
        """Members of a server following one topic."""
        rows = await self._db.fetch(
            "SELECT user_id FROM subscriptions WHERE guild_id = $1 AND topic_key = $2 "
            "ORDER BY created_at", guild_id, topic_key)
        return [int(row[0]) for row in rows]

    async def notified(self, guild_id: int, paper_id: str) -> set[int]:
        """Members already told about a paper in a server."""
        rows = await self._db.fetch(
            "SELECT user_id FROM notifications WHERE guild_id = $1 AND paper_id = $2",
            guild_id, paper_id)
        return {int(row[0]) for row in rows}

    async def dm_pause(self, user_id: int) -> Reason | None:
        """Why a member's DM delivery is paused, or None."""
        value = await self._db.fetch_value("SELECT reason FROM dm_pauses WHERE user_id = $1",
                                           user_id)
        return None if value is None else Reason.decode(str(value))

    async def paused_dm_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these members have DM delivery paused."""
        rows = await self._db.fetch(
            f"SELECT user_id FROM dm_pauses WHERE user_id {self._dialect.in_array('$1')}",
            self._dialect.array(set(user_ids)))
        return {int(row[0]) for row in rows}

    async def pause_dms(self, user_id: int, reason: Reason) -> None:
        """Stop DMs to a member (Discord refused one)."""
        await self._db.execute(
            "INSERT INTO dm_pauses (user_id, reason, paused_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET reason = excluded.reason, "
            "paused_at = excluded.paused_at", user_id, reason.encode(), utc_timestamp())

    async def resume_dms(self, user_id: int) -> bool:
        """Allow DMs again; False if they were not paused."""
        return await self._db.execute("DELETE FROM dm_pauses WHERE user_id = $1", user_id) > 0

    async def forget(self, user_id: int) -> Forgotten:
        """Delete every subscription, notification record and queued notification of a member,
        in every server."""
        async with self._db.transaction() as tx:
            subs = await tx.execute("DELETE FROM subscriptions WHERE user_id = $1", user_id)
            notes = await tx.execute("DELETE FROM notifications WHERE user_id = $1", user_id)
            await tx.execute("DELETE FROM dm_pauses WHERE user_id = $1", user_id)
            await tx.execute("DELETE FROM outbox WHERE user_id = $1", user_id)
            return Forgotten(subs, notes)


class SimilarStore(Store):
    """Followers of papers like their bookmarks: one threshold per (server, member)."""

    async def follow(self, guild_id: int, user_id: int, threshold: int) -> int | None:
        """Follow (or change the threshold); the previous threshold, None if new."""
        async with self._db.transaction() as tx:
            before = await tx.fetch_value(
                "SELECT threshold FROM similar_subscriptions WHERE guild_id = $1 "
                f"AND user_id = $2{self._dialect.lock_rows()}", guild_id, user_id)
            await tx.execute(
                "INSERT INTO similar_subscriptions (guild_id, user_id, threshold, updated_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, user_id) DO UPDATE "
                "SET threshold = excluded.threshold, updated_at = excluded.updated_at",
                guild_id, user_id, threshold, utc_timestamp())
        return None if before is None else int(before)

    async def threshold(self, guild_id: int, user_id: int) -> int | None:
        """A member's threshold in a server, None when they do not follow."""
        value = await self._db.fetch_value(
            "SELECT threshold FROM similar_subscriptions WHERE guild_id = $1 AND user_id = $2",
            guild_id, user_id)
        return None if value is None else int(value)

    async def unfollow(self, guild_id: int, user_id: int) -> bool:
        """Stop following; False if they did not."""
        return await self._db.execute(
            "DELETE FROM similar_subscriptions WHERE guild_id = $1 AND user_id = $2",
            guild_id, user_id) > 0

    async def in_guild(self, guild_id: int) -> dict[int, int]:
        """Every follower of a server with their threshold."""
        return {int(r[0]): int(r[1]) for r in await self._db.fetch(
            "SELECT user_id, threshold FROM similar_subscriptions WHERE guild_id = $1 "
            "ORDER BY user_id", guild_id)}

    async def guilds(self) -> list[int]:
        """Servers with at least one follower."""
        return [int(r[0]) for r in await self._db.fetch(
            "SELECT DISTINCT guild_id FROM similar_subscriptions ORDER BY guild_id")]

    async def forget(self, user_id: int) -> int:
        """Delete a member's follows in every server."""
        return await self._db.execute(
            "DELETE FROM similar_subscriptions WHERE user_id = $1", user_id)
