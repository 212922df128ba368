"""`Shards.owns` as a SQL condition on a `guild_id` column, for claims made in one statement,
its parameters numbered `$n` (`storage.db`'s statements)."""

from __future__ import annotations

from domain.shards import SHARD_SHIFT, Shards


def shard_condition(shards: Shards, first: int = 1) -> tuple[str, tuple[int, ...]]:
    """A condition true exactly for the rows whose server (`guild_id`) `shards.owns`, with its
    parameters numbered from `$first`."""
    if shards.ids is None:
        return "1 = 1", ()
    marks = ", ".join(f"${n}" for n in range(first + 1, first + 1 + len(shards.ids)))
    return f"((guild_id >> {SHARD_SHIFT}) % ${first}) IN ({marks})", (shards.count, *shards.ids)
