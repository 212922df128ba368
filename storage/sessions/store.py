"""Sessions and their reminder ledger: one row per (session, revision, offset),
claimed with one `INSERT … ON CONFLICT DO NOTHING RETURNING` (of any number of processes, one
gets the row)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from domain.leases import Lease
from domain.reasons import Reason
from domain.sessions import Place, ReminderEntry, ReminderStatus, Session, SessionStatus
from storage.db import Store
from storage.sessions.rows import (
    REMINDER_COLUMNS,
    SESSION_COLUMNS,
    reminder_from_row,
    session_from_row,
    stored_start,
)
from storage.times import stored, utc_timestamp


class SessionStore(Store):
    """`sessions` and `session_reminders`."""

    async def create(self, guild_id: int, paper_id: str, starts_at: datetime,
                     presenter_id: int | None, place: Place, channel_id: int) -> Session:
        """A new scheduled session (its Discord ids are recorded later)."""
        now = utc_timestamp()
        row = await self._db.returning_one(
            "INSERT INTO sessions (guild_id, paper_id, starts_at, presenter_id, "
            "voice_channel_id, link, channel_id, status, created_at, updated_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, 'scheduled', $8, $8) "
            f"RETURNING {SESSION_COLUMNS}",
            guild_id, paper_id, stored_start(starts_at), presenter_id,
            place.voice_channel_id, place.link, channel_id, now)
        assert row is not None
        return session_from_row(row)

    async def get(self, guild_id: int, session_id: int) -> Session | None:
        """One of a server's sessions."""
        row = await self._db.fetch_one(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE guild_id = $1 AND id = $2",
            guild_id, session_id)
        return session_from_row(row) if row else None

    async def of_guild(self, guild_id: int, status: SessionStatus,
                       limit: int = 25) -> list[Session]:
        """A server's sessions with one status, soonest first."""
        rows = await self._db.fetch(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE guild_id = $1 AND status = $2 "
            f"ORDER BY starts_at{self._order}, id LIMIT $3", guild_id, status.value, limit)
        return [session_from_row(row) for row in rows]

    async def scheduled_before(self, until: datetime) -> list[Session]:
        """Every server's scheduled sessions starting before `until` (reminder candidates)."""
        rows = await self._db.fetch(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE status = 'scheduled' "
            f"AND starts_at{self._order} < $1 ORDER BY guild_id, starts_at{self._order}",
            stored_start(until))
        return [session_from_row(row) for row in rows]

    async def delete(self, guild_id: int, session_id: int) -> None:
        """Forget a session that never reached Discord."""
        await self._db.execute("DELETE FROM sessions WHERE guild_id = $1 AND id = $2",
                               guild_id, session_id)

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the sessions they were to present (the sessions stay)."""
        return await self._db.execute(
            "UPDATE sessions SET presenter_id = NULL WHERE presenter_id = $1", user_id)

    async def set_discord(self, session_id: int, *, event_id: int | None,
                          message_id: int | None, thread_id: int | None) -> None:
        """Record the scheduled event, the announcement and its thread."""
        await self._set(session_id, "event_id = $3, message_id = $4, thread_id = $5",
                        event_id, message_id, thread_id)

    async def move(self, session_id: int, starts_at: datetime) -> None:
        """A new start; the new revision gets its own reminders."""
        await self._set(session_id, "starts_at = $3, revision = revision + 1",
                        stored_start(starts_at))

    async def finish(self, session_id: int, status: SessionStatus,
                     notes: str | None = None) -> None:
        """Cancel a session or mark it done (with notes)."""
        await self._set(session_id, "status = $3, notes = COALESCE($4, notes)",
                        status.value, notes)

    async def _set(self, session_id: int, assignments: str, *values: Any) -> None:
        await self._db.execute(
            f"UPDATE sessions SET {assignments}, updated_at = $2 WHERE id = $1",
            session_id, utc_timestamp(), *values)

    async def report_problem(self, session_id: int, reason: Reason) -> bool:
        """Record why reminders stopped; True the first time (the organisers are told once)."""
        return await self._db.execute(
            "UPDATE sessions SET problem = $1, notice_pending = 1, updated_at = $2 "
            "WHERE id = $3 AND problem IS NULL",
            reason.encode(), utc_timestamp(), session_id) > 0

    async def take_problems(self, guild_id: int) -> list[Session]:
        """Sessions whose problem the organisers have not been told about; marks them told,
        in one conditional UPDATE (two processes never both tell)."""
        rows = await self._db.returning(
            "UPDATE sessions SET notice_pending = 0 WHERE guild_id = $1 AND "
            f"notice_pending = 1 RETURNING {SESSION_COLUMNS}", guild_id)
        return sorted((session_from_row(row) for row in rows), key=lambda s: s.id)

    # -- the reminder ledger --------------------------------------------------------------------

    async def reminders(self, session_id: int, revision: int) -> list[ReminderEntry]:
        """Every ledger row of one session revision."""
        rows = await self._db.fetch(
            f"SELECT {REMINDER_COLUMNS} FROM session_reminders WHERE session_id = $1 "
            "AND revision = $2 ORDER BY offset_minutes DESC", session_id, revision)
        return [reminder_from_row(row) for row in rows]

    async def claim_reminder(self, session_id: int, revision: int, offset_minutes: int,
                             nonce: str, *, lease: Lease) -> ReminderEntry | None:
        """Claim a reminder before sending it, leased to `lease.owner`, in one atomic
        statement; None when a row already exists (whichever process asks)."""
        row = await self._db.returning_one(
            "INSERT INTO session_reminders (session_id, revision, offset_minutes, status, "
            "nonce, claimed_at, owner, lease_until) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
            f"ON CONFLICT DO NOTHING RETURNING {REMINDER_COLUMNS}",
            session_id, revision, offset_minutes, ReminderStatus.CLAIMED.value, nonce,
            utc_timestamp(), lease.owner, stored(lease.until))
        return reminder_from_row(row) if row else None

    async def hold_reminder(self, entry: ReminderEntry, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed reminder: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now`."""
        return await self._db.execute(
            "UPDATE session_reminders SET owner = $1, lease_until = $2 WHERE session_id = $3 "
            "AND revision = $4 AND offset_minutes = $5 AND status = $6 "
            "AND (owner IS NULL OR owner = $1 OR lease_until IS NULL OR lease_until <= $7)",
            lease.owner, stored(lease.until), entry.session_id, entry.revision,
            entry.offset_minutes, ReminderStatus.CLAIMED.value, stored(now)) > 0

    async def finish_reminder(self, entry: ReminderEntry, status: ReminderStatus, *,
                              message_id: int | None = None,
                              reason: Reason | None = None) -> None:
        """Record a claimed reminder as posted (with its message) or failed (with why); one
        another process finished meanwhile (this one's lease ran out) stays as it is."""
        await self._db.execute(
            "UPDATE session_reminders SET status = $1, message_id = $2, reason = $3, "
            "finished_at = $4 WHERE session_id = $5 AND revision = $6 "
            "AND offset_minutes = $7 AND status = $8",
            status.value, message_id, None if reason is None else reason.encode(),
            utc_timestamp(), entry.session_id, entry.revision, entry.offset_minutes,
            ReminderStatus.CLAIMED.value)

    async def skip_reminders(self, session_id: int, revision: int,
                             skips: Iterable[tuple[int, Reason]]) -> int:
        """Record reminders that will not be posted, in one transaction; returns how many rows
        were new."""
        now = utc_timestamp()
        added = 0
        async with self._db.transaction() as tx:
            for offset, reason in skips:
                added += await tx.execute(
                    "INSERT INTO session_reminders (session_id, revision, offset_minutes, "
                    "status, nonce, reason, claimed_at, finished_at) "
                    "VALUES ($1, $2, $3, $4, '', $5, $6, $6) ON CONFLICT DO NOTHING",
                    session_id, revision, offset, ReminderStatus.SKIPPED.value,
                    reason.encode(), now)
        return added
