"""A command's result together with what its admins must hear first, once.

Several admin commands open with a notice taken in the same service call as the command's own
work (a paused paper of the day, paused feeds, stopped reminders): the cog makes one service
call and renders both.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
N = TypeVar("N")


async def already_told() -> None:
    """Notices marked told when they were taken: nothing left to do once sent."""


@dataclass(frozen=True, slots=True)
class Noticed(Generic[T, N]):
    """`result` of the command, and `notices` the admins had not been told yet."""

    result: T
    notices: tuple[N, ...] = ()
    told: Callable[[], Awaitable[None]] = already_told
    """What the cog runs once the answer carrying `notices` was sent: marks them told where
    taking them only claimed them (the paper of the day's pause note), so that an answer that
    fails leaves them to a later command."""
