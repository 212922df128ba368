"""Recommendation signals: what a server's members did with a paper, as the stores report it.

Most signals live in the tables of the feature that records them (bookmarks, the suggestion
queue, vote ballots, the discussed history); only 👍 / 👎 have a table of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class SignalKind(StrEnum):
    """What someone did with a paper."""

    BOOKMARKED = "bookmarked"
    SUGGESTED = "suggested"
    SUPPORTED = "supported"
    """A +1 on a paper someone else suggested."""
    VOTED = "voted"
    DISCUSSED = "discussed"
    """The group discussed it (no member: the server's history)."""
    PRESENTED = "presented"
    LIKED = "liked"
    """👍 "more like this"."""
    DISLIKED = "disliked"
    """👎 "not for me"."""


class Verdict(StrEnum):
    """A member's explicit feedback on a paper card."""

    UP = "up"
    DOWN = "down"

    @property
    def kind(self) -> SignalKind:
        """The signal this verdict stands for."""
        return SignalKind.LIKED if self is Verdict.UP else SignalKind.DISLIKED


@dataclass(frozen=True, slots=True)
class Signal:
    """One signal in one server; `user_id` is None for the group's own (a discussed paper) or
    for a member who asked to be forgotten."""

    user_id: int | None
    paper_id: str
    kind: SignalKind
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredFit:
    """A finished fit of the recommendation features, as stored."""

    revision: int
    catalog_version: int
    """The catalog's version when it was fitted."""
    papers: int
    """How many papers it was fitted on."""
    transformed: int
    """How many papers were transformed with it since (added or changed after the fit)."""
    vocabulary: bytes


@dataclass(frozen=True, slots=True)
class StoredVector:
    """One paper's feature row under a fit, and the content hash of the paper it came from."""

    paper_id: str
    content_hash: str
    vector: bytes


@dataclass(frozen=True, slots=True)
class CatalogLoad:
    """A load or add recorded since a fit: where it came from and how many papers it changed."""

    source: str
    changed: int
