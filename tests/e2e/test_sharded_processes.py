"""Three real bot processes, each running a shard range of one stand-in, on one database:
the paper of the day is due in the same minute in every server; each server gets exactly one
post, also when a process is SIGKILLed and restarted, and when two processes are given
overlapping shards (then the database claim is the only guard: Discord's nonce memory is off).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.digest_types import DigestConfig
from bot.core.shards import Shards
from discord_standin import Guild, StandIn
from storage.database import Database
from storage.digests import SqliteDigestStore
from tests.e2e.test_digest_crash import ROOT, BotProcess, _until

pytestmark = pytest.mark.slow
SERVERS = 200


class ShardProcess(BotProcess):
    """`paperclub run --shard-count N --shard-ids …` in a subprocess."""

    def __init__(self, standin: StandIn, tmp_path: Path, name: str, count: int,
                 ids: tuple[int, ...]) -> None:
        super().__init__(standin, tmp_path, name=name, lease_seconds=2)
        self.shard_args = ["--shard-count", str(count), "--shard-ids", ",".join(map(str, ids))]

    async def start(self) -> None:
        env = {"DISCORD_TOKEN": "standin-token", "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", "--config", str(self.config),
                *self.shard_args, cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=log)


def _servers(count: int) -> list[Guild]:
    """Servers spread over the shards (snowflakes a second apart, as Discord makes them)."""
    return [Guild(f"Group {n}", channels=["papers"], id=((1_400_000_000_000 + n * 1000) << 22)
                  | n) for n in range(count)]


async def _due_now(db_path: Path, guilds: list[Guild]) -> None:
    """Every server's paper of the day due in this minute."""
    now = datetime.now(UTC)
    db = await Database.open(db_path)
    try:
        store = SqliteDigestStore(db)
        for guild in guilds:
            await store.save_config(DigestConfig(
                guild.id, guild.channel("papers").id, now.strftime("%H:%M"), "UTC",
                enabled_since=now - timedelta(hours=1)))
    finally:
        await db.close()


async def _finished(db_path: Path) -> int:
    db = await Database.open(db_path, readers=1)
    try:
        row = await db.fetchone("SELECT count(*) FROM digest_ledger WHERE status = 'posted' "
                                "AND thread_id IS NOT NULL")
        return int(row[0]) if row else 0
    finally:
        await db.close()


def _posts(standin: StandIn, guilds: list[Guild]) -> Counter[int]:
    return Counter({g.id: sum(1 for m in standin.messages(g.channel("papers")) if m.embeds)
                    for g in guilds})


async def _run(standin: StandIn, tmp_path: Path, guilds: list[Guild],
               layout: list[tuple[int, ...]], count: int, *, kill: bool) -> None:
    procs = [ShardProcess(standin, tmp_path, f"shard{n}", count, ids)
             for n, ids in enumerate(layout)]
    try:
        for n, proc in enumerate(procs):  # the first loads the catalog into the new database
            await proc.start()

            async def connected(sessions: int = n + 1) -> bool:
                return await _connected(standin, sessions)

            await _until(connected, f"process {n} to connect", 60)
        await _due_now(procs[0].db_path, guilds)
        if kill:
            async def some_posted() -> bool:
                return sum(_posts(standin, guilds).values()) >= len(guilds) // 4
            await _until(some_posted, "the first posts", 60)
            await procs[1].kill()
            await procs[1].start()

        async def all_finished() -> bool:
            return await _finished(procs[0].db_path) == len(guilds)

        await _until(all_finished, "every server's post and thread", 120)
    finally:
        for proc in procs:
            await proc.stop()


async def _connected(standin: StandIn, sessions: int) -> bool:
    return len([s for s in standin.gateway.live_sessions if s.connection]) >= sessions


@pytest.mark.parametrize("kill", [False, True], ids=["steady", "sigkill-and-restart"])
async def test_three_processes_post_once_per_server(tmp_path: Path, kill: bool) -> None:
    guilds = _servers(SERVERS)
    async with StandIn(guilds=guilds, rate_limit=50, max_concurrency=16) as standin:
        await _run(standin, tmp_path, guilds, [(0,), (1,), (2,)], 3, kill=kill)
        posts = _posts(standin, guilds)
        limited = standin.rate_limited
        owners = Counter(Shards(3, (s,)).owns(g.id) for g in guilds for s in range(3))
    assert owners[True] == SERVERS  # each server is on exactly one process
    assert set(posts.values()) == {1}, f"posts per server: {Counter(posts.values())}"
    # The processes' paces add up to 45/s of the token's 50: no 429 storm (a loaded machine
    # may deliver a few requests late and bunched; discord.py retries those).
    assert limited < SERVERS // 20, f"{limited} answers were 429"


class Racing:
    """A stand-in clock that jumps on every read: Discord's nonce memory forgets at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1_000.0
        return self.now


async def test_overlapping_shards_still_post_once_per_server(tmp_path: Path) -> None:
    guilds = _servers(SERVERS // 2)
    async with StandIn(guilds=guilds, clock=Racing(), max_concurrency=16) as standin:
        await _run(standin, tmp_path, guilds, [(0, 1), (1,)], 2, kill=False)
        posts = _posts(standin, guilds)
    assert set(posts.values()) == {1}, f"posts per server: {Counter(posts.values())}"
