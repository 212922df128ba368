"""Whether a vote fits a native poll: Discord's limits always hold for a plan, shortened
answers never collide, and the duration is the vote's rounded up to whole hours."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from domain.polls import (
    ANSWER_LIMIT,
    ELLIPSIS,
    QUESTION_LIMIT,
    PollPlan,
    Unfit,
    answer_positions,
    plan_poll,
    poll_hours,
    shorten,
)

TITLES = st.lists(st.text(min_size=1, max_size=120).filter(str.strip), min_size=1, max_size=12)


@given(TITLES, st.text(max_size=400), st.integers(min_value=1, max_value=800 * 3600))
def test_a_plan_always_fits_discord_and_its_answers_stay_distinct(
        titles: list[str], question: str, seconds: int) -> None:
    plan = plan_poll(question or "q", titles, timedelta(seconds=seconds))
    if isinstance(plan, Unfit):
        return
    assert len(plan.answers) == len(titles) <= 10
    assert all(1 <= len(a) <= ANSWER_LIMIT for a in plan.answers)
    assert len(plan.question) <= QUESTION_LIMIT
    assert len({"".join(a.casefold().split()) for a in plan.answers}) == len(plan.answers)
    assert 1 <= plan.hours <= 768 and plan.hours * 3600 >= seconds > (plan.hours - 1) * 3600


def test_why_a_vote_is_not_a_poll() -> None:
    hour = timedelta(hours=1)
    assert plan_poll("q", [f"p{n}" for n in range(11)], hour) is Unfit.TOO_MANY
    same = "x" * 60
    assert plan_poll("q", [same + "a", same + "b"], hour) is Unfit.AMBIGUOUS
    assert plan_poll("q", ["Grokking", "grok king"], hour) is Unfit.AMBIGUOUS
    assert plan_poll("q", ["a", "b"], timedelta(hours=768, seconds=1)) is Unfit.DURATION
    plan = plan_poll("q", ["a" * 80, "b"], timedelta(minutes=1))
    assert isinstance(plan, PollPlan) and plan.hours == 1 and plan.shortened == 1


def test_shortening_cuts_at_a_character_and_drops_trailing_space() -> None:
    assert shorten("short title") == "short title"
    assert shorten("word " * 20) == ("word " * 11).rstrip() + ELLIPSIS
    assert len(shorten("字" * 100)) == ANSWER_LIMIT
    assert poll_hours(timedelta(hours=2)) == 2 and poll_hours(timedelta(minutes=121)) == 3
    assert answer_positions([7, 3, 9]) == {7: 1, 3: 2, 9: 3}
