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


SIMILAR_MARK = "\u2060similar:"
"""How a "papers like my bookmarks" match is written among a notification's matched topics:
a word joiner first, which no topic can hold (`domain.text.tidy` removes it from what members
type), then the paper's standing (0-100)."""


def similar_topic(standing: int) -> str:
    """The matched-topic entry of a paper close to what a member liked."""
    return f"{SIMILAR_MARK}{standing}"


def similar_standing(topic: str) -> int | None:
    """The standing written by `similar_topic`, None for an ordinary topic."""
    if not topic.startswith(SIMILAR_MARK):
        return None
    rest = topic[len(SIMILAR_MARK):]
    return int(rest) if rest.isdigit() else None
