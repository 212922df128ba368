"""Search: exact full-text first, then typo correction, then any-word, with "did you mean"."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.core.fuzzy import Vocabulary
from bot.core.query import SearchQuery
from storage.interfaces import PaperStore, SearchHit


class Strategy(StrEnum):
    """Which step of the search produced the hits."""

    EXACT = "exact"
    CORRECTED = "corrected"
    ANY_WORD = "any-word"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """Hits best first, how they were found, and a suggestion when the query looked mistyped."""

    hits: list[SearchHit]
    strategy: Strategy
    did_you_mean: str | None = None


class SearchService:
    """The one search engine of paperclub, shared by the CLI, `/paper` and subscriptions."""

    def __init__(self, store: PaperStore, *, fuzzy_threshold: float = 75.0) -> None:
        self._store = store
        self._threshold = fuzzy_threshold
        self._vocabulary: Vocabulary | None = None
        self._vocabulary_version = -1

    async def vocabulary(self) -> Vocabulary:
        """The catalog's word list, rebuilt only when the catalog has changed."""
        version = await self._store.catalog_version()
        if self._vocabulary is None or version != self._vocabulary_version:
            self._vocabulary = Vocabulary(await self._store.vocabulary(), self._threshold)
            self._vocabulary_version = version
        return self._vocabulary

    async def search(
        self, query: SearchQuery, *, limit: int = 10, offset: int = 0
    ) -> SearchOutcome:
        """Run the query; fall back to corrected words, then to any word, when nothing matches."""
        if query.is_empty():
            return SearchOutcome([], Strategy.NONE)
        hits = await self._store.search(query, limit=limit, offset=offset)
        if hits or not query.words or offset:
            return SearchOutcome(hits, Strategy.EXACT if hits else Strategy.NONE)
        vocabulary = await self.vocabulary()
        corrected = query.with_words(vocabulary.correct_words(query.words))
        did_you_mean = corrected.describe() if corrected != query else None
        if corrected != query:
            hits = await self._store.search(corrected, limit=limit)
            if hits:
                return SearchOutcome(hits, Strategy.CORRECTED, did_you_mean)
        if len(query.words) > 1:
            hits = await self._store.search(corrected, any_word=True, limit=limit)
            if hits:
                return SearchOutcome(hits, Strategy.ANY_WORD, did_you_mean)
        return SearchOutcome([], Strategy.NONE, did_you_mean)
