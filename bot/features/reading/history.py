"""`/history`: what a server's reading group discussed, newest first."""

from __future__ import annotations

from dataclasses import dataclass

from bot.features.papers.lookup import PaperLookup
from bot.features.reading.store import HistoryStore
from domain.group import Discussed
from domain.paper import Paper


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A discussion with its catalog record (None if the paper left the catalog)."""

    discussed: Discussed
    paper: Paper | None


class HistoryService:
    """Reads the history `/session done` writes."""

    def __init__(self, store: HistoryStore, lookup: PaperLookup) -> None:
        self._store = store
        self._lookup = lookup

    async def entries(self, guild_id: int) -> list[HistoryEntry]:
        """The server's discussions, newest first, with each paper's record."""
        rows = await self._store.history(guild_id)
        papers = await self._lookup.many([r.paper_id for r in rows], guild_id)
        return [HistoryEntry(r, papers.get(r.paper_id)) for r in rows]
