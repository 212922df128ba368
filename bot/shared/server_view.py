"""The one seam through which every surface shows catalog papers as a server sees them (its
approved corrections applied; the corrections feature's `CorrectionService.view` implements
it). Outside a server, or without a view, papers are shown as stored."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from domain.paper import Paper

Shown = Callable[[Paper], Paper]
"""A paper as one server sees it."""


class ServerView(Protocol):
    """How a server sees catalog papers."""

    async def view(self, guild_id: int | None, paper_ids: Sequence[str]) -> Shown:
        """What turns these papers, as stored, into what the server sees (one read)."""
        ...

    async def corrected(self, guild_id: int) -> list[Paper]:
        """Every paper the server has corrected, as it sees them (for its searches)."""
        ...


def as_stored(paper: Paper) -> Paper:
    """A paper as the catalog holds it."""
    return paper


async def shown_by(view: ServerView | None, guild_id: int | None,
                   paper_ids: Sequence[str]) -> Shown:
    """The server's view of these papers (as stored outside a server or without a view)."""
    if view is None or guild_id is None or not paper_ids:
        return as_stored
    return await view.view(guild_id, paper_ids)


async def seen(view: ServerView | None, guild_id: int | None,
               paper: Paper | None) -> Paper | None:
    """One paper (or None) as the server sees it."""
    if paper is None:
        return None
    return (await shown_by(view, guild_id, [paper.id]))(paper)


async def all_seen(view: ServerView | None, guild_id: int | None,
                   papers: Sequence[Paper]) -> list[Paper]:
    """Papers as the server sees them, in order (one read of their corrections)."""
    shown = await shown_by(view, guild_id, [paper.id for paper in papers])
    return [shown(paper) for paper in papers]
