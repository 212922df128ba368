"""Discord's sharding rules: which shard a guild is on, the shard check at IDENTIFY, the
IDENTIFY spacing per concurrency bucket, the daily session starts, and ``GET /gateway/bot``."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .model import JSONObject

GUILDS_PER_SHARD = 2_500
"""Discord refuses a session (close 4011) that would hold more guilds than this."""
RECOMMENDED_GUILDS_PER_SHARD = 1_000
"""``GET /gateway/bot`` recommends about one shard per this many guilds."""
IDENTIFY_INTERVAL = 5.0
"""One IDENTIFY per concurrency bucket per this many seconds; more gets op 9."""
SESSION_STARTS_PER_DAY = 1_000
DAY_MS = 86_400_000

INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild's events go to (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def event_guild_id(event: str, data: JSONObject) -> int | None:
    """The guild an event belongs to; None for DMs and other events outside any guild."""
    raw = data.get("id") if event.startswith("GUILD_") and "guild_id" not in data \
        else data.get("guild_id")
    return int(raw) if raw is not None else None


@dataclass(frozen=True, slots=True)
class Shard:
    """A session's ``[shard_id, shard_count]``."""

    id: int = 0
    count: int = 1

    def owns(self, guild_id: int | None) -> bool:
        """Whether this shard receives a guild's events (DMs arrive on shard 0 only)."""
        if guild_id is None:
            return self.id == 0
        return shard_of(guild_id, self.count) == self.id


@dataclass
class Sharding:
    """The token's gateway limits, timed by the stand-in's ``clock`` (seconds)."""

    recommended_shards: int | None = None
    """What ``GET /gateway/bot`` recommends; None: one per 1,000 guilds."""
    max_concurrency: int = 1
    session_starts: int = SESSION_STARTS_PER_DAY
    guilds_per_shard: int = GUILDS_PER_SHARD
    identify_interval: float = IDENTIFY_INTERVAL
    clock: Callable[[], float] = time.monotonic
    remaining: int = field(init=False)
    refused_identifies: int = 0
    """IDENTIFYs answered with op 9 because their bucket identified too recently."""
    _last_identify: dict[int, float] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.remaining = self.session_starts

    def recommended(self, guild_count: int) -> int:
        """The shard count ``GET /gateway/bot`` recommends."""
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, math.ceil(guild_count / RECOMMENDED_GUILDS_PER_SHARD))

    def gateway_bot(self, url: str, guild_count: int) -> JSONObject:
        """The body of ``GET /gateway/bot``."""
        return {
            "url": url,
            "shards": self.recommended(guild_count),
            "session_start_limit": {
                "total": self.session_starts,
                "remaining": self.remaining,
                "reset_after": DAY_MS,
                "max_concurrency": self.max_concurrency,
            },
        }

    def parse(self, raw: object) -> Shard | None:
        """IDENTIFY's ``shard`` field (absent: ``[0, 1]``); None when Discord refuses it."""
        if raw is None:
            return Shard()
        if not isinstance(raw, list) or len(raw) != 2 \
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
            return None
        shard_id, count = raw
        return Shard(shard_id, count) if count >= 1 and 0 <= shard_id < count else None

    def admit(self, shard: Shard) -> bool:
        """Take one session start in the shard's bucket, or False if the bucket identified
        within the interval (Discord answers op 9)."""
        bucket = shard.id % self.max_concurrency
        now = self.clock()
        last = self._last_identify.get(bucket)
        if last is not None and now - last < self.identify_interval:
            self.refused_identifies += 1
            return False
        self._last_identify[bucket] = now
        self.remaining -= 1
        return True
