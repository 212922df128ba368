"""Typo correction is plausible or absent: no correction beats a wrong one."""

from __future__ import annotations

import pytest

from bot.core.fuzzy import Vocabulary, common_english_words

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
