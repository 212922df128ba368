"""Leases on claimed deliveries: which process is finishing a claim, and until when.

A claim (a paper of the day, a reminder, a vote's or a feed's announcement) is leased to the
process that made it. Before resuming a claim left unfinished, a process takes or renews the
lease in one conditional UPDATE; while another process's lease is live it keeps its hands off,
so two processes that both own a server never both resume the same claim.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from bot.shared.clock import Clock, utc_now
from domain.leases import Lease

T = TypeVar("T")

DEFAULT_LEASE = timedelta(minutes=5)
"""How long a claim stays its owner's without renewal (renewed before every Discord call)."""


def process_owner() -> str:
    """This process as a claim owner: host, process id and start time (the default owner)."""
    return f"{socket.gethostname()}:{os.getpid()}:{utc_now().isoformat(timespec='seconds')}"


@dataclass(frozen=True, slots=True)
class Leaser:
    """Makes this process's leases: `owner`, `length` long, as measured by `clock`."""

    owner: str
    length: timedelta = DEFAULT_LEASE
    clock: Clock = utc_now

    def fresh(self) -> Lease:
        """A lease from now, for a new claim."""
        return Lease(self.owner, self.clock() + self.length)

    async def hold(self, take: Callable[[Lease, datetime], Awaitable[T]]) -> T:
        """Take or renew the lease through a store's `hold` or claim (given the lease and
        now); returns what the store answers."""
        now = self.clock()
        return await take(Lease(self.owner, now + self.length), now)
