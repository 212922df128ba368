"""Paper-of-the-day settings and the exactly-once ledger: one row per (server, local date).

A date is claimed with one atomic statement (`INSERT … ON CONFLICT DO NOTHING RETURNING`): of
any number of processes claiming the same (server, date), exactly one gets the row back.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

from domain.digest import MAX_CONSECUTIVE_FAILURES, Claim, DigestConfig, LedgerEntry, LedgerStatus
from domain.leases import Lease
from domain.reasons import Reason, ReasonCode
from storage.db import Store
from storage.digest.rows import (
    CONFIG_COLUMNS,
    LEDGER_COLUMNS,
    config_from_row,
    encoded,
    entry_from_row,
)
from storage.times import stored, utc_timestamp


def _claimed_at(claim: Claim) -> str:
    """When a claim was made, as stored: by its claimer's clock, else now."""
    return claim.at.astimezone(UTC).isoformat(timespec="seconds") if claim.at else utc_timestamp()


class DigestStore(Store):
    """Settings per server and the exactly-once ledger."""

    async def save_config(self, config: DigestConfig) -> None:
        """Create or replace a server's settings (re-enabling it and clearing failures)."""
        since = (config.enabled_since.isoformat(timespec="seconds") if config.enabled_since
                 else utc_timestamp())
        columns = [c.strip() for c in CONFIG_COLUMNS.split(",")] + ["updated_at"]
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns[1:])
        await self._db.execute(
            f"INSERT INTO digest_settings ({', '.join(columns)}) VALUES "
            "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) "
            f"ON CONFLICT (guild_id) DO UPDATE SET {updates}",
            config.guild_id, config.channel_id, config.local_time, config.timezone,
            int(config.thread), int(config.mention_subscribers), config.track,
            int(config.enabled), since, encoded(config.paused_reason),
            config.consecutive_failures, int(config.failure_notice_pending),
            int(config.skip_discussed), config.pick.value, utc_timestamp())

    async def config(self, guild_id: int) -> DigestConfig | None:
        """A server's settings, or None."""
        row = await self._db.fetch_one(
            f"SELECT {CONFIG_COLUMNS} FROM digest_settings WHERE guild_id = $1", guild_id)
        return config_from_row(row) if row else None

    async def active_configs(self) -> list[DigestConfig]:
        """Servers whose digest is on and not paused."""
        return [config_from_row(row) for row in await self._db.fetch(
            f"SELECT {CONFIG_COLUMNS} FROM digest_settings "
            "WHERE enabled = 1 AND paused_reason IS NULL ORDER BY guild_id")]

    async def disable(self, guild_id: int) -> bool:
        """Turn a server's digest off; False if it had none."""
        return await self._db.execute(
            "UPDATE digest_settings SET enabled = 0, updated_at = $1 WHERE guild_id = $2",
            utc_timestamp(), guild_id) > 0

    async def claim_failure_notice(self, guild_id: int, lease: Lease,
                                   now: datetime) -> Reason | None:
        """The pause reason if admins have not been told yet and no answer is telling them
        (its lease free at `now`), leased to `lease.owner` (one statement: of two commands
        asking at once, one gets it)."""
        async with self._db.transaction() as tx:
            value = await tx.fetch_value(
                "UPDATE digest_settings SET failure_notice_owner = $2, "
                "failure_notice_lease_until = $3 WHERE guild_id = $1 "
                "AND failure_notice_pending = 1 AND (failure_notice_lease_until IS NULL "
                "OR failure_notice_lease_until <= $4) RETURNING paused_reason",
                guild_id, lease.owner, stored(lease.until), stored(now))
        return None if value is None else Reason.decode(str(value))

    async def failure_notice_given(self, guild_id: int, owner: str) -> None:
        """The answer carrying the pause note `owner` holds was sent: the admins are told."""
        await self._db.execute(
            "UPDATE digest_settings SET failure_notice_pending = 0, failure_notice_owner = NULL, "
            "failure_notice_lease_until = NULL WHERE guild_id = $1 AND failure_notice_owner = $2",
            guild_id, owner)

    async def last_handled(self, guild_id: int) -> date | None:
        """The latest local date with a ledger row (any status)."""
        value = await self._db.fetch_value(
            "SELECT max(local_date) FROM digest_ledger WHERE guild_id = $1", guild_id)
        return date.fromisoformat(value) if value else None

    async def entry(self, guild_id: int, local_date: date) -> LedgerEntry | None:
        """The ledger row for a date, or None."""
        row = await self._db.fetch_one(
            f"SELECT {LEDGER_COLUMNS} FROM digest_ledger "
            "WHERE guild_id = $1 AND local_date = $2", guild_id, local_date.isoformat())
        return entry_from_row(row) if row else None

    async def claim(self, guild_id: int, local_date: date, claim: Claim) -> LedgerEntry | None:
        """Claim the date before sending, leased to its owner, in one atomic statement; None
        when a row already exists (never claim twice, whichever process asks)."""
        row = await self._db.returning_one(
            "INSERT INTO digest_ledger (guild_id, local_date, status, nonce, paper_id, cycle, "
            "position, cycle_size, channel_id, late, claimed_at, owner, lease_until, pick, "
            "pick_like) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, "
            "$15) "
            f"ON CONFLICT DO NOTHING RETURNING {LEDGER_COLUMNS}",
            guild_id, local_date.isoformat(), LedgerStatus.CLAIMED.value, claim.nonce,
            claim.paper_id, claim.cycle, claim.position, claim.cycle_size, claim.channel_id,
            int(claim.late), _claimed_at(claim), claim.lease.owner,
            stored(claim.lease.until), claim.pick.value, claim.pick_like)
        return entry_from_row(row) if row else None

    async def reclaim_failed(self, guild_id: int, local_date: date,
                             claim: Claim) -> LedgerEntry | None:
        """Claim a FAILED date again (a retry); None unless the row is still FAILED. The
        conditional UPDATE takes the row lock: of concurrent retries, one wins. The nonce
        stays, so a post whose answer was lost before is not sent twice."""
        row = await self._db.returning_one(
            "UPDATE digest_ledger SET status = $1, paper_id = $2, cycle = $3, position = $4, "
            "cycle_size = $5, channel_id = $6, late = $7, message_id = NULL, "
            "thread_id = NULL, reason = NULL, claimed_at = $8, finished_at = NULL, "
            "owner = $9, lease_until = $10, pick = $14, pick_like = $15 "
            "WHERE guild_id = $11 AND local_date = $12 AND status = $13 "
            f"RETURNING {LEDGER_COLUMNS}",
            LedgerStatus.CLAIMED.value, claim.paper_id, claim.cycle, claim.position,
            claim.cycle_size, claim.channel_id, int(claim.late), _claimed_at(claim),
            claim.lease.owner, stored(claim.lease.until), guild_id,
            local_date.isoformat(), LedgerStatus.FAILED.value, claim.pick.value,
            claim.pick_like)
        return entry_from_row(row) if row else None

    async def hold(self, guild_id: int, local_date: date, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a row: True when it is now `lease.owner`'s, False while
        another owner's lease is live at `now` (a row without a lease is anyone's)."""
        return await self._db.execute(
            "UPDATE digest_ledger SET owner = $1, lease_until = $2 "
            "WHERE guild_id = $3 AND local_date = $4 AND (owner IS NULL OR owner = $1 "
            "OR lease_until IS NULL OR lease_until <= $5)",
            lease.owner, stored(lease.until), guild_id, local_date.isoformat(),
            stored(now)) > 0

    async def unfinished(self, guild_id: int) -> list[LedgerEntry]:
        """Claimed rows never marked posted or failed (a crash between claim and record)."""
        return [entry_from_row(row) for row in await self._db.fetch(
            f"SELECT {LEDGER_COLUMNS} FROM digest_ledger WHERE guild_id = $1 "
            "AND status = $2 ORDER BY local_date", guild_id, LedgerStatus.CLAIMED.value)]

    async def mark_posted(self, guild_id: int, local_date: date, message_id: int) -> None:
        """Record the sent message and reset the failure count."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE digest_ledger SET status = $1, message_id = $2, finished_at = $3, "
                "attempts = attempts + 1 WHERE guild_id = $4 AND local_date = $5",
                LedgerStatus.POSTED.value, message_id, utc_timestamp(), guild_id,
                local_date.isoformat())
            await tx.execute(
                "UPDATE digest_settings SET consecutive_failures = 0 WHERE guild_id = $1",
                guild_id)

    async def mark_skipped(self, guild_id: int, local_date: date, reason: Reason) -> None:
        """A claimed date that will not be posted after all (too late to post), with why."""
        await self._db.execute(
            "UPDATE digest_ledger SET status = $1, reason = $2, finished_at = $3 "
            "WHERE guild_id = $4 AND local_date = $5 AND status = $6",
            LedgerStatus.SKIPPED.value, reason.encode(), utc_timestamp(), guild_id,
            local_date.isoformat(), LedgerStatus.CLAIMED.value)

    async def mark_thread(self, guild_id: int, local_date: date, thread_id: int | None,
                          reason: Reason | None = None) -> None:
        """Record the discussion thread (or why there is none)."""
        await self._db.execute(
            "UPDATE digest_ledger SET thread_id = $1, reason = coalesce($2, reason) "
            "WHERE guild_id = $3 AND local_date = $4",
            thread_id, encoded(reason), guild_id, local_date.isoformat())

    async def mark_failed(self, guild_id: int, local_date: date, reason: Reason) -> bool:
        """Record a claimed date's failure; True when it paused the digest (3 in a row). A
        date another process posted or skipped meanwhile (this one's lease ran out while it
        waited) stays as it is and counts no failure: a failed date may be claimed again."""
        async with self._db.transaction() as tx:
            if not await tx.execute(
                    "UPDATE digest_ledger SET status = $1, reason = $2, finished_at = $3, "
                    "attempts = attempts + 1 WHERE guild_id = $4 AND local_date = $5 "
                    "AND status = $6",
                    LedgerStatus.FAILED.value, reason.encode(), utc_timestamp(), guild_id,
                    local_date.isoformat(), LedgerStatus.CLAIMED.value):
                return False
            await tx.execute(
                "UPDATE digest_settings SET consecutive_failures = consecutive_failures + 1 "
                "WHERE guild_id = $1", guild_id)
            return await tx.execute(
                "UPDATE digest_settings SET paused_reason = $1, failure_notice_pending = 1, "
                "failure_notice_owner = NULL, failure_notice_lease_until = NULL "
                "WHERE guild_id = $2 AND consecutive_failures >= $3 AND paused_reason IS NULL",
                Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": MAX_CONSECUTIVE_FAILURES},
                       reason).encode(), guild_id, MAX_CONSECUTIVE_FAILURES) > 0

    async def record_skips(self, guild_id: int, dates: Iterable[date], reason: Reason) -> int:
        """Record dates that will not be posted, with the reason; existing rows are kept."""
        stored, now = reason.encode(), utc_timestamp()
        days = sorted({d.isoformat() for d in dates})
        return await self._db.execute(
            "INSERT INTO digest_ledger (guild_id, local_date, status, nonce, reason, "
            "claimed_at, finished_at) SELECT $1, c1, $2, $3 || c1, $4, $5, $5 "
            f"FROM {self._dialect.zipped(('$6', 'text'))} WHERE true ON CONFLICT DO NOTHING",
            guild_id, LedgerStatus.SKIPPED.value, f"skip:{guild_id}:", stored, now,
            self._dialect.array(days))

    async def current_cycle(self, guild_id: int) -> int:
        """The highest cycle a paper was claimed in (1 for a new server)."""
        value = await self._db.fetch_value(
            "SELECT max(cycle) FROM digest_ledger WHERE guild_id = $1", guild_id)
        return int(value) if value else 1

    async def claimed_in_cycle(self, guild_id: int, cycle: int) -> set[str]:
        """Papers claimed (posted or being posted) in a cycle."""
        return {str(row[0]) for row in await self._db.fetch(
            "SELECT paper_id FROM digest_ledger WHERE guild_id = $1 AND cycle = $2 "
            "AND status IN ($3, $4) AND paper_id IS NOT NULL",
            guild_id, cycle, LedgerStatus.CLAIMED.value, LedgerStatus.POSTED.value)}

    async def claimed_papers(self, guild_id: int) -> set[str]:
        """Papers ever claimed (posted or being posted) in a server, in any cycle."""
        return {str(row[0]) for row in await self._db.fetch(
            "SELECT DISTINCT paper_id FROM digest_ledger WHERE guild_id = $1 "
            "AND status IN ($2, $3) AND paper_id IS NOT NULL",
            guild_id, LedgerStatus.CLAIMED.value, LedgerStatus.POSTED.value)}

    async def recent(self, guild_id: int, limit: int = 7) -> list[LedgerEntry]:
        """The latest ledger rows, newest first."""
        return [entry_from_row(row) for row in await self._db.fetch(
            f"SELECT {LEDGER_COLUMNS} FROM digest_ledger WHERE guild_id = $1 "
            "ORDER BY local_date DESC LIMIT $2", guild_id, limit)]
