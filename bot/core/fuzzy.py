"""Typo tolerance: correct query words against the catalog's vocabulary with rapidfuzz."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from rapidfuzz import fuzz, process

from bot.core.text import has_cjk

MIN_WORD_CHARS = 4
LENGTH_SLACK = 2


class Vocabulary:
    """Indexed words grouped by length, so a lookup compares only words of similar length."""

    def __init__(self, terms: Iterable[tuple[str, int]], threshold: float = 75.0) -> None:
        self._threshold = threshold
        self._known: set[str] = set()
        self._by_length: dict[int, list[str]] = defaultdict(list)
        self._frequency: dict[str, int] = {}
        for term, documents in terms:
            if len(term) < MIN_WORD_CHARS or has_cjk(term) or term.isdigit():
                continue
            self._known.add(term)
            self._by_length[len(term)].append(term)
            self._frequency[term] = documents

    def __len__(self) -> int:
        return len(self._known)

    def correct(self, word: str) -> str | None:
        """The closest known word if `word` itself is unknown and one is close enough."""
        if len(word) < MIN_WORD_CHARS or has_cjk(word) or word in self._known:
            return None
        best: tuple[float, int, str] | None = None
        for length in range(len(word) - LENGTH_SLACK, len(word) + LENGTH_SLACK + 1):
            candidates = self._by_length.get(length)
            if not candidates:
                continue
            found = process.extractOne(
                word, candidates, scorer=fuzz.ratio, score_cutoff=self._threshold
            )
            if found is None:
                continue
            term, score = found[0], found[1]
            rank = (score, self._frequency[term], term)
            if best is None or rank[:2] > best[:2]:
                best = rank
        return best[2] if best else None

    def completions(self, prefix: str, limit: int = 25) -> list[str]:
        """Known words starting with `prefix`, the most widespread first."""
        prefix = prefix.casefold()
        found = [t for t in self._frequency if t.startswith(prefix)] if prefix else []
        return sorted(found, key=lambda t: (-self._frequency[t], t))[:limit]

    def correct_words(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """Each word replaced by its correction where it has one."""
        return tuple(self.correct(w) or w for w in words)
