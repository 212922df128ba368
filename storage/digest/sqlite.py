"""Paper-of-the-day settings and the ledger: one row per (server, local date), claimed once."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

from domain.digest import (
    MAX_CONSECUTIVE_FAILURES,
    Claim,
    DigestConfig,
    Lease,
    LedgerEntry,
    LedgerStatus,
)
from domain.reasons import Reason, ReasonCode
from storage.digest.rows import (
    CONFIG_COLUMNS,
    LEDGER_COLUMNS,
    config_from_row,
    encoded,
    entry_from_row,
    lease_instant,
)
from storage.sqlite.database import Database
from storage.times import utc_timestamp


class SqliteDigestStore:
    """Settings per server and the exactly-once ledger."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def save_config(self, config: DigestConfig) -> None:
        """Create or replace a server's settings (re-enabling it and clearing failures)."""
        since = (config.enabled_since.isoformat(timespec="seconds") if config.enabled_since
                 else utc_timestamp())
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT OR REPLACE INTO digest_settings ({CONFIG_COLUMNS}, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (config.guild_id, config.channel_id, config.local_time, config.timezone,
                 int(config.thread), int(config.mention_subscribers), config.track,
                 int(config.enabled), since, encoded(config.paused_reason),
                 config.consecutive_failures, int(config.failure_notice_pending),
                 int(config.skip_discussed), config.pick.value, utc_timestamp()),
            )

    async def config(self, guild_id: int) -> DigestConfig | None:
        """A server's settings, or None."""
        row = await self._db.fetchone(
            f"SELECT {CONFIG_COLUMNS} FROM digest_settings WHERE guild_id = ?", (guild_id,)
        )
        return config_from_row(row) if row else None

    async def active_configs(self) -> list[DigestConfig]:
        """Servers whose digest is on and not paused."""
        return [config_from_row(row) for row in await self._db.fetchall(
            f"SELECT {CONFIG_COLUMNS} FROM digest_settings "
            "WHERE enabled = 1 AND paused_reason IS NULL ORDER BY guild_id"
        )]

    async def disable(self, guild_id: int) -> bool:
        """Turn a server's digest off; False if it had none."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE digest_settings SET enabled = 0, updated_at = ? WHERE guild_id = ?",
                (utc_timestamp(), guild_id),
            )
            return cursor.rowcount > 0

    async def take_failure_notice(self, guild_id: int) -> Reason | None:
        """The pause reason if admins have not been told yet; marks them told, in one
        conditional UPDATE (two processes never both tell)."""
        async with self._db.transaction() as conn, conn.execute(
            "UPDATE digest_settings SET failure_notice_pending = 0 "
            "WHERE guild_id = ? AND failure_notice_pending = 1 RETURNING paused_reason",
            (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else Reason.decode(str(row[0]))

    async def last_handled(self, guild_id: int) -> date | None:
        """The latest local date with a ledger row (any status)."""
        row = await self._db.fetchone(
            "SELECT max(local_date) FROM digest_ledger WHERE guild_id = ?", (guild_id,)
        )
        return date.fromisoformat(row[0]) if row and row[0] else None

    async def entry(self, guild_id: int, local_date: date) -> LedgerEntry | None:
        """The ledger row for a date, or None."""
        row = await self._db.fetchone(
            f"SELECT {LEDGER_COLUMNS} FROM digest_ledger WHERE guild_id = ? AND local_date = ?",
            (guild_id, local_date.isoformat()),
        )
        return entry_from_row(row) if row else None

    async def claim(self, guild_id: int, local_date: date, claim: Claim) -> LedgerEntry | None:
        """Claim the date before sending, leased to its owner; None when a row already exists
        (never claim twice). One `INSERT … ON CONFLICT DO NOTHING RETURNING`: of two processes
        claiming at once, exactly one gets the row."""
        async with self._db.transaction() as conn, conn.execute(
            "INSERT INTO digest_ledger (guild_id, local_date, status, nonce, "
            "paper_id, cycle, position, cycle_size, channel_id, late, claimed_at, owner, "
            "lease_until, pick, pick_like) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            f"ON CONFLICT DO NOTHING RETURNING {LEDGER_COLUMNS}",
            (guild_id, local_date.isoformat(), LedgerStatus.CLAIMED, claim.nonce,
             claim.paper_id, claim.cycle, claim.position, claim.cycle_size,
             claim.channel_id, int(claim.late), utc_timestamp(), claim.lease.owner,
             lease_instant(claim.lease.until), claim.pick.value, claim.pick_like),
        ) as cursor:
            row = await cursor.fetchone()
        return entry_from_row(row) if row else None

    async def reclaim_failed(self, guild_id: int, local_date: date,
                             claim: Claim) -> LedgerEntry | None:
        """Claim a FAILED date again (a retry); None unless the row is still FAILED (one
        conditional UPDATE).

        The nonce stays, so a post whose answer was lost before is not sent twice."""
        async with self._db.transaction() as conn, conn.execute(
            "UPDATE digest_ledger SET status = ?, paper_id = ?, cycle = ?, position = ?, "
            "cycle_size = ?, channel_id = ?, late = ?, message_id = NULL, thread_id = NULL, "
            "reason = NULL, claimed_at = ?, finished_at = NULL, owner = ?, lease_until = ?, "
            "pick = ?, pick_like = ? "
            f"WHERE guild_id = ? AND local_date = ? AND status = ? RETURNING {LEDGER_COLUMNS}",
            (LedgerStatus.CLAIMED, claim.paper_id, claim.cycle, claim.position,
             claim.cycle_size, claim.channel_id, int(claim.late), utc_timestamp(),
             claim.lease.owner, lease_instant(claim.lease.until), claim.pick.value,
             claim.pick_like, guild_id, local_date.isoformat(), LedgerStatus.FAILED),
        ) as cursor:
            row = await cursor.fetchone()
        return entry_from_row(row) if row else None

    async def hold(self, guild_id: int, local_date: date, lease: Lease, now: datetime) -> bool:
        """Take or renew the lease on a row: True when it is now `lease.owner`'s, False while
        another owner's lease is live at `now` (a row without a lease is anyone's)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE digest_ledger SET owner = ?, lease_until = ? "
                "WHERE guild_id = ? AND local_date = ? AND (owner IS NULL OR owner = ? "
                "OR lease_until IS NULL OR lease_until <= ?)",
                (lease.owner, lease_instant(lease.until), guild_id, local_date.isoformat(),
                 lease.owner, lease_instant(now)),
            )
            return cursor.rowcount > 0

    async def unfinished(self, guild_id: int) -> list[LedgerEntry]:
        """Claimed rows never marked posted or failed (a crash between claim and record)."""
        return [entry_from_row(row) for row in await self._db.fetchall(
            f"SELECT {LEDGER_COLUMNS} FROM digest_ledger WHERE guild_id = ? "
            "AND status = ? ORDER BY local_date", (guild_id, LedgerStatus.CLAIMED)
        )]

    async def mark_posted(self, guild_id: int, local_date: date, message_id: int) -> None:
        """Record the sent message and reset the failure count."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE digest_ledger SET status = ?, message_id = ?, finished_at = ?, "
                "attempts = attempts + 1 WHERE guild_id = ? AND local_date = ?",
                (LedgerStatus.POSTED, message_id, utc_timestamp(), guild_id,
                 local_date.isoformat()),
            )
            await conn.execute(
                "UPDATE digest_settings SET consecutive_failures = 0 WHERE guild_id = ?",
                (guild_id,),
            )

    async def mark_skipped(self, guild_id: int, local_date: date, reason: Reason) -> None:
        """A claimed date that will not be posted after all (too late to post), with why."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE digest_ledger SET status = ?, reason = ?, finished_at = ? "
                "WHERE guild_id = ? AND local_date = ? AND status = ?",
                (LedgerStatus.SKIPPED, reason.encode(), utc_timestamp(), guild_id,
                 local_date.isoformat(), LedgerStatus.CLAIMED),
            )

    async def mark_thread(self, guild_id: int, local_date: date, thread_id: int | None,
                          reason: Reason | None = None) -> None:
        """Record the discussion thread (or why there is none)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE digest_ledger SET thread_id = ?, reason = coalesce(?, reason) "
                "WHERE guild_id = ? AND local_date = ?",
                (thread_id, encoded(reason), guild_id, local_date.isoformat()),
            )

    async def mark_failed(self, guild_id: int, local_date: date, reason: Reason) -> bool:
        """Record a failure; True when it paused the digest (3 in a row)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE digest_ledger SET status = ?, reason = ?, finished_at = ?, "
                "attempts = attempts + 1 WHERE guild_id = ? AND local_date = ?",
                (LedgerStatus.FAILED, reason.encode(), utc_timestamp(), guild_id,
                 local_date.isoformat()),
            )
            await conn.execute(
                "UPDATE digest_settings SET consecutive_failures = consecutive_failures + 1 "
                "WHERE guild_id = ?", (guild_id,),
            )
            cursor = await conn.execute(
                "UPDATE digest_settings SET paused_reason = ?, failure_notice_pending = 1 "
                "WHERE guild_id = ? AND consecutive_failures >= ? AND paused_reason IS NULL",
                (Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": MAX_CONSECUTIVE_FAILURES},
                        reason).encode(), guild_id, MAX_CONSECUTIVE_FAILURES),
            )
            return cursor.rowcount > 0

    async def record_skips(self, guild_id: int, dates: Iterable[date], reason: Reason) -> int:
        """Record dates that will not be posted, with the reason; existing rows are kept."""
        stored, now = reason.encode(), utc_timestamp()
        rows = [(guild_id, d.isoformat(), LedgerStatus.SKIPPED,
                 f"skip:{guild_id}:{d.isoformat()}", stored, now, now) for d in dates]
        async with self._db.transaction() as conn:
            before = conn.total_changes
            await conn.executemany(
                "INSERT OR IGNORE INTO digest_ledger (guild_id, local_date, status, nonce, "
                "reason, claimed_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            return conn.total_changes - before

    async def current_cycle(self, guild_id: int) -> int:
        """The highest cycle a paper was claimed in (1 for a new server)."""
        row = await self._db.fetchone(
            "SELECT max(cycle) FROM digest_ledger WHERE guild_id = ?", (guild_id,)
        )
        return int(row[0]) if row and row[0] else 1

    async def claimed_in_cycle(self, guild_id: int, cycle: int) -> set[str]:
        """Papers claimed (posted or being posted) in a cycle."""
        return {str(row[0]) for row in await self._db.fetchall(
            "SELECT paper_id FROM digest_ledger WHERE guild_id = ? AND cycle = ? "
            "AND status IN (?, ?) AND paper_id IS NOT NULL",
            (guild_id, cycle, LedgerStatus.CLAIMED, LedgerStatus.POSTED)
        )}

    async def claimed_papers(self, guild_id: int) -> set[str]:
        """Papers ever claimed (posted or being posted) in a server, in any cycle."""
        return {str(row[0]) for row in await self._db.fetchall(
            "SELECT DISTINCT paper_id FROM digest_ledger WHERE guild_id = ? "
            "AND status IN (?, ?) AND paper_id IS NOT NULL",
            (guild_id, LedgerStatus.CLAIMED, LedgerStatus.POSTED)
        )}

    async def recent(self, guild_id: int, limit: int = 7) -> list[LedgerEntry]:
        """The latest ledger rows, newest first."""
        return [entry_from_row(row) for row in await self._db.fetchall(
            f"SELECT {LEDGER_COLUMNS} FROM digest_ledger WHERE guild_id = ? "
            "ORDER BY local_date DESC LIMIT ?", (guild_id, limit)
        )]
