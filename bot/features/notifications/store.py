"""The outbox's store: notifications waiting to be sent. The protocol is what the feature's
services depend on; `storage/` implements it once, for both backends."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Protocol

from domain.leases import Lease
from domain.outbox import OutboxUnit
from domain.shards import ALL_SHARDS, Shards


class OutboxStore(Protocol):
    """Notifications waiting to be sent, each unit leased to one process at a time."""

    async def queue_followers(self, guild_id: int, local_date: date, paper_id: str,
                              told: Iterable[int], units: Iterable[OutboxUnit]) -> int | None:
        """One transaction across the ledger and the outbox: mark a posted paper of the day's
        followers queued, record `told` as pinged and queue `units`; None (nothing written)
        when they were queued before, so a post's followers are queued exactly once."""
        ...

    async def claim(self, owner: str, now: float, lease_until: float,
                    shards: Shards = ALL_SHARDS) -> OutboxUnit | None:
        """Lease the oldest claimable unit (never leased, released, or lease expired) of a
        server on `shards`, in one atomic statement."""
        ...

    async def complete(self, key: str, owner: str) -> int:
        """Delete a sent unit and record its members as told, if `owner` still holds it."""
        ...

    async def retry_later(self, key: str, owner: str, not_before: float) -> None:
        """Give a unit back, claimable again from `not_before`."""
        ...

    async def drop(self, key: str, owner: str) -> int:
        """Delete a unit Discord refused for good; nobody is recorded as told."""
        ...

    async def drop_dms(self, user_id: int) -> int:
        """Delete every DM queued for a member."""
        ...

    async def release(self, owner: str) -> int:
        """Give back every unit `owner` holds."""
        ...


class AnnouncementStore(Protocol):
    """Papers added to the catalog whose subscribers are still to be queued their DMs."""

    async def claim(self, lease: Lease, now: datetime, limit: int) -> list[str]:
        """Lease up to `limit` unannounced papers (oldest first) whose lease is free."""
        ...

    async def announced(self, owner: str, paper_ids: Sequence[str],
                        units: Iterable[OutboxUnit]) -> int | None:
        """One transaction: delete the papers `owner` still holds and queue the units' entries
        about them; the rows queued, None when `owner` held none (another took over)."""
        ...

    async def release(self, owner: str) -> int:
        """Give back every paper `owner` holds."""
        ...
