"""Topic subscriptions, the notification ledger and paused DM delivery."""

from __future__ import annotations

from collections.abc import Iterable

from domain.reasons import Reason
from domain.subscriptions import (
    MAX_TOPICS_PER_MEMBER,
    AddResult,
    Delivery,
    Forgotten,
    Subscription,
)
from storage.sqlite.database import Database
from storage.subscriptions.rows import COLUMNS, subscription_from_row
from storage.times import utc_timestamp


class SqliteSubscriptionStore:
    """Subscriptions per (server, member, topic); notifications per (server, member, paper)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, subscription: Subscription) -> AddResult:
        """Add a topic unless the member already has 25 in the server; a topic they follow
        already gets the new delivery (DELIVERY_CHANGED) or stays as it is (DUPLICATE)."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                "SELECT count(*), sum(topic_key = ?) FROM subscriptions "
                "WHERE guild_id = ? AND user_id = ?",
                (subscription.topic_key, subscription.guild_id, subscription.user_id),
            ) as cursor:
                row = await cursor.fetchone()
            count, duplicates = (row[0], row[1] or 0) if row else (0, 0)
            if duplicates:
                changed = await conn.execute(
                    "UPDATE subscriptions SET delivery = ? WHERE guild_id = ? AND user_id = ? "
                    "AND topic_key = ? AND delivery != ?",
                    (subscription.delivery, subscription.guild_id, subscription.user_id,
                     subscription.topic_key, subscription.delivery),
                )
                return AddResult.DELIVERY_CHANGED if changed.rowcount else AddResult.DUPLICATE
            if count >= MAX_TOPICS_PER_MEMBER:
                return AddResult.LIMIT
            await conn.execute(
                f"INSERT INTO subscriptions ({COLUMNS}, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (subscription.guild_id, subscription.user_id, subscription.topic,
                 subscription.topic_key, subscription.delivery, utc_timestamp()),
            )
            return AddResult.ADDED

    async def remove(self, guild_id: int, user_id: int, topic_key: str) -> bool:
        """Remove one topic; False if the member had no such topic."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM subscriptions WHERE guild_id = ? AND user_id = ? AND topic_key = ?",
                (guild_id, user_id, topic_key),
            )
            return cursor.rowcount > 0

    async def of_member(self, guild_id: int, user_id: int) -> list[Subscription]:
        """A member's topics in a server, oldest first."""
        rows = await self._db.fetchall(
            f"SELECT {COLUMNS} FROM subscriptions WHERE guild_id = ? AND user_id = ? "
            "ORDER BY created_at, topic_key", (guild_id, user_id))
        return [subscription_from_row(row) for row in rows]

    async def in_guild(self, guild_id: int) -> list[Subscription]:
        """Every subscription in a server."""
        rows = await self._db.fetchall(
            f"SELECT {COLUMNS} FROM subscriptions WHERE guild_id = ?", (guild_id,))
        return [subscription_from_row(row) for row in rows]

    async def guilds_with_subscriptions(self) -> list[int]:
        """Servers that have at least one subscription."""
        rows = await self._db.fetchall("SELECT DISTINCT guild_id FROM subscriptions")
        return [int(row[0]) for row in rows]

    async def topic_counts(self, guild_id: int) -> list[tuple[str, int]]:
        """Topics in a server with how many members follow each, most followed first."""
        rows = await self._db.fetchall(
            "SELECT min(topic), count(*) FROM subscriptions WHERE guild_id = ? "
            "GROUP BY topic_key ORDER BY count(*) DESC, min(topic)", (guild_id,))
        return [(str(topic), int(count)) for topic, count in rows]

    async def followers(self, guild_id: int, topic_key: str) -> list[int]:
        """Members of a server following one topic."""
        rows = await self._db.fetchall(
            "SELECT user_id FROM subscriptions WHERE guild_id = ? AND topic_key = ? "
            "ORDER BY created_at", (guild_id, topic_key))
        return [int(row[0]) for row in rows]

    async def record_notifications(self, guild_id: int, pairs: Iterable[tuple[int, str]],
                                   via: Delivery) -> set[tuple[int, str]]:
        """Claim (member, paper) notifications; returns only those never claimed before."""
        fresh: set[tuple[int, str]] = set()
        async with self._db.transaction() as conn:
            for user_id, paper_id in pairs:
                cursor = await conn.execute(
                    "INSERT OR IGNORE INTO notifications (guild_id, user_id, paper_id, via, "
                    "notified_at) VALUES (?, ?, ?, ?, ?)",
                    (guild_id, user_id, paper_id, via, utc_timestamp()))
                if cursor.rowcount:
                    fresh.add((user_id, paper_id))
        return fresh

    async def notified(self, guild_id: int, paper_id: str) -> set[int]:
        """Members already told about a paper in a server."""
        rows = await self._db.fetchall(
            "SELECT user_id FROM notifications WHERE guild_id = ? AND paper_id = ?",
            (guild_id, paper_id))
        return {int(row[0]) for row in rows}

    async def dm_pause(self, user_id: int) -> Reason | None:
        """Why a member's DM delivery is paused, or None."""
        row = await self._db.fetchone("SELECT reason FROM dm_pauses WHERE user_id = ?",
                                      (user_id,))
        return Reason.decode(str(row[0])) if row else None

    async def paused_dm_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these members have DM delivery paused."""
        ids = list(set(user_ids))
        paused: set[int] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await self._db.fetchall(
                f"SELECT user_id FROM dm_pauses WHERE user_id IN ({','.join('?' * len(chunk))})",
                chunk)
            paused.update(int(row[0]) for row in rows)
        return paused

    async def pause_dms(self, user_id: int, reason: Reason) -> None:
        """Stop DMs to a member (Discord refused one)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT OR REPLACE INTO dm_pauses (user_id, reason, paused_at) VALUES (?, ?, ?)",
                (user_id, reason.encode(), utc_timestamp()))

    async def resume_dms(self, user_id: int) -> bool:
        """Allow DMs again; False if they were not paused."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute("DELETE FROM dm_pauses WHERE user_id = ?", (user_id,))
            return cursor.rowcount > 0

    async def forget(self, user_id: int) -> Forgotten:
        """Delete every subscription, notification record and queued notification of a member,
        in every server."""
        async with self._db.transaction() as conn:
            subs = await conn.execute("DELETE FROM subscriptions WHERE user_id = ?", (user_id,))
            notes = await conn.execute("DELETE FROM notifications WHERE user_id = ?",
                                       (user_id,))
            await conn.execute("DELETE FROM dm_pauses WHERE user_id = ?", (user_id,))
            await conn.execute("DELETE FROM outbox WHERE user_id = ?", (user_id,))
            return Forgotten(subs.rowcount, notes.rowcount)
