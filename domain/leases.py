"""A lease on a claimed side effect: which process is finishing it, and until when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Lease:
    """Who is finishing a claim (a post, a DM, a step), and until when the claim is theirs.

    `owner` names a process (host, process id and start time). A claim whose lease is live
    belongs to its owner alone; once the lease expires (its owner crashed or hung), any
    process may take the claim over and finish it."""

    owner: str
    until: datetime
