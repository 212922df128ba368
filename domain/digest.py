"""Paper-of-the-day records: a server's settings, its ledger rows, claims and statuses."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from domain.leases import Lease
from domain.reasons import Reason

MAX_CONSECUTIVE_FAILURES = 3


class LedgerStatus(StrEnum):
    """The state of one (server, local date) row in the ledger."""

    CLAIMED = "claimed"
    POSTED = "posted"
    SKIPPED = "skipped"
    FAILED = "failed"


class OutcomeStatus(StrEnum):
    """What one server's digest turn did."""

    POSTED = "posted"
    ALREADY = "already"
    IDLE = "idle"
    SKIPPED = "skipped"
    FAILED = "failed"
    PAUSED = "paused"
    ERROR = "error"


class DigestPick(StrEnum):
    """How a server's paper of the day is chosen."""

    CYCLE = "cycle"
    """The fair random cycle through the catalog."""
    RECOMMENDED = "recommended"
    """The group's best unseen paper (the cycle while the group has no signals)."""


class DigestState(StrEnum):
    """Whether a server's digest runs."""

    ON = "on"
    OFF = "off"
    PAUSED = "paused"


@dataclass(frozen=True, slots=True)
class DigestConfig:
    """A server's paper-of-the-day settings and health."""

    guild_id: int
    channel_id: int
    local_time: str
    timezone: str
    thread: bool = True
    mention_subscribers: bool = True
    track: str | None = None
    skip_discussed: bool = False
    pick: DigestPick = DigestPick.CYCLE
    enabled: bool = True
    enabled_since: datetime | None = None
    paused_reason: Reason | None = None
    consecutive_failures: int = 0
    failure_notice_pending: bool = False

    @property
    def state(self) -> DigestState:
        """Paused (after failures) wins over on and off."""
        if self.paused_reason is not None:
            return DigestState.PAUSED
        return DigestState.ON if self.enabled else DigestState.OFF


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """What happened (or is happening) to one server's post for one local date."""

    guild_id: int
    local_date: date
    status: LedgerStatus
    nonce: str
    paper_id: str | None = None
    cycle: int | None = None
    position: int | None = None
    cycle_size: int | None = None
    channel_id: int | None = None
    message_id: int | None = None
    thread_id: int | None = None
    late: bool = False
    reason: Reason | None = None
    attempts: int = 0
    claimed_at: datetime | None = None
    lease: Lease | None = None
    followers_queued: bool = False
    """The DMs and follow-up mentions of the post are queued (with its pings recorded)."""
    pick: DigestPick = DigestPick.CYCLE
    """How the paper was chosen (recorded with the claim, before anything is sent)."""
    pick_like: str | None = None
    """For a recommended pick, the group's liked paper it is closest to."""

    def held_by_other(self, owner: str, now: datetime) -> bool:
        """Whether another process holds a live lease on this row (it must be left alone)."""
        return self.lease is not None and self.lease.owner != owner and self.lease.until > now



@dataclass(frozen=True, slots=True)
class Claim:
    """The paper chosen for a date, written before anything is sent."""

    paper_id: str
    cycle: int
    position: int
    cycle_size: int
    nonce: str
    channel_id: int
    late: bool
    lease: Lease
    pick: DigestPick = DigestPick.CYCLE
    pick_like: str | None = None
    at: datetime | None = None
    """When it was claimed, by the claimer's clock (None: the store's); a resume looks for
    the post from a little before it."""
