"""The corrections store. The protocol is what the feature's service depends on; `storage/`
implements it once per backend."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from domain.corrections import Event, NewProposal, Proposal, ReviewSettings, Status


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
                     at: datetime, note: str, source_value: str) -> Proposal | None:
        """Approve or reject a pending proposal, once: None when it is not pending any more.
        An approval supersedes the field's earlier approved correction and records the
        source's value of the field then (`source_value`)."""
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

    async def release_outcome_notice(self, proposal_id: int) -> None:
        """The proposer could not be told (closed DMs): the notice may be claimed again."""
        ...

    async def untold_outcomes(self, guild_id: int, user_id: int) -> list[Proposal]:
        """A member's decided proposals in a server whose outcome they were not told."""
        ...

    async def claim_source_change(self, proposal_id: int, at: datetime) -> bool:
        """True once per approval: the caller tells the curators the source changed."""
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
