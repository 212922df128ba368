"""The presenter rotation, pure: who presents next, deterministically, and why.

Each time a session is scheduled with a presenter the server's rotation turn advances and the
presenter's `last_turn` becomes that turn. `/present skip` gives a member's place to the others
(their `last_turn` becomes the current turn without counting a presentation); `/present swap`
exchanges two members' places. The proposal is the volunteer whose turn came longest ago
(never first), then who presented least, then who volunteered first; never the previous
presenter when anyone else is available.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.sessions import Volunteer


@dataclass(frozen=True, slots=True)
class Proposal:
    """The proposed presenter and how many rotation turns before the next one they last had a
    turn (1: the previous turn), or None when they never presented (a turn skipped is not a
    presentation). A turn is taken when a session is scheduled, so it may not be held yet."""

    user_id: int
    turns_ago: int | None


def _order(volunteer: Volunteer) -> tuple[bool, int, int, int, int]:
    never = volunteer.last_turn is None
    return (not never, volunteer.last_turn or 0, volunteer.presented, volunteer.joined,
            volunteer.user_id)


def propose(volunteers: Sequence[Volunteer], turn: int,
            last_presenter: int | None) -> Proposal | None:
    """The next presenter among `volunteers` at rotation `turn` (the turns taken so far)."""
    if not volunteers:
        return None
    ranked = sorted(volunteers, key=_order)
    others = [v for v in ranked if v.user_id != last_presenter]
    chosen = others[0] if others else ranked[0]
    never = chosen.last_turn is None or chosen.presented == 0
    ago = None if never else turn + 1 - (chosen.last_turn or 0)
    return Proposal(chosen.user_id, ago)


def after_presenting(volunteers: Sequence[Volunteer], presenter: int,
                     turn: int) -> list[Volunteer]:
    """The volunteers once `presenter` took rotation `turn` (a non-volunteer changes nothing)."""
    return [Volunteer(v.user_id, v.joined, turn, v.presented + 1) if v.user_id == presenter
            else v for v in volunteers]
