"""Typo tolerance: correct query words against the catalog's vocabulary with rapidfuzz.

A correction must be plausible, and none is better than a wrong one (`near` once became the
author's first name `enea`):
- a word that is in the catalog, or is a common English word (pyspellchecker's English word
  frequencies), is never corrected: it is not a typo, only absent from the matching papers;
- the correction is at most one edit away (insertion, deletion, substitution or swap of two
  neighbouring letters, counted by rapidfuzz's OSA distance), two for words of
  `LONG_WORD_CHARS` letters or more;
- and its rapidfuzz similarity ratio is at least the threshold (`search.fuzzy_threshold`);
- among equally close words, the one in the most papers wins.
`bench catalog` measures precision and recall on a labelled set of typos and non-typos.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA, Indel
from spellchecker import SpellChecker

from domain.text import has_cjk

MIN_WORD_CHARS = 4
LONG_WORD_CHARS = 8
"""Words this long may be two edits from their correction; shorter ones one edit."""
COMMON_WORD_MIN_COUNT = 500
"""A word counted this often in pyspellchecker's English corpus is a word, not a typo."""


@lru_cache(maxsize=1)
def common_english_words() -> frozenset[str]:
    """English words frequent enough never to be taken for a typo (loaded once, ~0.5 s)."""
    counts = SpellChecker(language="en", distance=1).word_frequency.dictionary
    return frozenset(word for word, n in counts.items() if n >= COMMON_WORD_MIN_COUNT)


def max_edits(word: str) -> int:
    """How many edits a correction of `word` may be away."""
    return 2 if len(word) >= LONG_WORD_CHARS else 1


class Vocabulary:
    """Indexed words grouped by length, and by length and first letter, so a lookup compares
    only words of similar length (and, one edit away, mostly the same first letter)."""

    def __init__(self, terms: Iterable[tuple[str, int]], threshold: float = 75.0,
                 common: frozenset[str] | None = None) -> None:
        self._threshold = threshold
        self._common = common_english_words() if common is None else common
        by_length: dict[int, list[str]] = defaultdict(list)
        by_start: dict[tuple[int, str], list[str]] = defaultdict(list)
        self._frequency: dict[str, int] = {}
        for term, documents in terms:
            if len(term) < MIN_WORD_CHARS or has_cjk(term) or term.isdigit():
                continue
            by_length[len(term)].append(term)
            self._frequency[term] = documents
        # Fresh copies, allocated one after another: a lookup reads every word of a few
        # lengths, and words scattered over a long-lived heap made it ~1.5x slower (index
        # terms hold no line breaks). Sorted, so each first letter's words are side by side
        # too; the groups by first letter share the copies.
        for length, words in by_length.items():
            words.sort()
            by_length[length] = copies = "\n".join(words).split("\n")
            for term in copies:
                by_start[length, term[0]].append(term)
        # Tuples of words and a dict of words to counts hold nothing the cyclic garbage
        # collector must follow, so it stops tracking them: a full collection, which walks
        # every tracked container with the GIL taken, skips the vocabulary's words.
        self._by_length = {length: tuple(words) for length, words in by_length.items()}
        self._by_start = {key: tuple(words) for key, words in by_start.items()}
        self._starts = frozenset(start for _, start in self._by_start)

    def __len__(self) -> int:
        return len(self._frequency)

    def correct(self, word: str) -> str | None:
        """The closest known word if `word` is a plausible typo of one (see the module doc)."""
        if (len(word) < MIN_WORD_CHARS or has_cjk(word) or not word.isalpha()
                or word in self._frequency or word in self._common):
            return None
        # One edit first: most typos are one edit, and a word one edit away outranks every
        # word two away, so the wider scan (five lengths, twice the Indel cutoff) runs only
        # when no word one edit away qualifies.
        best = self._closest(word, 1, self._one_edit_candidates(word))
        if best is None and max_edits(word) == 2:
            best = self._closest(word, 2, self._scan(word, self._by_length.get, 2))
        return best

    @staticmethod
    def _scan(word: str, bucket: Callable[[int], Sequence[str] | None], edits: int
              ) -> Iterator[str]:
        """Words of the lengths `edits` edits can reach, from `bucket(length)`, filtered by
        Indel distance (insertions and deletions only), which is at most twice OSA and about
        twice as fast to compute: a cheap exact filter before the OSA distance itself."""
        for length in range(len(word) - edits, len(word) + edits + 1):
            candidates = bucket(length)
            if candidates:
                for term, _, _ in process.extract(word, candidates, scorer=Indel.distance,
                                                  score_cutoff=2 * edits, limit=None):
                    yield term

    def _one_edit_candidates(self, word: str) -> Iterator[str]:
        """Every known word one edit from `word` may be, and few others: an edit that keeps
        the first letter leaves a word of the same first letter (scanned, a 26th of the
        lengths' words), and one that changes it is one of four shapes, looked up."""
        first, rest = word[0], word[1:]
        yield from self._scan(word, lambda length: self._by_start.get((length, first)), 1)
        shapes = [rest, rest[:1] + first + rest[1:]]  # first letter deleted; first two swapped
        shapes += [start + rest for start in self._starts]  # first letter replaced
        shapes += [start + word for start in self._starts]  # a letter put before
        yield from (t for t in shapes if t[:1] != first and t in self._frequency)

    def _closest(self, word: str, edits: int, candidates: Iterable[str]) -> str | None:
        """Among `candidates`, the best-ranked word at most `edits` edits from `word` that
        passes the ratio threshold: fewest edits, then most papers, then alphabetical."""
        best: tuple[int, int, str] | None = None
        for term in candidates:
            distance = OSA.distance(word, term, score_cutoff=edits)
            if distance > edits or fuzz.ratio(word, term) < self._threshold:
                continue
            rank = (int(distance), -self._frequency[term], term)
            if best is None or rank < best:
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
