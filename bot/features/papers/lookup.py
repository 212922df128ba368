"""Turning what a member typed (an id from autocomplete, or words) into one catalog paper."""

from __future__ import annotations

import re

from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.search import SearchService
from domain.paper import PAPER_ID_CHARS, Paper

PAPER_ID = re.compile(rf"[0-9a-f]{{{PAPER_ID_CHARS}}}")


class PaperLookup:
    """Resolves a `paper:` option: an exact id first, else the best search hit."""

    def __init__(self, search: SearchService) -> None:
        self._search = search

    async def by_id(self, paper_id: str) -> Paper | None:
        """A paper by its public id."""
        return await self._search.paper(paper_id)

    async def resolve(self, text: str) -> Paper | None:
        """The paper an option names, or None when nothing matches."""
        text = text.strip()
        if PAPER_ID.fullmatch(text):
            paper = await self._search.paper(text)
            if paper is not None:
                return paper
        try:
            query = parse_query(text)
        except QueryError:
            return None
        if query.is_empty():
            return None
        outcome = await self._search.search(query, limit=1)
        return outcome.hits[0].paper if outcome.hits else None

    async def many(self, paper_ids: list[str]) -> dict[str, Paper]:
        """The papers still in the catalog among these ids."""
        found: dict[str, Paper] = {}
        for paper_id in dict.fromkeys(paper_ids):
            paper = await self._search.paper(paper_id)
            if paper is not None:
                found[paper_id] = paper
        return found
