"""Digest settings and ledger columns, row decoding and reason encoding (the feed store uses the
reason encoding too)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from domain.digest import DigestConfig, DigestPick, LedgerEntry, LedgerStatus
from domain.leases import Lease
from domain.reasons import Reason, decode_optional

CONFIG_COLUMNS = (
    "guild_id, channel_id, local_time, timezone, thread, mention_subscribers, track, enabled, "
    "enabled_since, paused_reason, consecutive_failures, failure_notice_pending, skip_discussed, "
    "pick"
)

LEDGER_COLUMNS = (
    "guild_id, local_date, status, nonce, paper_id, cycle, position, cycle_size, channel_id, "
    "message_id, thread_id, late, reason, attempts, claimed_at, owner, lease_until, "
    "followers_queued, pick, pick_like"
)


def encoded(reason: Reason | None) -> str | None:
    return None if reason is None else reason.encode()


def config_from_row(row: Sequence[Any]) -> DigestConfig:
    return DigestConfig(
        guild_id=row[0], channel_id=row[1], local_time=row[2], timezone=row[3],
        thread=bool(row[4]), mention_subscribers=bool(row[5]), track=row[6],
        enabled=bool(row[7]), enabled_since=datetime.fromisoformat(row[8]),
        paused_reason=decode_optional(row[9]), consecutive_failures=row[10],
        failure_notice_pending=bool(row[11]), skip_discussed=bool(row[12]),
        pick=DigestPick(row[13]),
    )


def entry_from_row(row: Sequence[Any]) -> LedgerEntry:
    return LedgerEntry(
        guild_id=row[0], local_date=date.fromisoformat(row[1]), status=LedgerStatus(row[2]),
        nonce=row[3],
        paper_id=row[4], cycle=row[5], position=row[6], cycle_size=row[7], channel_id=row[8],
        message_id=row[9], thread_id=row[10], late=bool(row[11]),
        reason=decode_optional(row[12]),
        attempts=row[13], claimed_at=datetime.fromisoformat(row[14]),
        lease=Lease(row[15], datetime.fromisoformat(row[16])) if row[15] and row[16] else None,
        followers_queued=bool(row[17]), pick=DigestPick(row[18]), pick_like=row[19],
    )
