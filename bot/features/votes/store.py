"""The votes' store: ballots and the exactly-once close. The protocol is what the feature's
services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from domain.leases import Lease
from domain.polls import VoteStyle
from domain.reasons import Reason
from domain.votes import BallotOutcome, Vote, VoteOption


class VoteStore(Protocol):
    """Votes on the next paper and the exactly-once close."""

    async def open(self, guild_id: int, channel_id: int, created_by: int, opened_at: datetime,
                   ends_at: datetime, options: Sequence[VoteOption], *,
                   style: VoteStyle = VoteStyle.BUTTONS) -> Vote | None:
        """Open a vote (members vote with `style`); None when the server already has a live
        one."""
        ...

    async def set_message(self, vote_id: int, message_id: int) -> None:
        """Record the message that carries the vote's buttons (or its poll)."""
        ...

    async def get(self, vote_id: int) -> Vote | None:
        """One vote by id."""
        ...

    async def live(self, guild_id: int) -> Vote | None:
        """The server's open or closing vote, if any."""
        ...

    async def latest(self, guild_id: int) -> Vote | None:
        """The server's most recent vote of any status."""
        ...

    async def due(self, now: datetime) -> list[Vote]:
        """Open votes whose deadline has passed, in every server."""
        ...

    async def unfinished(self) -> list[Vote]:
        """Closes claimed but never recorded as announced."""
        ...

    async def cast(self, vote_id: int, user_id: int, paper_id: str,
                   at: datetime) -> BallotOutcome:
        """A member's ballot (a later click changes it) while the vote is open."""
        ...

    async def ballots(self, vote_id: int) -> dict[int, str]:
        """Member -> the paper they voted for."""
        ...

    async def claim(self, vote_id: int, winner: str, nonce: str, at: datetime, *,
                    early: bool, lease: Lease) -> bool:
        """Close an open vote with its winner, before announcing, leased to `lease.owner`;
        False if already closed."""
        ...

    async def hold(self, vote_id: int, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed close: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now`."""
        ...

    async def mark_announced(self, vote_id: int, message_id: int, at: datetime) -> None:
        """Record the announcement that was sent."""
        ...

    async def mark_failed(self, vote_id: int, reason: Reason, at: datetime) -> None:
        """Give up announcing (the channel is gone or closed to the bot); only a claimed
        close."""
        ...

    async def forget(self, user_id: int) -> int:
        """Delete a member's ballots everywhere; how many."""
        ...
