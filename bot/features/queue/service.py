"""`/suggest` and `/queue`: the server's queue of papers to read next."""

from __future__ import annotations

from dataclasses import dataclass

from bot.features.papers.lookup import PaperLookup
from bot.features.queue.store import QueueStore
from bot.shared.clock import Clock
from bot.shared.messages import Refusal
from domain.group import QueueItem, RemoveOutcome, SuggestOutcome
from domain.paper import Paper


@dataclass(frozen=True, slots=True)
class Suggested:
    """What `/suggest` did, to which paper, and the queue entry now."""

    outcome: SuggestOutcome
    paper: Paper
    item: QueueItem


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A queued paper with its catalog record (None if it left the catalog)."""

    item: QueueItem
    paper: Paper | None


class QueueService:
    """The queue per server; anyone suggests, suggesters and organisers remove."""

    def __init__(self, queue: QueueStore, lookup: PaperLookup, clock: Clock) -> None:
        self._queue = queue
        self._lookup = lookup
        self._clock = clock

    async def paper(self, text: str, guild_id: int | None = None) -> Paper:
        """The paper a `paper:` option names (as the server sees it), or a `Refusal`."""
        paper = await self._lookup.resolve(text, guild_id)
        if paper is None:
            raise Refusal("group.no_paper", q=text[:100])
        return paper

    async def suggest(self, guild_id: int, user_id: int, text: str, note: str) -> Suggested:
        """Queue a paper (once per server); a later suggestion adds a +1."""
        paper = await self.paper(text, guild_id)
        outcome = await self._queue.suggest(guild_id, paper.id, user_id, note.strip(),
                                            self._clock())
        item = await self._queue.item(guild_id, paper.id)
        assert item is not None
        return Suggested(outcome, paper, item)

    async def entries(self, guild_id: int) -> list[QueueEntry]:
        """The queue in order, with each paper's record."""
        items = await self._queue.queue(guild_id)
        papers = await self._lookup.many([i.paper_id for i in items], guild_id)
        return [QueueEntry(item, papers.get(item.paper_id)) for item in items]

    async def items(self, guild_id: int) -> list[QueueItem]:
        """The queue in order (most supported first, then oldest)."""
        return await self._queue.queue(guild_id)

    async def remove(self, guild_id: int, user_id: int, text: str, *,
                     organiser: bool) -> tuple[RemoveOutcome, Paper]:
        """Organisers and the first suggester remove a paper; a supporter withdraws a +1."""
        paper = await self.paper(text, guild_id)
        item = await self._queue.item(guild_id, paper.id)
        if item is None:
            return RemoveOutcome.NOT_QUEUED, paper
        if organiser or item.suggested_by == user_id:
            await self._queue.remove(guild_id, paper.id)
            return RemoveOutcome.REMOVED, paper
        if await self._queue.withdraw(guild_id, paper.id, user_id):
            return RemoveOutcome.WITHDRAWN, paper
        return RemoveOutcome.NOT_ALLOWED, paper

    async def drop(self, guild_id: int, paper_id: str) -> bool:
        """Take a paper off the queue (it was discussed)."""
        return await self._queue.remove(guild_id, paper_id)
