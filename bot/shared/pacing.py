"""Our own pace for Discord requests, kept below Discord's global 50 per second."""

from __future__ import annotations

from aiolimiter import AsyncLimiter

TOKEN_RATE = 45.0
"""The requests per second the bot token's processes take together (Discord allows 50)."""
PACE_BURST = 5
"""The burst at the full rate: burst + rate stays under 50 in any second."""


def discord_pace(requests_per_second: float) -> AsyncLimiter:
    """A limiter for `requests_per_second` (when hundreds of servers are due in the same
    minute, retrying after 429s would waste discord.py's tries and count as invalid requests).

    A process with a share of the token's rate gets the same share of the burst, so that
    processes whose rates add up to 45/s still stay under 50 in any second together."""
    rate = max(1.0, requests_per_second)
    burst = max(1, int(PACE_BURST * min(rate, TOKEN_RATE) / TOKEN_RATE))
    return AsyncLimiter(burst, burst / rate)
