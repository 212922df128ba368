"""Typo correction is plausible or absent: no correction beats a wrong one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from bot.core.fuzzy import Vocabulary, common_english_words, max_edits

VOCABULARY = Vocabulary([
    ("enea", 1), ("grokking", 9), ("vardi", 2), ("transformer", 30), ("regression", 12),
    ("anna", 3), ("three", 4), ("flow", 8), ("anima", 1), ("model", 40), ("mode", 5),
    ("whistleblowers", 1), ("bear", 2),
])


@pytest.mark.parametrize(("typed", "meant"), [
    ("grokkng", "grokking"), ("grokikng", "grokking"), ("vradi", "vardi"),
    ("trasnformer", "transformer"), ("regresion", "regression"), ("modle", "model"),
    ("trnasfromer", "transformer"), ("whistleblowr", "whistleblowers"),
])
def test_true_typos_are_corrected(typed: str, meant: str) -> None:
    assert VOCABULARY.correct(typed) == meant


@pytest.mark.parametrize("typed", [
    "near", "NEAR".casefold(), "there", "banana", "flower", "animal",  # common English words
    "grokking", "vardi",  # known words
    "vrda",  # two edits from vardi: too far for a short word
    "and", "not",  # too short
    "x2y2", "12345",
])
def test_non_typos_are_left_alone(typed: str) -> None:
    assert VOCABULARY.correct(typed) is None


def test_common_words_come_from_the_english_word_list() -> None:
    words = common_english_words()
    assert {"near", "there", "house"} <= words
    assert "grokkng" not in words and "enea" not in words


def _brute_force(vocabulary: list[tuple[str, int]], word: str) -> str | None:
    """The rule of `bot.core.fuzzy`, stated plainly over every known word."""
    known = dict(vocabulary)
    if len(word) < 4 or not word.isalpha() or word in known:
        return None
    edits = max_edits(word)
    close = [(OSA.distance(word, term), -count, term) for term, count in vocabulary
             if OSA.distance(word, term) <= edits and fuzz.ratio(word, term) >= 75.0]
    return min(close)[2] if close else None


_LETTERS = st.text(alphabet="abcdeoprst", min_size=4, max_size=12)


@settings(max_examples=300, deadline=None)
@given(terms=st.lists(st.tuples(_LETTERS, st.integers(1, 5)), min_size=1, max_size=40,
                      unique_by=lambda t: t[0]),
       typed=_LETTERS)
def test_the_candidate_filter_changes_no_correction(terms: list[tuple[str, int]],
                                                    typed: str) -> None:
    """Candidates are filtered by Indel distance before OSA is computed: the corrections must
    be exactly those of the rule over every word."""
    vocabulary = Vocabulary(terms, common=frozenset())
    assert vocabulary.correct(typed) == _brute_force(terms, typed)
