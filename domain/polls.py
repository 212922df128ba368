"""Whether a vote fits a native Discord poll, and the poll's texts when it does (pure).

Discord's limits: a question of at most 300 characters, 1 to 10 answers of at most 55
characters each, a duration of whole hours from 1 to 768 (32 days). A title over 55 characters
is shortened with an ellipsis, but only while the shortened answers stay distinct (compared
without case or spacing): two titles that share their first 54 characters fall back to buttons.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

QUESTION_LIMIT = 300
ANSWER_LIMIT = 55
MAX_ANSWERS = 10
MIN_POLL_HOURS = 1
MAX_POLL_HOURS = 768
ELLIPSIS = "…"


class VoteStyle(StrEnum):
    """How members vote: the bot's buttons, or Discord's own poll."""

    BUTTONS = "buttons"
    POLL = "poll"


class Unfit(StrEnum):
    """Why a vote cannot be a native poll (the organiser is told, in their language)."""

    TOO_MANY = "too_many"
    AMBIGUOUS = "ambiguous"
    DURATION = "duration"
    PERMISSION = "permission"
    """paperclub may not send polls in the channel (Send Polls)."""


@dataclass(frozen=True, slots=True)
class PollPlan:
    """The poll to post: its question, one answer per option in order, and whole hours."""

    question: str
    answers: tuple[str, ...]
    hours: int
    shortened: int
    """How many answers were cut to fit."""


def poll_hours(duration: timedelta) -> int:
    """The vote's duration rounded up to whole hours (Discord's polls last whole hours)."""
    return max(1, math.ceil(duration.total_seconds() / 3600))


def shorten(text: str, limit: int = ANSWER_LIMIT) -> str:
    """`text` in at most `limit` characters: cut at a character, trailing space dropped, with
    an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit - 1].rstrip() + ELLIPSIS


def _key(text: str) -> str:
    return "".join(text.casefold().split())


def plan_poll(question: str, titles: Sequence[str],
              duration: timedelta) -> PollPlan | Unfit:
    """The poll for these option titles (in order), or why there cannot be one."""
    if not 1 <= len(titles) <= MAX_ANSWERS:
        return Unfit.TOO_MANY
    hours = poll_hours(duration)
    if not MIN_POLL_HOURS <= hours <= MAX_POLL_HOURS:
        return Unfit.DURATION
    answers = tuple(shorten(t) for t in titles)
    if len({_key(a) for a in answers}) != len(answers) or not all(answers):
        return Unfit.AMBIGUOUS
    shortened = sum(1 for t, a in zip(titles, answers, strict=True) if a != " ".join(t.split()))
    return PollPlan(shorten(question, QUESTION_LIMIT), answers, hours, shortened)


def answer_positions(answer_ids: Sequence[int]) -> dict[int, int]:
    """Discord numbers a poll's answers; the option at position n is the n-th answer."""
    return {answer_id: n for n, answer_id in enumerate(answer_ids, start=1)}
