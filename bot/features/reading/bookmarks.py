"""`/bookmark` and `/bookmarks`: each member's reading list, per server."""

from __future__ import annotations

from dataclasses import dataclass

from bot.features.export.formats import ExportEntry
from bot.features.papers.lookup import PaperLookup
from bot.features.reading.store import BookmarkStore
from bot.shared.clock import Clock
from bot.shared.messages import Refusal
from domain.group import Bookmark
from domain.paper import Paper


@dataclass(frozen=True, slots=True)
class Marked:
    """A bookmark with its catalog record (None if the paper left the catalog)."""

    bookmark: Bookmark
    paper: Paper | None

    def exported(self) -> ExportEntry:
        """Its entry in the reading list's export (`/export what:bookmarks`)."""
        return ExportEntry(self.bookmark.paper_id, self.paper, self.bookmark.at)


class BookmarkService:
    """Add, drop and list a member's bookmarks in one server."""

    def __init__(self, store: BookmarkStore, lookup: PaperLookup, clock: Clock) -> None:
        self._store = store
        self._lookup = lookup
        self._clock = clock

    async def _paper(self, text: str, guild_id: int) -> Paper:
        paper = await self._lookup.resolve(text, guild_id)
        if paper is None:
            raise Refusal("group.no_paper", q=text[:100])
        return paper

    async def toggle(self, guild_id: int, user_id: int, text: str, *,
                     remove: bool) -> tuple[bool, Paper]:
        """Bookmark (or, with `remove`, drop) a paper; whether anything changed."""
        paper = await self._paper(text, guild_id)
        if remove:
            return await self._store.remove(guild_id, user_id, paper.id), paper
        return await self._store.add(Bookmark(guild_id, user_id, paper.id, self._clock())), paper

    async def of_member(self, guild_id: int, user_id: int) -> list[Marked]:
        """The member's reading list, newest first."""
        marks = await self._store.of_member(guild_id, user_id)
        papers = await self._lookup.many([m.paper_id for m in marks], guild_id)
        return [Marked(m, papers.get(m.paper_id)) for m in marks]
