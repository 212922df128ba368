"""Which paper a server gets next: a shuffled cycle through the catalog, reproducible by key.

Within a cycle, papers are ordered by `rank` — a SHA-256 of guild, cycle and paper id — so the
order is random-looking, differs per server and per cycle, and is recomputed identically after a
restart or a catalog reload without storing it. The caller stores only the cycle number and which
papers were posted in it. Papers added mid-cycle join it at their rank; removed (or filtered out)
papers are simply absent from `eligible_ids`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Choice:
    """The paper to post, and where it stands: "7 of 30 in this cycle" is `position`/`cycle_size`.

    `new_cycle` is true when every eligible paper had been posted in the given cycle, so `cycle`
    is one more than it: the caller starts a fresh posted set for it.
    """

    paper_id: str
    cycle: int
    position: int
    cycle_size: int
    new_cycle: bool = False
    recommended: bool = False
    """Picked by `pick:recommended` (counted in the cycle, so the cycle never repeats it)."""
    like: str | None = None
    """For a recommended pick, the group's liked paper its reason names."""


def rank(guild_id: int, cycle: int, paper_id: str) -> bytes:
    """The sort key of `paper_id` in `cycle` for `guild_id`: stable across runs and machines."""
    return hashlib.sha256(f"{guild_id}:{cycle}:{paper_id}".encode()).digest()


def cycle_order(eligible_ids: Iterable[str], guild_id: int, cycle: int) -> list[str]:
    """All of `eligible_ids` (deduplicated) in the order `cycle` posts them for `guild_id`."""
    return sorted(set(eligible_ids), key=lambda pid: (rank(guild_id, cycle, pid), pid))


def next_paper(eligible_ids: Iterable[str], posted_in_cycle: AbstractSet[str],
               guild_id: int, cycle: int, *, avoid: str | None = None) -> Choice | None:
    """The next paper for `guild_id`, or None if nothing is eligible.

    Picks the lowest-ranked eligible paper not in `posted_in_cycle`. When none is left, starts
    `cycle + 1` with all eligible papers (position 1). `avoid` (the paper posted last) keeps a
    new cycle from opening with the paper that closed the previous one: the second in its order
    goes first, and the first follows on the next call. Ids in `posted_in_cycle` that are no
    longer eligible do not count towards `position`.
    """
    eligible = set(eligible_ids)
    if not eligible:
        return None
    remaining = eligible - posted_in_cycle
    if remaining:
        return Choice(_lowest(remaining, guild_id, cycle), cycle,
                      position=len(eligible) - len(remaining) + 1, cycle_size=len(eligible))
    candidates = eligible - {avoid} if avoid is not None and len(eligible) > 1 else eligible
    return Choice(_lowest(candidates, guild_id, cycle + 1), cycle + 1, position=1,
                  cycle_size=len(eligible), new_cycle=True)


def _lowest(ids: set[str], guild_id: int, cycle: int) -> str:
    return min(ids, key=lambda pid: (rank(guild_id, cycle, pid), pid))
