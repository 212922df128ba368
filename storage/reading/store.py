"""Reading lists (one row per server, member and paper) and the papers a server discussed
(written by `/session done`, read by `/history` and exports)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from domain.group import Bookmark, Discussed
from storage.db import Store
from storage.times import loaded, stored

_DISCUSSED_COLUMNS = "paper_id, discussed_at, presenter_id, notes, thread_id"


class BookmarkStore(Store):
    """Each member's bookmarked papers, per server."""

    async def add(self, bookmark: Bookmark) -> bool:
        """Keep a bookmark; False if the member had it already, unchanged."""
        return await self._db.execute(
            "INSERT INTO bookmarks (guild_id, user_id, paper_id, created_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            bookmark.guild_id, bookmark.user_id, bookmark.paper_id, stored(bookmark.at)) > 0

    async def remove(self, guild_id: int, user_id: int, paper_id: str) -> bool:
        """Drop a bookmark; False if there was none."""
        return await self._db.execute(
            "DELETE FROM bookmarks WHERE guild_id = $1 AND user_id = $2 AND paper_id = $3",
            guild_id, user_id, paper_id) > 0

    async def of_member(self, guild_id: int, user_id: int) -> list[Bookmark]:
        """A member's reading list in a server, newest first."""
        rows = await self._db.fetch(
            "SELECT paper_id, created_at FROM bookmarks WHERE guild_id = $1 AND user_id = $2 "
            f"ORDER BY created_at{self._order} DESC, paper_id{self._order}", guild_id, user_id)
        return [Bookmark(guild_id, user_id, str(r[0]), loaded(r[1])) for r in rows]

    async def forget(self, user_id: int) -> int:
        """Delete a member's bookmarks in every server."""
        return await self._db.execute("DELETE FROM bookmarks WHERE user_id = $1", user_id)


class HistoryStore(Store):
    """One row per discussion (a paper may be discussed again later)."""

    async def record_discussed(self, guild_id: int, paper_id: str, when: datetime,
                               presenter_id: int | None, notes: str,
                               thread_id: int | None) -> None:
        """Remember that a server discussed a paper."""
        await self._db.execute(
            "INSERT INTO discussed (guild_id, paper_id, discussed_at, presenter_id, notes, "
            "thread_id) VALUES ($1, $2, $3, $4, $5, $6)",
            guild_id, paper_id, stored(when), presenter_id, notes, thread_id)

    async def history(self, guild_id: int) -> list[Discussed]:
        """A server's discussions, newest first."""
        rows = await self._db.fetch(
            f"SELECT {_DISCUSSED_COLUMNS} FROM discussed "
            f"WHERE guild_id = $1 ORDER BY discussed_at{self._order} DESC, id DESC", guild_id)
        return [_discussed(guild_id, r) for r in rows]

    async def discussed_ids(self, guild_id: int) -> set[str]:
        """The ids of every paper the server has discussed."""
        rows = await self._db.fetch(
            "SELECT DISTINCT paper_id FROM discussed WHERE guild_id = $1", guild_id)
        return {str(r[0]) for r in rows}

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the discussions they presented (the record stays)."""
        return await self._db.execute(
            "UPDATE discussed SET presenter_id = NULL WHERE presenter_id = $1", user_id)


def _discussed(guild_id: int, row: Sequence[Any]) -> Discussed:
    """A server's discussion from its `_DISCUSSED_COLUMNS`."""
    return Discussed(guild_id, str(row[0]), loaded(row[1]), row[2], str(row[3]), row[4])
