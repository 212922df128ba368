"""Topic subscription records: a member's topic, how they hear about it, what `add` did."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MAX_TOPICS_PER_MEMBER = 25


class AddResult(StrEnum):
    """What adding a subscription did."""

    ADDED = "added"
    DUPLICATE = "duplicate"
    DELIVERY_CHANGED = "delivery_changed"
    LIMIT = "limit"


class Delivery(StrEnum):
    """How a member hears about a matching paper (also how a notification was sent)."""

    DM = "dm"
    MENTION = "mention"


@dataclass(frozen=True, slots=True)
class Subscription:
    """One member's topic in one server."""

    guild_id: int
    user_id: int
    topic: str
    topic_key: str
    delivery: Delivery


@dataclass(frozen=True, slots=True)
class Forgotten:
    """How many records `/forget-me` deleted."""

    subscriptions: int
    notifications: int
