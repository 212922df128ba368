"""The corrections store. The protocol is what the feature's service depends on; `storage/`
implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from domain.corrections import (
    Event,
    NewProposal,
    NoticeDecision,
    Proposal,
    ReviewSettings,
    SourceNotice,
    Status,
)
from domain.leases import Lease


class CorrectionStore(Protocol):
    """Proposed corrections per server, their decisions and history, and where they are
    reviewed. A decision is claimed once: of two curators (or two processes) deciding the same
    proposal, one gets the proposal back and the other None."""

    async def propose(self, proposal: NewProposal) -> Proposal:
        """Store a pending proposal (and its "proposed" event)."""
        ...

    async def proposal(self, guild_id: int, proposal_id: int) -> Proposal | None:
        """One of a server's proposals, or None (another server's is None too)."""
        ...

    async def proposals(self, guild_id: int, *, status: Status | None = None,
                        paper_id: str | None = None, limit: int = 50) -> list[Proposal]:
        """A server's proposals, newest first, optionally of one status or paper."""
        ...

    async def approved(self, guild_id: int, paper_ids: Sequence[str]) -> list[Proposal]:
        """The approved corrections of these papers in a server, in the order they were
        decided (a later one of the same field wins)."""
        ...

    async def decide(self, guild_id: int, proposal_id: int, status: Status, by: int,
                     at: datetime, note: str, source_value: str,
                     lease: Lease | None = None) -> Proposal | None:
        """Approve or reject a pending proposal, once: None when it is not pending any more.
        An approval supersedes the field's earlier approved correction and records the
        source's value of the field then (`source_value`). The same transaction queues the
        proposer's DM in the outbox and marks the review message due (leased to `lease`, the
        process answering the click)."""
        ...

    async def claim_review(self, lease: Lease, now: datetime) -> Proposal | None:
        """Lease the oldest decided proposal whose review message does not show its
        decision yet (its lease free at `now`)."""
        ...

    async def review_shown(self, proposal_id: int) -> None:
        """The proposal's review message shows its decision."""
        ...

    async def import_approved(self, proposal: NewProposal, source_value: str) -> Proposal:
        """Store an approved correction applied from a file (no member proposed or decided
        it; its "imported" event carries the reason), superseding the field's earlier one."""
        ...

    async def revert(self, guild_id: int, proposal_id: int, by: int, at: datetime,
                     note: str) -> Proposal | None:
        """Withdraw an approved correction, once: None when it is not approved."""
        ...

    async def history(self, guild_id: int, paper_id: str) -> list[Event]:
        """Every event of a server's proposals for a paper, oldest first."""
        ...

    async def set_review_message(self, proposal_id: int, channel_id: int,
                                 message_id: int) -> None:
        """Where the proposal's review message was posted."""
        ...

    async def claim_outcome_notice(self, proposal_id: int) -> bool:
        """True once per proposal: the caller tells the proposer the outcome."""
        ...

    async def untold_outcomes(self, guild_id: int, user_id: int) -> list[Proposal]:
        """A member's decided proposals in a server whose outcome they were not told."""
        ...

    async def review_settings(self, guild_id: int) -> ReviewSettings:
        """Where a server reviews proposals (defaults when never set)."""
        ...

    async def set_review_settings(self, guild_id: int, settings: ReviewSettings) -> None:
        """Replace a server's review channel and curator role."""
        ...

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from every proposal and event; the corrections stay. How
        many corrections named them."""
        ...


class SourceNoticeStore(Protocol):
    """The curators' notices that a source changed a corrected field. A notice is queued once
    per approval (a second reload, or a second process, queues nothing), claimed with a lease
    before it is sent, marked posted after, and deleted by the one decision that keeps or
    drops the correction; that decision is stored with the posted notice's message due, which
    is marked shown once the message was edited."""

    async def watched(self) -> list[Proposal]:
        """Every server's approved corrections with no notice open (the ones a source change
        would be news about)."""
        ...

    async def queue(self, proposal_id: int, new_source: str, token: str,
                    at: datetime) -> bool:
        """Queue the notice (named by `token`) for an approved correction, once: False when
        one was queued since its approval (or it is not approved any more)."""
        ...

    async def claim(self, lease: Lease, now: datetime) -> SourceNotice | None:
        """Lease the oldest notice not posted yet whose server has a review channel (never
        leased, or its lease expired), with the channel it goes to; None when none is due."""
        ...

    async def posted(self, proposal_id: int, owner: str, channel_id: int,
                     message_id: int) -> bool:
        """Record where the notice was posted (while `owner` holds it)."""
        ...

    async def retry_later(self, proposal_id: int, owner: str, not_before: datetime) -> None:
        """Give the notice back, claimable again from `not_before`."""
        ...

    async def notice(self, proposal_id: int) -> SourceNotice | None:
        """The correction's open notice, or None."""
        ...

    async def decide(self, guild_id: int, proposal_id: int, *, keep: bool, by: int,
                     at: datetime, lease: Lease | None = None) -> Proposal | None:
        """Keep the correction (the new source value becomes the one it is compared with) or
        drop it (withdrawn, the source shown again), once: None when the notice was decided
        already or the correction is not approved any more. When the notice was posted, the
        same transaction marks its message due to show the decision (leased to `lease`, the
        process answering the click)."""
        ...

    async def claim_decision(self, lease: Lease, now: datetime) -> NoticeDecision | None:
        """Lease the oldest decision whose notice's message does not show it yet (its lease
        free at `now`); None when none is due."""
        ...

    async def decision_shown(self, proposal_id: int, token: str) -> None:
        """The message of the notice named by `token` shows its decision."""
        ...
