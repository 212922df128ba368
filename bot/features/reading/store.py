"""The reading lists' and the discussion history's stores. The protocol is what the feature's
services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from domain.group import Bookmark, Discussed


class BookmarkStore(Protocol):
    """Each member's reading list, per server."""

    async def add(self, bookmark: Bookmark) -> bool:
        """Keep a bookmark; False if the member had it already, unchanged."""
        ...

    async def remove(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Drop a bookmark; False if there was none."""
        ...

    async def of_member(self, guild_id: int, user_id: int) -> list[Bookmark]:
        """A member's reading list in a server, newest first."""
        ...

    async def forget(self, user_id: int) -> int:
        """Delete a member's bookmarks in every server; how many."""
        ...


class HistoryStore(Protocol):
    """What each server discussed; `/session done` calls `record_discussed`."""

    async def record_discussed(self, guild_id: int, paper_id: str, when: datetime,
                               presenter_id: int | None, notes: str,
                               thread_id: int | None) -> None:
        """Remember that a server discussed a paper."""
        ...

    async def history(self, guild_id: int) -> list[Discussed]:
        """A server's discussions, newest first."""
        ...

    async def discussed_ids(self, guild_id: int) -> set[str]:
        """The ids of every paper the server has discussed."""
        ...

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the discussions they presented; how many."""
        ...
