"""Which papers a member (or the whole group) liked, turned down and has already seen."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from domain.recommend import Signal, SignalKind

MEMBER_WEIGHTS: dict[SignalKind, float] = {
    SignalKind.LIKED: 1.0, SignalKind.BOOKMARKED: 1.0, SignalKind.SUGGESTED: 1.0,
    SignalKind.PRESENTED: 1.0, SignalKind.VOTED: 0.7, SignalKind.SUPPORTED: 0.7,
}
"""How much each of a member's own signals says they like a paper."""
GROUP_WEIGHTS: dict[SignalKind, float] = {
    **MEMBER_WEIGHTS, SignalKind.DISCUSSED: 2.0, SignalKind.PRESENTED: 2.0, SignalKind.VOTED: 1.5,
}
"""The group's weights: the papers it discussed and voted for count most."""
GROUP_SEEN = frozenset({SignalKind.DISCUSSED, SignalKind.PRESENTED})
"""Signals that make a paper seen by everyone in the server."""


@dataclass(frozen=True, slots=True)
class Positive:
    """A liked paper: its summed weight and the strongest signal, named in reasons."""

    weight: float
    kind: SignalKind


@dataclass(frozen=True, slots=True)
class Profile:
    """What a ranking learns from and must leave out."""

    positives: dict[str, Positive]
    negatives: frozenset[str]
    seen: frozenset[str]
    """Never recommended: discussed, bookmarked, turned down, or otherwise already known."""


def _profile(signals: Iterable[Signal], weights: dict[SignalKind, float],
             seen: set[str]) -> Profile:
    totals: dict[str, float] = defaultdict(float)
    strongest: dict[str, tuple[float, SignalKind]] = {}
    disliked: set[str] = set()
    for signal in signals:
        seen.add(signal.paper_id)
        if signal.kind is SignalKind.DISLIKED:
            disliked.add(signal.paper_id)
            continue
        weight = weights.get(signal.kind, 0.0)
        if weight <= 0:
            continue
        totals[signal.paper_id] += weight
        best = strongest.get(signal.paper_id)
        if best is None or (weight, signal.kind) > best:
            strongest[signal.paper_id] = (weight, signal.kind)
    positives = {pid: Positive(totals[pid], strongest[pid][1])
                 for pid in sorted(totals) if pid not in disliked or weights is GROUP_WEIGHTS}
    negatives = frozenset(disliked - set(positives))
    return Profile(positives, negatives, frozenset(seen))


def member_profile(signals: Iterable[Signal], user_id: int) -> Profile:
    """A member's own signals; the group's discussed papers are seen by them too."""
    signals = list(signals)
    seen = {s.paper_id for s in signals if s.kind in GROUP_SEEN}
    return _profile((s for s in signals if s.user_id == user_id), MEMBER_WEIGHTS, seen)


def group_profile(signals: Iterable[Signal]) -> Profile:
    """Everyone's signals; a paper someone turned down and nobody liked is a negative."""
    return _profile(signals, GROUP_WEIGHTS, set())


def seed_profile(paper_ids: Iterable[str], kind: SignalKind = SignalKind.LIKED) -> Profile:
    """A profile of chosen papers alone (the bench's members, `similar`)."""
    ids = sorted(set(paper_ids))
    return Profile({pid: Positive(1.0, kind) for pid in ids}, frozenset(), frozenset(ids))
