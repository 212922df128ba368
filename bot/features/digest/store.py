"""The paper of the day's store: settings per server and the exactly-once ledger. The protocol is
what the feature's services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Protocol

from domain.digest import Claim, DigestConfig, LedgerEntry
from domain.leases import Lease
from domain.reasons import Reason


class DigestStore(Protocol):
    """Paper-of-the-day settings per server and the exactly-once ledger."""

    async def save_config(self, config: DigestConfig) -> None:
        """Create or replace a server's settings (re-enabling it and clearing failures)."""
        ...

    async def config(self, guild_id: int) -> DigestConfig | None:
        """A server's settings, or None."""
        ...

    async def active_configs(self) -> list[DigestConfig]:
        """Servers whose digest is on and not paused."""
        ...

    async def disable(self, guild_id: int) -> bool:
        """Turn a server's digest off; False if it had none."""
        ...

    async def claim_failure_notice(self, guild_id: int, lease: Lease,
                                   now: datetime) -> Reason | None:
        """The pause reason if admins have not been told yet and no answer is telling them
        (its lease free at `now`), leased to `lease.owner`; None otherwise."""
        ...

    async def failure_notice_given(self, guild_id: int, owner: str) -> None:
        """The answer carrying the pause note (held by `owner`) was sent: the admins are
        told, and are not told again."""
        ...

    async def last_handled(self, guild_id: int) -> date | None:
        """The latest local date with a ledger row (any status)."""
        ...

    async def entry(self, guild_id: int, local_date: date) -> LedgerEntry | None:
        """The ledger row for a date, or None."""
        ...

    async def claim(self, guild_id: int, local_date: date, claim: Claim) -> LedgerEntry | None:
        """Claim the date before sending, leased to its owner; None when a row already exists."""
        ...

    async def hold(self, guild_id: int, local_date: date, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a row; False while another owner's lease is live."""
        ...

    async def reclaim_failed(self, guild_id: int, local_date: date,
                             claim: Claim) -> LedgerEntry | None:
        """Claim a FAILED date again; None unless the row is still FAILED."""
        ...

    async def unfinished(self, guild_id: int) -> list[LedgerEntry]:
        """Claimed rows never marked posted or failed."""
        ...

    async def mark_posted(self, guild_id: int, local_date: date, message_id: int) -> None:
        """Record the sent message and reset the failure count."""
        ...

    async def mark_skipped(self, guild_id: int, local_date: date, reason: Reason) -> None:
        """A claimed date that will not be posted after all, with the reason."""
        ...

    async def mark_thread(self, guild_id: int, local_date: date, thread_id: int | None,
                          reason: Reason | None = None) -> None:
        """Record the discussion thread (or why there is none)."""
        ...

    async def mark_failed(self, guild_id: int, local_date: date, reason: Reason) -> bool:
        """Record a claimed date's failure; True when it paused the digest. A date posted
        or skipped meanwhile by another process stays so and counts no failure."""
        ...

    async def record_skips(self, guild_id: int, dates: Iterable[date], reason: Reason) -> int:
        """Record dates that will not be posted; returns how many rows were new."""
        ...

    async def current_cycle(self, guild_id: int) -> int:
        """The highest cycle a paper was claimed in (1 for a new server)."""
        ...

    async def claimed_in_cycle(self, guild_id: int, cycle: int) -> set[str]:
        """Papers claimed (posted or being posted) in a cycle."""
        ...

    async def claimed_papers(self, guild_id: int) -> set[str]:
        """Papers ever claimed (posted or being posted) in a server, in any cycle."""
        ...

    async def recent(self, guild_id: int, limit: int = 7) -> list[LedgerEntry]:
        """The latest ledger rows, newest first."""
        ...
