"""`Shards.owns` as a SQL condition on a `guild_id` column, for claims made in one statement."""

from __future__ import annotations

from bot.core.shards import SHARD_SHIFT, Shards


def shard_condition(shards: Shards, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
    """A condition true exactly for the rows whose server `shards.owns` (and its parameters);
    `column` is a column name of ours, never user text."""
    if shards.ids is None:
        return "1 = 1", ()
    marks = ", ".join("?" for _ in shards.ids)
    return f"(({column} >> {SHARD_SHIFT}) % ?) IN ({marks})", (shards.count, *shards.ids)
