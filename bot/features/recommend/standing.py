"""Where papers stand in a member's own ranking, 0-100: what "papers like my bookmarks" reads.

A paper's standing is the share of the catalog's other papers (neither the papers asked about
nor the ones the member liked) that the recommend model scores below it, in whole percent:
90 means it would rank above 90% of the catalog for that member. Only liked papers count
(👍 and bookmarks), and 👎 as negatives, so what a member suggested or voted for for the group
does not make papers "like theirs".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from bot.features.recommend import model
from bot.features.recommend.features import FeatureIndex
from bot.features.recommend.profile import member_profile
from domain.recommend import Signal, SignalKind

LIKE_KINDS = frozenset({SignalKind.LIKED, SignalKind.BOOKMARKED, SignalKind.DISLIKED})
"""The signals a member's "papers like mine" learns from."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's liked papers (how many) and each asked-about paper's standing, 0-100."""

    liked: int
    of: dict[str, int]


def likes_of(signals: Iterable[Signal], user_id: int) -> list[Signal]:
    """A member's 👍, bookmarks and 👎 among a server's signals."""
    return [s for s in signals if s.user_id == user_id and s.kind in LIKE_KINDS]


def standing(index: FeatureIndex, signals: Sequence[Signal], user_id: int,
             paper_ids: Sequence[str]) -> Standing:
    """Each of `paper_ids` (in the index) in the member's ranking; empty without liked papers."""
    profile = member_profile(likes_of(signals, user_id), user_id)
    liked = sum(1 for pid in profile.positives if index.row(pid) is not None)
    score = model.scores(index, profile) if liked else np.zeros(0)
    if not len(score):
        return Standing(liked, {})
    asked = {pid: row for pid in paper_ids if (row := index.row(pid)) is not None}
    reference = np.ones(len(score), dtype=bool)
    reference[list(asked.values())] = False
    reference[[r for pid in profile.positives if (r := index.row(pid)) is not None]] = False
    below = np.sort(score[reference])
    if not len(below):
        return Standing(liked, dict.fromkeys(asked, 100))
    return Standing(liked, {
        pid: math.floor(100 * int(np.searchsorted(below, score[row], side="left")) / len(below))
        for pid, row in sorted(asked.items())})
