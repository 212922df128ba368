"""Sessions and their reminder ledger: one row per (session, revision, offset), claimed once."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from domain.digest import Lease
from domain.reasons import Reason
from domain.sessions import (
    Place,
    ReminderEntry,
    ReminderStatus,
    Session,
    SessionStatus,
)
from storage.sessions.rows import (
    REMINDER_COLUMNS,
    SESSION_COLUMNS,
    reminder_from_row,
    session_from_row,
    stored_start,
)
from storage.sqlite.database import Database
from storage.times import stored, utc_timestamp


class SqliteSessionStore:
    """`sessions` and `session_reminders`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, guild_id: int, paper_id: str, starts_at: datetime,
                     presenter_id: int | None, place: Place, channel_id: int) -> Session:
        """A new scheduled session (its Discord ids are recorded later)."""
        now = utc_timestamp()
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO sessions (guild_id, paper_id, starts_at, presenter_id, "
                "voice_channel_id, link, channel_id, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'scheduled', ?, ?)",
                (guild_id, paper_id, stored_start(starts_at), presenter_id, place.voice_channel_id,
                 place.link, channel_id, now, now))
            session_id = cursor.lastrowid
        found = await self.get(guild_id, int(session_id or 0))
        assert found is not None
        return found

    async def get(self, guild_id: int, session_id: int) -> Session | None:
        """One of a server's sessions."""
        row = await self._db.fetchone(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE guild_id = ? AND id = ?",
            (guild_id, session_id))
        return session_from_row(row) if row else None

    async def of_guild(self, guild_id: int, status: SessionStatus,
                       limit: int = 25) -> list[Session]:
        """A server's sessions with one status, soonest first."""
        rows = await self._db.fetchall(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE guild_id = ? AND status = ? "
            "ORDER BY starts_at, id LIMIT ?", (guild_id, status.value, limit))
        return [session_from_row(row) for row in rows]

    async def scheduled_before(self, until: datetime) -> list[Session]:
        """Every server's scheduled sessions starting before `until` (reminder candidates)."""
        rows = await self._db.fetchall(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE status = 'scheduled' AND starts_at < ? "
            "ORDER BY guild_id, starts_at", (stored_start(until),))
        return [session_from_row(row) for row in rows]

    async def delete(self, guild_id: int, session_id: int) -> None:
        """Forget a session that never reached Discord."""
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM sessions WHERE guild_id = ? AND id = ?",
                               (guild_id, session_id))

    async def forget(self, user_id: int) -> int:
        """Remove a member's name from the sessions they were to present (the sessions stay)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE sessions SET presenter_id = NULL WHERE presenter_id = ?", (user_id,))
            return cursor.rowcount

    async def set_discord(self, session_id: int, *, event_id: int | None,
                          message_id: int | None, thread_id: int | None) -> None:
        """Record the scheduled event, the announcement and its thread."""
        await self._set(session_id, "event_id = ?, message_id = ?, thread_id = ?",
                        (event_id, message_id, thread_id))

    async def move(self, session_id: int, starts_at: datetime) -> None:
        """A new start; the new revision gets its own reminders."""
        await self._set(session_id, "starts_at = ?, revision = revision + 1",
                        (stored_start(starts_at),))

    async def finish(self, session_id: int, status: SessionStatus,
                     notes: str | None = None) -> None:
        """Cancel a session or mark it done (with notes)."""
        await self._set(session_id, "status = ?, notes = COALESCE(?, notes)",
                        (status.value, notes))

    async def report_problem(self, session_id: int, reason: Reason) -> bool:
        """Record why reminders stopped; True the first time (the organisers are told once)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE sessions SET problem = ?, notice_pending = 1, updated_at = ? "
                "WHERE id = ? AND problem IS NULL", (reason.encode(), utc_timestamp(), session_id))
            return cursor.rowcount > 0

    async def take_problems(self, guild_id: int) -> list[Session]:
        """Sessions whose problem the organisers have not been told about; marks them told,
        in one conditional UPDATE (two processes never both tell)."""
        async with self._db.transaction() as conn, conn.execute(
            "UPDATE sessions SET notice_pending = 0 WHERE guild_id = ? AND "
            f"notice_pending = 1 RETURNING {SESSION_COLUMNS}", (guild_id,)) as cursor:
            rows = await cursor.fetchall()
        return sorted((session_from_row(row) for row in rows), key=lambda s: s.id)

    async def _set(self, session_id: int, assignments: str, values: tuple[Any, ...]) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                f"UPDATE sessions SET {assignments}, updated_at = ? WHERE id = ?",
                (*values, utc_timestamp(), session_id))

    # -- the reminder ledger --------------------------------------------------------------------

    async def reminders(self, session_id: int, revision: int) -> list[ReminderEntry]:
        """Every ledger row of one session revision."""
        rows = await self._db.fetchall(
            f"SELECT {REMINDER_COLUMNS} FROM session_reminders WHERE session_id = ? "
            "AND revision = ? ORDER BY offset_minutes DESC", (session_id, revision))
        return [reminder_from_row(row) for row in rows]

    async def claim_reminder(self, session_id: int, revision: int, offset_minutes: int,
                             nonce: str, *, lease: Lease) -> ReminderEntry | None:
        """Claim a reminder before sending it, leased to `lease.owner`; None when a row
        already exists."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO session_reminders (session_id, revision, offset_minutes, status, "
                "nonce, claimed_at, owner, lease_until) VALUES (?, ?, ?, 'claimed', ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (session_id, revision, offset_minutes, nonce, utc_timestamp(), lease.owner,
                 stored(lease.until)))
            if cursor.rowcount == 0:
                return None
        return ReminderEntry(session_id, revision, offset_minutes, ReminderStatus.CLAIMED, nonce)

    async def hold_reminder(self, entry: ReminderEntry, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a claimed reminder: True when it is now `lease.owner`'s,
        False when it is no longer claimed or another owner's lease is live at `now` (a claim
        without a lease, from before leases, is anyone's)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE session_reminders SET owner = ?, lease_until = ? WHERE session_id = ? "
                "AND revision = ? AND offset_minutes = ? AND status = 'claimed' "
                "AND (owner IS NULL OR owner = ? OR lease_until IS NULL OR lease_until <= ?)",
                (lease.owner, stored(lease.until), entry.session_id, entry.revision,
                 entry.offset_minutes, lease.owner, stored(now)))
            return cursor.rowcount > 0

    async def finish_reminder(self, entry: ReminderEntry, status: ReminderStatus, *,
                              message_id: int | None = None,
                              reason: Reason | None = None) -> None:
        """Record a claimed reminder as posted (with its message) or failed (with why)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE session_reminders SET status = ?, message_id = ?, reason = ?, "
                "finished_at = ? WHERE session_id = ? AND revision = ? AND offset_minutes = ?",
                (status.value, message_id, None if reason is None else reason.encode(),
                 utc_timestamp(), entry.session_id, entry.revision, entry.offset_minutes))

    async def skip_reminders(self, session_id: int, revision: int,
                             skips: Iterable[tuple[int, Reason]]) -> int:
        """Record reminders that will not be posted; returns how many rows were new."""
        now = utc_timestamp()
        added = 0
        async with self._db.transaction() as conn:
            for offset, reason in skips:
                cursor = await conn.execute(
                    "INSERT INTO session_reminders (session_id, revision, offset_minutes, status,"
                    " nonce, reason, claimed_at, finished_at) "
                    "VALUES (?, ?, ?, 'skipped', '', ?, ?, ?) ON CONFLICT DO NOTHING",
                    (session_id, revision, offset, reason.encode(), now, now))
                added += cursor.rowcount
        return added
