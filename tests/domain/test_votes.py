"""The vote's winner: most votes, then queue support, then the older suggestion."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from domain.votes import VoteOption, tally, winner

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _options(supports: list[int]) -> tuple[VoteOption, ...]:
    return tuple(VoteOption(n, f"p{n}", support, T0 + timedelta(minutes=n))
                 for n, support in enumerate(supports, start=1))


def test_most_votes_then_support_then_age() -> None:
    options = _options([1, 3, 3])
    assert winner(options, {"p1": 2, "p2": 1, "p3": 1}).paper_id == "p1"
    assert winner(options, {"p1": 1, "p2": 1, "p3": 1}).paper_id == "p2"
    assert winner(options, {}).paper_id == "p2"
    assert tally(options, {7: "p3", 8: "p3", 9: "gone"}) == {"p1": 0, "p2": 0, "p3": 2}


@given(st.lists(st.integers(1, 5), min_size=2, max_size=10),
       st.lists(st.integers(1, 10), max_size=30))
def test_the_winner_has_the_most_votes_and_does_not_depend_on_ballot_order(
        supports: list[int], picks: list[int]) -> None:
    options = _options(supports)
    ballots = {user: f"p{min(pick, len(options))}" for user, pick in enumerate(picks)}
    counts = tally(options, ballots)
    best = winner(options, counts)
    assert counts[best.paper_id] == max(counts.values())
    reordered = dict(reversed(list(ballots.items())))
    assert winner(tuple(reversed(options)), tally(options, reordered)) == best
