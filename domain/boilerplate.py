"""Venue boilerplate: the words of a paper's comments and journal reference that say where and
how it was published, not what it is about.

`International Conference on Machine Learning`, `Proceedings`, `PMLR`, `16 pages, 8 figures`
and `Accepted at` are in most records; indexed, they made `learning` match a paper only through
its journal reference. The full-text index keeps the rest (acronyms such as `ICMLCN`, system
names, places), and the structured venue facts (conference, year, track, workshop, honours) are
indexed whole, so `/paper ICML` and `venue:` filters are unaffected.
"""

from __future__ import annotations

import re

from domain.text import clean

BOILERPLATE_WORDS = frozenset(
    # how venues name themselves
    "international conference conferences proceedings proc pmlr annual symposium journal "
    "volume vol transactions workshop workshops track main machine learning ieee acm "
    "association advances neural information processing systems society meeting forum "
    # how comments say a paper was accepted
    "accepted accept acceptance published publish presented present presentation appear "
    "appears appearing camera ready version final submitted submission preprint paper papers "
    "pages page figures figure fig tables table appendix appendices references supplementary "
    "material materials oral spotlight poster full short long "
    # function words
    "a an and are as at by for from in into is it its of on or our the this to with we be "
    "been has have was were will".split()
)
"""Case-folded words dropped from comments and journal references before indexing."""

_WORD = re.compile(r"[^\W_]+")


def without_boilerplate(text: str) -> str:
    """The words of `text` that are not venue boilerplate, space-separated."""
    return " ".join(
        word for word in _WORD.findall(clean(text)) if word.casefold() not in BOILERPLATE_WORDS
    )
