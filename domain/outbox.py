"""The notification outbox: one row per member and paper to tell, grouped into units (one
Discord message each) that a process claims with a lease, sends, and then deletes while
recording the members as told."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.nonce import nonce_of
from domain.subscriptions import Delivery


class OutboxKind(StrEnum):
    """What a unit sends: a paper-of-the-day DM, a new-papers DM, follow-up mentions, or a
    correction's outcome to its proposer."""

    DIGEST_DM = "digest_dm"
    NEW_PAPERS_DM = "new_papers_dm"
    MENTION = "mention"
    CORRECTION_DM = "correction_dm"

    @property
    def via(self) -> Delivery:
        """How the members of such a unit are recorded as told."""
        return Delivery.MENTION if self is OutboxKind.MENTION else Delivery.DM

    @property
    def is_dm(self) -> bool:
        """A direct message (refused with 50007 when the member's DMs are closed)."""
        return self is not OutboxKind.MENTION


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """One member to tell about one paper; `channel_id` is where mentions go."""

    guild_id: int
    user_id: int
    paper_id: str
    topics: tuple[str, ...] = ()
    channel_id: int | None = None
    link: str | None = None


@dataclass(frozen=True, slots=True)
class OutboxUnit:
    """One message to send: its key, kind, entries (one per member and paper) and how many
    times it was claimed (this claim included)."""

    key: str
    kind: OutboxKind
    entries: tuple[OutboxEntry, ...]
    attempts: int = 1

    @property
    def guild_id(self) -> int:
        """The server the unit is about."""
        return self.entries[0].guild_id

    @property
    def nonce(self) -> str:
        """Derived from the key: a resend after a crash is deduplicated by Discord for a few
        minutes (`enforce_nonce`)."""
        return nonce_of(self.key)


CORRECTION_SUBJECT = "correction:"
"""A correction's outcome DM is about `correction:<id>` where a paper's DM is about a paper id:
the ledger records its proposer as told about that correction, once."""


def correction_subject(proposal_id: int) -> str:
    """The outbox's subject of a correction's outcome."""
    return f"{CORRECTION_SUBJECT}{proposal_id}"


def correction_of(subject: str) -> int | None:
    """The correction a subject names, or None for a paper."""
    head, _, number = subject.partition(":")
    if f"{head}:" != CORRECTION_SUBJECT or not number.isdigit():
        return None
    return int(number)
