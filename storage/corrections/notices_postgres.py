"""The curators' source-change notices (PostgreSQL): queued once per approval, leased,
posted, and deleted by the one decision that keeps or drops the correction. A claim skips a
notice another process is claiming (`SKIP LOCKED`) and re-checks its lease, so two processes
never hold the same notice."""

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
from storage.postgres.database import PgDatabase, rows_affected
from storage.times import stored


class PgSourceNoticeStore:
    """The `correction_notices` table (and the corrections it is about)."""

    def __init__(self, db: PgDatabase) -> None:
        self._db = db

    async def watched(self) -> list[Proposal]:
        """Approved corrections with no notice open, in every server."""
        rows = await self._db.fetch(
            f"SELECT {PROPOSAL_COLUMNS} FROM corrections WHERE status = 'approved' "
            "AND source_changed_at IS NULL ORDER BY id")
        return [proposal_from_row(row) for row in rows]

    async def queue(self, proposal_id: int, new_source: str, token: str,
                    at: datetime) -> bool:
        """One conditional UPDATE claims the approval's notice; the notice row follows in the
        same transaction."""
        async with self._db.transaction() as conn:
            claimed = rows_affected(await conn.execute(
                "UPDATE corrections SET source_changed_at = $1 WHERE id = $2 "
                "AND status = 'approved' AND source_changed_at IS NULL", stored(at), proposal_id))
            if claimed != 1:
                return False
            await conn.execute(
                "INSERT INTO correction_notices (correction_id, guild_id, old_source, "
                "new_source, token, status, created_at) SELECT id, guild_id, source_value, $1, "
                "$2, 'pending', $3 FROM corrections WHERE id = $4",
                new_source, token, stored(at), proposal_id)
            return True

    async def claim(self, lease: Lease, now: datetime) -> SourceNotice | None:
        """Lease the oldest due notice whose server has a review channel (one UPDATE)."""
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE correction_notices SET owner = $1, lease_until = $2, "
                "attempts = attempts + 1, channel_id = (SELECT r.channel_id FROM "
                "correction_review r WHERE r.guild_id = correction_notices.guild_id) "
                "WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= $3) "
                "AND correction_id = (SELECT n.correction_id FROM correction_notices n "
                "JOIN correction_review r ON r.guild_id = n.guild_id "
                "JOIN corrections c ON c.id = n.correction_id AND c.status = 'approved' "
                "WHERE n.status = 'pending' AND r.channel_id IS NOT NULL "
                "AND (n.lease_until IS NULL OR n.lease_until <= $3) "
                "ORDER BY n.created_at, n.correction_id LIMIT 1 FOR UPDATE OF n SKIP LOCKED) "
                f"RETURNING {NOTICE_COLUMNS}",
                lease.owner, stored(lease.until), stored(now))
        return None if row is None else notice_from_row(row)

    async def posted(self, proposal_id: int, owner: str, channel_id: int,
                     message_id: int) -> bool:
        """Record where the notice was posted, while `owner` holds it."""
        async with self._db.transaction() as conn:
            return rows_affected(await conn.execute(
                "UPDATE correction_notices SET status = 'posted', channel_id = $1, "
                "message_id = $2, owner = NULL, lease_until = NULL "
                "WHERE correction_id = $3 AND owner = $4",
                channel_id, message_id, proposal_id, owner)) == 1

    async def retry_later(self, proposal_id: int, owner: str, not_before: datetime) -> None:
        """Give the notice back, claimable again from `not_before`."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE correction_notices SET owner = NULL, lease_until = $1 "
                "WHERE correction_id = $2 AND owner = $3",
                stored(not_before), proposal_id, owner)

    async def notice(self, proposal_id: int) -> SourceNotice | None:
        """The correction's open notice, or None."""
        row = await self._db.fetchrow(
            f"SELECT {NOTICE_COLUMNS} FROM correction_notices WHERE correction_id = $1",
            proposal_id)
        return None if row is None else notice_from_row(row)

    async def decide(self, guild_id: int, proposal_id: int, *, keep: bool, by: int,
                     at: datetime) -> Proposal | None:
        """The notice is deleted by the one decision (a conditional DELETE), then the
        correction kept with the new source value, or withdrawn."""
        async with self._db.transaction() as conn:
            new_source = await conn.fetchval(
                "DELETE FROM correction_notices WHERE correction_id = $1 AND guild_id = $2 "
                "RETURNING new_source", proposal_id, guild_id)
            if new_source is None:
                return None
            if keep:
                row = await conn.fetchrow(
                    "UPDATE corrections SET source_value = $1, source_changed_at = NULL "
                    f"WHERE id = $2 AND status = 'approved' RETURNING {PROPOSAL_COLUMNS}",
                    new_source, proposal_id)
            else:
                row = await conn.fetchrow(
                    "UPDATE corrections SET status = 'reverted' WHERE id = $1 "
                    f"AND status = 'approved' RETURNING {PROPOSAL_COLUMNS}", proposal_id)
            if row is None:
                return None
            await conn.execute(
                f"INSERT INTO correction_events ({EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5)",
                proposal_id, (Action.KEPT if keep else Action.DROPPED).value, by, stored(at),
                str(new_source))
        return proposal_from_row(row)
