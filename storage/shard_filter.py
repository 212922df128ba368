"""`Shards.owns` as a SQL condition on a `guild_id` column, for claims made in one statement:
one rule, rendered with `?` or numbered `$n` parameters (`storage.db`'s statements)."""

from __future__ import annotations

from domain.shards import SHARD_SHIFT, Shards


def shard_condition(shards: Shards, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
    """A condition true exactly for the rows whose server `shards.owns` (and its parameters);
    `column` is a column name of ours, never user text."""
    if shards.ids is None:
        return "1 = 1", ()
    marks = ", ".join("?" for _ in shards.ids)
    return f"(({column} >> {SHARD_SHIFT}) % ?) IN ({marks})", (shards.count, *shards.ids)


def numbered_shard_condition(shards: Shards, first: int,
                             column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
    """`shard_condition` with its parameters numbered from `$first`."""
    where, params = shard_condition(shards, column)
    parts = where.split("?")
    numbered = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], first))
    return numbered, params
