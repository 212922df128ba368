"""Our own pace for Discord requests, kept below Discord's global 50 per second."""

from __future__ import annotations

from aiolimiter import AsyncLimiter

PACE_BURST = 5
"""A small burst keeps burst + rate under 50 in any second."""


def discord_pace(requests_per_second: float) -> AsyncLimiter:
    """A limiter for `requests_per_second` (when hundreds of servers are due in the same
    minute, retrying after 429s would waste discord.py's tries and count as invalid requests)."""
    return AsyncLimiter(PACE_BURST, PACE_BURST / max(1.0, requests_per_second))
