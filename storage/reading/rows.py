"""Bookmark and discussion row decoding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.group import Bookmark, Discussed
from storage.times import loaded


def bookmark_from_row(guild_id: int, user_id: int, row: Sequence[Any]) -> Bookmark:
    """A member's bookmark from its `paper_id, created_at`."""
    return Bookmark(guild_id, user_id, str(row[0]), loaded(row[1]))


DISCUSSED_COLUMNS = "paper_id, discussed_at, presenter_id, notes, thread_id"


def discussed_from_row(guild_id: int, row: Sequence[Any]) -> Discussed:
    """A server's discussion from its `DISCUSSED_COLUMNS`."""
    return Discussed(guild_id, str(row[0]), loaded(row[1]), row[2], str(row[3]), row[4])
