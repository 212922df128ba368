"""Feed and announcement columns, and row decoding."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from domain.feeds import (
    Announcement,
    Feed,
    PausedFeed,
)
from domain.reasons import Reason, decode_optional

FEED_COLUMNS = ("f.id, f.guild_id, f.query, f.channel_id, f.created_by, f.created_at, "
                "f.paused_reason, q.last_polled_at, q.last_error")


FEED_FROM = "feeds f LEFT JOIN feed_queries q ON q.query = f.query"

ANNOUNCEMENT_COLUMNS = ("feed_id, poll, guild_id, channel_id, query, paper_ids, claimed_at, "
                        "claims")


def feed_from_row(row: Sequence[Any]) -> Feed:
    return Feed(id=row[0], guild_id=row[1], query=row[2], channel_id=row[3],
                created_by=row[4], created_at=datetime.fromisoformat(row[5]),
                paused_reason=decode_optional(row[6]), last_polled_at=moment(row[7]),
                last_error=decode_optional(row[8]))


def announcement_from_row(row: Sequence[Any]) -> Announcement:
    return Announcement(feed_id=row[0], poll=row[1], guild_id=row[2], channel_id=row[3],
                        query=row[4], paper_ids=tuple(json.loads(row[5])),
                        claimed_at=datetime.fromisoformat(row[6]), attempt=int(row[7]))


def paused_from_row(row: Sequence[Any]) -> PausedFeed:
    return PausedFeed(row[0], row[1], Reason.decode(str(row[2])))


def moment(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None
