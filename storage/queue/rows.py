"""The suggestion queue's columns and row decoding."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

from domain.group import QueueItem, Supporter, queue_order
from storage.times import loaded

QUEUE_COLUMNS = "guild_id, paper_id, user_id, note, created_at"


def items_from_rows(rows: Sequence[Any]) -> list[QueueItem]:
    """Rows ordered by (guild, paper, created_at, id) grouped into queue items."""
    items = []
    for (guild_id, paper_id), group in groupby(rows, key=lambda r: (r[0], r[1])):
        supporters = tuple(Supporter(r[2], r[3], loaded(r[4])) for r in group)
        items.append(QueueItem(int(guild_id), str(paper_id), supporters))
    return queue_order(items)
