"""Subscription columns and row decoding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.subscriptions import (
    Delivery,
    Subscription,
)

COLUMNS = "guild_id, user_id, topic, topic_key, delivery"


def subscription_from_row(row: Sequence[Any]) -> Subscription:
    return Subscription(row[0], row[1], row[2], row[3], Delivery(row[4]))
