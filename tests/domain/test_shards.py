"""Which servers a process owns: Discord's shard formula, DMs on shard 0, and the SQL form of
the same rule agreeing with it."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.shards import ALL_SHARDS, Shards, parse_shard_ids, shard_of
from storage.db import sqlite_sql
from storage.shard_filter import shard_condition

SNOWFLAKES = st.integers(min_value=0, max_value=(1 << 63) - 1)


def test_discords_formula_and_dms_on_shard_0() -> None:
    guild = (5 << 22) | 123
    assert shard_of(guild, 3) == 2
    assert Shards(3, (2,)).owns(guild) and not Shards(3, (0, 1)).owns(guild)
    assert Shards(3, (0,)).owns(None) and not Shards(3, (1, 2)).owns(None)
    assert ALL_SHARDS.owns(guild) and ALL_SHARDS.owns(None) and ALL_SHARDS.share == 1.0
    assert Shards(4, (0, 3)).share == 0.5 and Shards(4).owned == (0, 1, 2, 3)


@pytest.mark.parametrize(("count", "ids"), [(0, None), (3, (3,)), (3, (1, 1)), (3, ()),
                                            (3, (-1,))])
def test_impossible_shards_are_refused(count: int, ids: tuple[int, ...] | None) -> None:
    with pytest.raises(ValueError, match="shard"):
        Shards(count, ids)


@given(st.lists(SNOWFLAKES, min_size=1, max_size=20), st.integers(1, 8), st.data())
def test_every_process_owns_each_server_once_and_sql_agrees(
        guilds: list[int], count: int, data: st.DataObject) -> None:
    ids = tuple(data.draw(st.sets(st.integers(0, count - 1), min_size=1)))
    shards = Shards(count, ids)
    owners = [[s for s in range(count) if Shards(count, (s,)).owns(g)] for g in guilds]
    assert all(len(o) == 1 for o in owners)
    where, params = shard_condition(shards)
    with sqlite3.connect(":memory:") as conn:
        conn.execute("CREATE TABLE t (guild_id INTEGER)")
        conn.executemany("INSERT INTO t VALUES (?)", [(g,) for g in guilds])
        picked = sorted(r[0] for r in conn.execute(
            f"SELECT guild_id FROM t WHERE {sqlite_sql(where)}", params))
    assert picked == sorted(g for g in guilds if shards.owns(g))


@pytest.mark.parametrize(("text", "ids"), [
    ("0", (0,)), ("0,1", (0, 1)), ("0-1", (0, 1)), ("4-7", (4, 5, 6, 7)),
    ("0, 2-3", (0, 2, 3)), ("3-3", (3,)),
])
def test_shard_ids_and_ranges_as_a_systemd_instance_names_them(
        text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize("text", ["a", "1-", "-1", "3-1", "0-x", "1.5"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_shard_ids(text)
