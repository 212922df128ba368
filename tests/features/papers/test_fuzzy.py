"""Typo correction is plausible or absent: no correction beats a wrong one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from bot.features.papers.fuzzy import Vocabulary, common_english_words, max_edits

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
    """The rule of `bot.features.papers.fuzzy`, stated plainly over every known word."""
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


@st.composite
def _near_words(draw: st.DrawFn) -> tuple[str, list[tuple[str, int]]]:
    """A typed word and a vocabulary of words one to three edits from it (and a few others), so
    that corrections one and two edits away compete, and lengths on both sides occur."""
    typed = draw(_LETTERS)
    terms: dict[str, int] = {}
    for _ in range(draw(st.integers(1, 12))):
        word = list(typed)
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(word) - 1))
            edit = draw(st.sampled_from(["insert", "delete", "substitute", "swap"]))
            letter = draw(st.sampled_from("abcdeoprst"))
            if edit == "insert":
                word.insert(at, letter)
            elif edit == "delete" and len(word) > 1:
                del word[at]
            elif edit == "substitute":
                word[at] = letter
            elif at + 1 < len(word):
                word[at], word[at + 1] = word[at + 1], word[at]
        if len(word) >= 4:  # shorter words are never in the vocabulary
            terms["".join(word)] = draw(st.integers(1, 5))
    for other in draw(st.lists(_LETTERS, max_size=5)):
        terms[other] = draw(st.integers(1, 5))
    return typed, list(terms.items())


@settings(max_examples=500, deadline=None)
@given(case=_near_words())
def test_one_edit_first_changes_no_correction(case: tuple[str, list[tuple[str, int]]]) -> None:
    """Words one edit away are looked for before words two away: the corrections must be
    exactly those of the rule over every word, with both kinds of neighbour present."""
    typed, terms = case
    vocabulary = Vocabulary(terms, common=frozenset())
    assert vocabulary.correct(typed) == _brute_force(terms, typed)


def test_a_built_vocabulary_holds_no_container_the_garbage_collector_walks() -> None:
    """A full collection walks every tracked container with the GIL taken (the event loop's
    longest pauses): the vocabulary's tens of thousands of words must not be among them."""
    import gc

    vocabulary = Vocabulary([(f"word{n:05d}x", n) for n in range(5_000)], common=frozenset())
    gc.collect()
    held = [value for value in vars(vocabulary).values() if isinstance(value, dict)]
    held += [words for groups in held for words in groups.values()]
    assert held and not any(gc.is_tracked(value) for value in held)
