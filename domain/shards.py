"""Which servers this process looks after: Discord's shard formula, in one place.

Discord sends a server's events to shard `(guild_id >> 22) % shard_count` and DMs to shard 0.
A process running some of the shards does the scheduled work (paper of the day, reminders,
votes, the outbox) only for servers on its shards; the database claim stays the final guard
when two processes both believe they own a server.
"""

from __future__ import annotations

from dataclasses import dataclass

SHARD_SHIFT = 22
"""A snowflake's bits below this are not part of its timestamp (Discord's shard formula)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a server's events arrive on."""
    return (guild_id >> SHARD_SHIFT) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: `ids` out of `count` (every shard when `ids` is None)."""

    count: int = 1
    ids: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count must be at least 1")
        if self.ids is not None:
            if len(set(self.ids)) != len(self.ids):
                raise ValueError("shard ids must not repeat")
            if not self.ids or any(not 0 <= i < self.count for i in self.ids):
                raise ValueError(f"shard ids must be between 0 and {self.count - 1}")

    @property
    def owned(self) -> tuple[int, ...]:
        """The shard ids this process runs."""
        return self.ids if self.ids is not None else tuple(range(self.count))

    @property
    def share(self) -> float:
        """This process's fraction of all shards (of the token's request budget, by default)."""
        return len(self.owned) / self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process looks after a server (None: a DM, which is shard 0's)."""
        if self.ids is None:
            return True
        return shard_of(guild_id or 0, self.count) in self.ids


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """`0,1`, `4-7` or `0,2-3` as shard ids in the order given (a range is inclusive; a systemd
    instance name like `paperclub@0-1` reads as it is); ValueError on anything else."""
    ids: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        first, dash, last = part.partition("-")
        start = int(first)
        end = int(last) if dash else start
        if start < 0 or end < start:
            raise ValueError(f"not a shard range: {part}")
        ids += range(start, end + 1)
    return tuple(ids)


ALL_SHARDS = Shards()
"""One process doing everything (the default)."""
