"""Splitting a ping list over messages within Discord's limits: at most 100 users in
`allowed_mentions.users` and 2,000 characters of content per message (more refuses the whole
message with 400/50035)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.shared.lang import Lang
from bot.shared.messages import t

MAX_USERS = 100
CONTENT_LIMIT = 2000
TOPICS_ROOM = 300
"""Characters kept for the matched topics after the mentions."""


def mention(user_id: int) -> str:
    """Discord's mention syntax for a user."""
    return f"<@{user_id}>"


def people(user_ids: Iterable[int]) -> str:
    """The mentions, space separated."""
    return " ".join(mention(user_id) for user_id in user_ids)


def people_room() -> int:
    """How many characters the mentions of one message may take, in any language."""
    overhead = max(len(t(lang, "notify.mention", people="", topics="")) for lang in Lang)
    return CONTENT_LIMIT - overhead - TOPICS_ROOM


def mention_batches(user_ids: Sequence[int], *, max_users: int = MAX_USERS,
                    room: int | None = None) -> list[tuple[int, ...]]:
    """The ids in order, cut into batches of at most `max_users` whose mentions fit `room`."""
    room = people_room() if room is None else room
    batches: list[tuple[int, ...]] = []
    current: list[int] = []
    length = 0
    for user_id in user_ids:
        width = len(mention(user_id))
        if current and (len(current) >= max_users or length + 1 + width > room):
            batches.append(tuple(current))
            current, length = [], 0
        length += width + (1 if current else 0)
        current.append(user_id)
    if current:
        batches.append(tuple(current))
    return batches
