"""The presenter rotation: deterministic, explained, and fair."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from bot.features.presenters.rotation import Proposal, after_presenting, propose
from domain.sessions import Volunteer


def _run(volunteers: list[Volunteer], sessions: int) -> list[int]:
    presenters: list[int] = []
    for turn in range(sessions):
        proposal = propose(volunteers, turn, presenters[-1] if presenters else None)
        assert proposal is not None
        presenters.append(proposal.user_id)
        volunteers = after_presenting(volunteers, proposal.user_id, turn + 1)
    return presenters


@given(st.integers(min_value=1, max_value=12), st.integers(min_value=0, max_value=60))
def test_counts_differ_by_at_most_one_when_nobody_skips(k: int, n: int) -> None:
    presenters = _run([Volunteer(100 + i, joined=i + 1) for i in range(k)], n)
    counts = Counter(presenters)
    per_volunteer = [counts[100 + i] for i in range(k)]
    assert max(per_volunteer) - min(per_volunteer) <= 1


@given(st.integers(min_value=2, max_value=8), st.integers(min_value=2, max_value=40))
def test_never_the_same_presenter_twice_in_a_row_when_others_volunteer(k: int, n: int) -> None:
    presenters = _run([Volunteer(100 + i, joined=i + 1) for i in range(k)], n)
    assert all(a != b for a, b in pairwise(presenters))


def test_the_previous_presenter_is_passed_over_even_if_least_recent() -> None:
    volunteers = [Volunteer(1, joined=1, last_turn=None), Volunteer(2, joined=2, last_turn=3)]
    assert propose(volunteers, 3, last_presenter=1) == propose(volunteers[1:], 3, None)


def test_explained_as_sessions_ago_and_deterministic() -> None:
    volunteers = [Volunteer(7, joined=2, last_turn=2, presented=1),
                  Volunteer(5, joined=1, last_turn=4, presented=2)]
    proposal = propose(volunteers, 4, last_presenter=5)
    assert proposal is not None and (proposal.user_id, proposal.turns_ago) == (7, 3)
    assert propose(list(reversed(volunteers)), 4, last_presenter=5) == proposal
    assert propose([], 0, None) is None
    lone = [Volunteer(9, joined=1, last_turn=1, presented=1)]
    assert propose(lone, 1, last_presenter=9) is not None


def test_a_skipped_turn_is_not_a_presentation() -> None:
    skipped = [Volunteer(7, joined=1, last_turn=3, presented=0)]
    assert propose(skipped, 4, last_presenter=None) == Proposal(7, None)
