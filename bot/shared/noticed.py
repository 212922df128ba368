"""A command's result together with what its admins must hear first, once.

Several admin commands open with a notice taken in the same service call as the command's own
work (a paused paper of the day, paused feeds, stopped reminders): the cog makes one service
call and renders both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
N = TypeVar("N")


@dataclass(frozen=True, slots=True)
class Noticed(Generic[T, N]):
    """`result` of the command, and `notices` the admins had not been told yet (now marked
    told)."""

    result: T
    notices: tuple[N, ...] = ()
