"""The sessions' store and their exactly-once reminder ledger. The protocol is what the feature's
services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from domain.leases import Lease
from domain.reasons import Reason
from domain.sessions import (
    Place,
    ReminderEntry,
    ReminderStatus,
    Session,
    SessionStatus,
)


class SessionStore(Protocol):
    """Sessions and their exactly-once reminder ledger."""

    async def create(self, guild_id: int, paper_id: str, starts_at: datetime,
                     presenter_id: int | None, place: Place, channel_id: int) -> Session:
        """A new scheduled session (its Discord ids are recorded later)."""
        ...

    async def get(self, guild_id: int, session_id: int) -> Session | None:
        """One of a server's sessions."""
        ...

    async def of_guild(self, guild_id: int, status: SessionStatus,
                       limit: int = 25) -> list[Session]:
        """A server's sessions with one status, soonest first."""
        ...

    async def scheduled_before(self, until: datetime) -> list[Session]:
        """Every server's scheduled sessions starting before `until` (reminder candidates)."""
        ...

    async def delete(self, guild_id: int, session_id: int) -> None:
        """Forget a session that never reached Discord."""
        ...

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the sessions they were to present; how many."""
        ...

    async def set_discord(self, session_id: int, *, event_id: int | None,
                          message_id: int | None, thread_id: int | None) -> None:
        """Record the scheduled event, the announcement and its thread."""
        ...

    async def move(self, session_id: int, starts_at: datetime) -> None:
        """A new start; the new revision gets its own reminders."""
        ...

    async def finish(self, session_id: int, status: SessionStatus,
                     notes: str | None = None) -> None:
        """Cancel a session or mark it done (with notes)."""
        ...

    async def report_problem(self, session_id: int, reason: Reason) -> bool:
        """Record why reminders stopped; True the first time (the organisers are told once)."""
        ...

    async def take_problems(self, guild_id: int) -> list[Session]:
        """Sessions whose problem the organisers have not been told about; marks them told."""
        ...

    async def reminders(self, session_id: int, revision: int) -> list[ReminderEntry]:
        """Every ledger row of one session revision."""
        ...

    async def claim_reminder(self, session_id: int, revision: int, offset_minutes: int,
                             nonce: str, *, lease: Lease) -> ReminderEntry | None:
        """Claim a reminder before sending it, leased to `lease.owner`; None when a row
        already exists."""
        ...

    async def hold_reminder(self, entry: ReminderEntry, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed reminder: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now`."""
        ...

    async def finish_reminder(self, entry: ReminderEntry, status: ReminderStatus, *,
                              message_id: int | None = None,
                              reason: Reason | None = None) -> None:
        """Record a claimed reminder as posted (with its message) or failed (with why)."""
        ...

    async def skip_reminders(self, session_id: int, revision: int,
                             skips: Iterable[tuple[int, Reason]]) -> int:
        """Record reminders that will not be posted; returns how many rows were new."""
        ...
