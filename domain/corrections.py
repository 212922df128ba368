"""Corrections (纠错): a member's proposed fix to one field of a catalog paper, a curator's
decision, and the overlay of approved fixes a server sees (plain data)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class Field(StrEnum):
    """A field of a paper a member may correct."""

    TITLE_ZH = "title_zh"
    TITLE_EN = "title_en"
    SUMMARY_ZH = "summary_zh"
    SUMMARY_EN = "summary_en"
    """The English summary generated here, never the paper's abstract (the authors' text)."""
    AUTHORS = "authors"
    AFFILIATION_EN = "affiliation_en"
    """One affiliation's English name (`Target.position` says which)."""
    AFFILIATION_ZH = "affiliation_zh"
    CONFERENCE = "conference"
    YEAR = "year"
    TRACK = "track"
    WORKSHOP = "workshop"
    HONOURS = "honours"
    ARXIV_ID = "arxiv_id"

    @property
    def positional(self) -> bool:
        """Whether the field is one of a list (an affiliation) and needs a position."""
        return self in (Field.AFFILIATION_EN, Field.AFFILIATION_ZH)


class Status(StrEnum):
    """Where a proposal stands."""

    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    REVERTED = "reverted"


class Action(StrEnum):
    """One entry of a proposal's history."""

    PROPOSED = "proposed"
    APPROVED = "approved"
    REJECTED = "rejected"
    REVERTED = "reverted"
    SUPERSEDED = "superseded"
    """Another approved correction of the same field replaced it."""
    KEPT = "kept"
    """The source changed the field; the curators kept the correction over the new value."""
    DROPPED = "dropped"
    """The source changed the field; the curators dropped the correction for the new value."""
    IMPORTED = "imported"
    """Applied from a file (`paperclub corrections import`)."""


@dataclass(frozen=True, slots=True)
class Target:
    """What a correction changes: a field of a paper (and which affiliation, from 0)."""

    paper_id: str
    field: Field
    position: int = 0


@dataclass(frozen=True, slots=True)
class NewProposal:
    """A member's proposal as submitted (text already checked by the rules)."""

    guild_id: int
    target: Target
    old_value: str
    new_value: str
    reason: str
    proposed_by: int
    at: datetime


@dataclass(frozen=True, slots=True)
class Proposal:
    """A stored proposal; `proposed_by` / `decided_by` are None once the member is forgotten
    (shown as "a former member")."""

    id: int
    guild_id: int
    target: Target
    old_value: str
    new_value: str
    reason: str
    proposed_by: int | None
    created_at: datetime
    status: Status
    decided_by: int | None = None
    decided_at: datetime | None = None
    channel_id: int | None = None
    message_id: int | None = None
    """The review message, once posted."""
    source_value: str = ""
    """The source record's value of the field when the correction was approved (proposed,
    while pending): a reload that changes it asks the curators to decide again."""
    imported: bool = False
    """Applied from a file rather than proposed by a member (shown as "import")."""


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a proposal's history: who did what, when and why."""

    proposal_id: int
    action: Action
    actor_id: int | None
    at: datetime
    note: str = ""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """Where a server's proposals go and who decides (Manage Server always may)."""

    channel_id: int | None = None
    curator_role_id: int | None = None


@dataclass(frozen=True, slots=True)
class SourceNotice:
    """The curators' notice that the source changed a corrected field: the correction, the
    source's value when it was approved and now, and where the notice goes (or went)."""

    correction_id: int
    guild_id: int
    old_source: str
    new_source: str
    token: str
    """Random, one per notice: its nonce and the marker it is found by after a crash."""
    created_at: datetime
    channel_id: int | None = None
    message_id: int | None = None
    attempts: int = 0


@dataclass(frozen=True, slots=True)
class NoticeDecision:
    """The curators' decision on a source-change notice whose message is still to show it
    (its Keep / Drop buttons live until then)."""

    notice: SourceNotice
    kept: bool
    decided_by: int | None
    """None once the curator asked to be forgotten."""
    decided_at: datetime
