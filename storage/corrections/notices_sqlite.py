"""The curators' source-change notices (SQLite): queued once per approval, leased, posted, and
deleted by the one decision that keeps or drops the correction."""

from __future__ import annotations

from datetime import datetime

from domain.corrections import Action, Proposal, SourceNotice
from domain.leases import Lease
from storage.corrections.rows import (
    EVENT_COLUMNS,
    NOTICE_COLUMNS,
    PROPOSAL_COLUMNS,
    notice_from_row,
    proposal_from_row,
)
from storage.sqlite.database import Database
from storage.times import stored


class SqliteSourceNoticeStore:
    """The `correction_notices` table (and the corrections it is about)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def watched(self) -> list[Proposal]:
        """Approved corrections with no notice open, in every server."""
        rows = await self._db.fetchall(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE status = 'approved' "
            "AND source_changed_at IS NULL ORDER BY id")
        return [proposal_from_row(row) for row in rows]

    async def queue(self, proposal_id: int, new_source: str, token: str,
                    at: datetime) -> bool:
        """One conditional UPDATE claims the approval's notice; the notice row follows in the
        same transaction."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE corrections SET source_changed_at = ? WHERE id = ? "
                "AND status = 'approved' AND source_changed_at IS NULL", (stored(at), proposal_id))
            if cursor.rowcount != 1:
                return False
            await conn.execute(
                "INSERT INTO correction_notices (correction_id, guild_id, old_source, "
                "new_source, token, status, created_at) SELECT id, guild_id, source_value, ?, "
                "?, 'pending', ? FROM corrections WHERE id = ?",
                (new_source, token, stored(at), proposal_id))
            return True

    async def claim(self, lease: Lease, now: datetime) -> SourceNotice | None:
        """Lease the oldest due notice whose server has a review channel (one UPDATE)."""
        async with self._db.transaction() as conn, conn.execute(
            "UPDATE correction_notices SET owner = ?, lease_until = ?, "
            "attempts = attempts + 1, channel_id = (SELECT r.channel_id FROM "
            "correction_review r WHERE r.guild_id = correction_notices.guild_id) "
            "WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= ?) "
            "AND correction_id = (SELECT n.correction_id FROM correction_notices n "
            "JOIN correction_review r ON r.guild_id = n.guild_id "
            "JOIN corrections c ON c.id = n.correction_id AND c.status = 'approved' "
            "WHERE n.status = 'pending' AND r.channel_id IS NOT NULL "
            "AND (n.lease_until IS NULL OR n.lease_until <= ?) "
            "ORDER BY n.created_at, n.correction_id LIMIT 1) "
            f"RETURNING {NOTICE_COLUMNS}",
            (lease.owner, stored(lease.until), stored(now), stored(now))) as cursor:
            row = await cursor.fetchone()
        return None if row is None else notice_from_row(row)

    async def posted(self, proposal_id: int, owner: str, channel_id: int,
                     message_id: int) -> bool:
        """Record where the notice was posted, while `owner` holds it."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE correction_notices SET status = 'posted', channel_id = ?, "
                "message_id = ?, owner = NULL, lease_until = NULL "
                "WHERE correction_id = ? AND owner = ?",
                (channel_id, message_id, proposal_id, owner))
            return cursor.rowcount == 1

    async def retry_later(self, proposal_id: int, owner: str, not_before: datetime) -> None:
        """Give the notice back, claimable again from `not_before`."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE correction_notices SET owner = NULL, lease_until = ? "
                "WHERE correction_id = ? AND owner = ?",
                (stored(not_before), proposal_id, owner))

    async def notice(self, proposal_id: int) -> SourceNotice | None:
        """The correction's open notice, or None."""
        row = await self._db.fetchone(
            f"SELECT {NOTICE_COLUMNS} FROM correction_notices WHERE correction_id = ?",
            (proposal_id,))
        return None if row is None else notice_from_row(row)

    async def decide(self, guild_id: int, proposal_id: int, *, keep: bool, by: int,
                     at: datetime) -> Proposal | None:
        """The notice is deleted by the one decision (a conditional DELETE), then the
        correction kept with the new source value, or withdrawn."""
        async with self._db.transaction() as conn:
            async with conn.execute(
                "DELETE FROM correction_notices WHERE correction_id = ? AND guild_id = ? "
                "RETURNING new_source", (proposal_id, guild_id)) as cursor:
                found = await cursor.fetchone()
            if found is None:
                return None
            if keep:
                cursor = await conn.execute(
                    "UPDATE corrections SET source_value = ?, source_changed_at = NULL "
                    "WHERE id = ? AND status = 'approved'", (found[0], proposal_id))
            else:
                cursor = await conn.execute(
                    "UPDATE corrections SET status = 'reverted' WHERE id = ? "
                    "AND status = 'approved'", (proposal_id,))
            if cursor.rowcount != 1:
                return None
            await conn.execute(
                f"INSERT INTO correction_events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                (proposal_id, (Action.KEPT if keep else Action.DROPPED).value, by, stored(at),
                 str(found[0])))
            async with conn.execute(f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE id = ?",
                                    (proposal_id,)) as cursor:
                row = await cursor.fetchone()
        return None if row is None else proposal_from_row(row)
