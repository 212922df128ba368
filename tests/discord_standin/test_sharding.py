"""Sharding as Discord enforces it: /gateway/bot, the shard at IDENTIFY, per-shard events,
the 5-second IDENTIFY spacing per concurrency bucket, session starts, and the per-token
global rate limit."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from discord_standin import Guild, StandIn, User
from tests.clocks import Ticker
from tests.discord_standin.test_gateway import receive
from tests.group import assert_no_tasks_left


def on_shard(shard: int, count: int, n: int) -> int:
    """A guild id whose events go to `shard` of `count` (Discord's `(id >> 22) % count`)."""
    return ((n * count + shard) << 22) | 12345


def guilds_on(count: int, per_shard: int) -> list[Guild]:
    return [Guild(f"S{s} G{n}", channels=["general"], members=[User(f"u{s}{n}")],
                  id=on_shard(s, count, n)) for s in range(count) for n in range(per_shard)]


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def identify(http: aiohttp.ClientSession, standin: StandIn, shard: Any,
                   token: str = "x") -> tuple[dict[str, Any] | None, int | None]:
    """IDENTIFY with `shard` on a fresh connection: the first answer, or the close code."""
    async with http.ws_connect(standin.gateway_url) as ws:
        await receive(ws)
        data: dict[str, Any] = {"token": token, "intents": 1, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_json({"op": 2, "d": data})
        msg = await ws.receive(timeout=5)
        if msg.type is aiohttp.WSMsgType.TEXT:
            frame: dict[str, Any] = msg.json()
            await ws.close(code=4000)
            return frame, None
        return None, ws.close_code


async def test_gateway_bot_recommends_shards_and_counts_session_starts(
        http: aiohttp.ClientSession) -> None:
    async with StandIn(guilds=guilds_on(1, 2), token="x", max_concurrency=16,
                       session_starts=1000) as standin:
        async def gateway_bot() -> dict[str, Any]:
            async with http.get(standin.rest_base + "/gateway/bot",
                                headers={"Authorization": "Bot x"}) as response:
                assert response.status == 200
                return dict(await response.json())

        before = await gateway_bot()
        ready, _ = await identify(http, standin, [0, 1])
        after = await gateway_bot()
        async with http.get(standin.rest_base + "/gateway/bot") as anonymous:
            assert anonymous.status == 401
        async with http.get(standin.rest_base + "/gateway") as plain:
            assert await plain.json() == {"url": standin.gateway_url}
    assert ready is not None and ready["d"]["shard"] == [0, 1]
    assert before["url"] == standin.gateway_url and before["shards"] == 1
    assert before["session_start_limit"] == {"total": 1000, "remaining": 1000,
                                             "reset_after": 86_400_000, "max_concurrency": 16}
    assert after["session_start_limit"]["remaining"] == 999
    assert_no_tasks_left()


async def test_recommended_shards_follow_the_guild_count() -> None:
    async with StandIn(guilds=guilds_on(1, 1)) as standin:
        for n in range(2, 2_502):
            standin.world.add_guild(Guild(f"G{n}", id=on_shard(0, 1, n)))
        body = standin.gateway.sharding.gateway_bot(standin.gateway_url, len(standin.world.guilds))
    assert body["shards"] == 3  # about one shard per 1,000 guilds


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,1", [True, 2]])
async def test_an_invalid_shard_is_closed_with_4010(http: aiohttp.ClientSession,
                                                     shard: Any) -> None:
    async with StandIn(guilds=guilds_on(1, 1)) as standin:
        frame, code = await identify(http, standin, shard)
    assert frame is None and code == 4010


async def test_too_many_guilds_for_one_shard_is_closed_with_4011(
        http: aiohttp.ClientSession) -> None:
    clock = Ticker()
    async with StandIn(guilds=guilds_on(2, 2), clock=clock) as standin:
        standin.gateway.sharding.guilds_per_shard = 3  # Discord's is 2,500
        refused, code = await identify(http, standin, [0, 1])
        clock.advance(5)
        accepted, _ = await identify(http, standin, [0, 2])  # two guilds each: fine
    assert refused is None and code == 4011
    assert accepted is not None and accepted["t"] == "READY"


async def test_identify_spacing_per_concurrency_bucket(http: aiohttp.ClientSession) -> None:
    clock = Ticker()
    async with StandIn(guilds=guilds_on(4, 1), clock=clock, max_concurrency=2) as standin:
        first, _ = await identify(http, standin, [0, 4])
        other_bucket, _ = await identify(http, standin, [1, 4])  # bucket 1: at the same time
        same_bucket, _ = await identify(http, standin, [2, 4])  # bucket 0 again: too soon
        clock.advance(4.9)
        still_too_soon, _ = await identify(http, standin, [2, 4])
        clock.advance(0.1)
        later, _ = await identify(http, standin, [2, 4])
        refused = standin.gateway.sharding.refused_identifies
    assert first and other_bucket and later
    assert [f["t"] for f in (first, other_bucket, later)] == ["READY"] * 3
    assert same_bucket == still_too_soon == {"op": 9, "d": False, "s": None, "t": None}
    assert refused == 2


async def test_exhausted_session_starts_end_every_session(http: aiohttp.ClientSession) -> None:
    clock = Ticker()
    async with StandIn(guilds=guilds_on(1, 1), clock=clock, session_starts=1) as standin:
        ready, _ = await identify(http, standin, None)
        clock.advance(5)
        frame, code = await identify(http, standin, None)
        live = standin.gateway.live_sessions
    assert ready is not None and ready["t"] == "READY"
    assert frame is None and code == 4004 and live == []


async def test_events_go_to_the_shard_of_their_guild_and_dms_to_shard_0(
        http: aiohttp.ClientSession) -> None:
    guilds = guilds_on(2, 3)
    async with StandIn(guilds=guilds, max_concurrency=2) as standin:
        sockets = []
        for shard in (0, 1):
            ws = await http.ws_connect(standin.gateway_url)
            await receive(ws)
            await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1, "properties": {},
                                               "shard": [shard, 2]}})
            sockets.append(ws)
        created: dict[int, set[int]] = {0: set(), 1: set()}
        for shard, ws in enumerate(sockets):
            ready = await receive(ws)
            assert ready["d"]["shard"] == [shard, 2]
            assert {int(g["id"]) for g in ready["d"]["guilds"]} == \
                {g.id for g in guilds if (g.id >> 22) % 2 == shard}
            for _ in range(3):
                created[shard].add(int((await receive(ws))["d"]["id"]))
        target = guilds[4]  # on shard 1
        to_guild = await standin.gateway.dispatch("INTERACTION_CREATE",
                                                  {"id": "1", "guild_id": str(target.id)})
        to_dm = await standin.gateway.dispatch("INTERACTION_CREATE", {"id": "2"})
        guild_event, dm_event = await receive(sockets[1]), await receive(sockets[0])
        for ws in sockets:
            await ws.close(code=4000)
    assert created == {s: {g.id for g in guilds if (g.id >> 22) % 2 == s} for s in (0, 1)}
    assert (to_guild, to_dm) == (1, 1)
    assert guild_event["d"]["id"] == "1" and dm_event["d"]["id"] == "2"


class ShardedClient(discord.AutoShardedClient):
    """discord.py's sharded client, identifying its shards as fast as the buckets allow."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # each shard is in its own bucket (max_concurrency 2)


async def test_a_discord_py_auto_sharded_client_gets_each_guild_on_its_shard() -> None:
    guilds = guilds_on(2, 3)
    async with StandIn(guilds=guilds, shards=2, max_concurrency=2) as standin:
        client = ShardedClient(intents=discord.Intents.none() | discord.Intents(guilds=True),
                               guild_ready_timeout=0.05)
        await standin.start_bot(client, token="x")
        try:
            shards = {s.id: s.shard_count for s in client.shards.values()}
            seen = {g.id: g.shard_id for g in client.guilds}
            per_session = {
                session.shard.id: {int(e["d"]["id"]) for e in session.events
                                   if e["t"] == "GUILD_CREATE"}
                for session in standin.gateway.live_sessions}
        finally:
            await standin.stop_bot(client)
    assert shards == {0: 2, 1: 2}  # the count came from GET /gateway/bot
    assert seen == {g.id: (g.id >> 22) % 2 for g in guilds}
    assert per_session == {s: {g.id for g in guilds if (g.id >> 22) % 2 == s} for s in (0, 1)}
    assert standin.requests("GET", "/gateway/bot")


async def test_the_global_rate_limit_belongs_to_the_token() -> None:
    clock = Ticker()  # stands still: every request falls in the same second
    async with StandIn(rate_limit=50, clock=clock) as standin, \
            aiohttp.ClientSession() as one, aiohttp.ClientSession() as other:
        async def me(session: aiohttp.ClientSession, token: str) -> int:
            async with session.get(standin.rest_base + "/users/@me",
                                   headers={"Authorization": f"Bot {token}"}) as response:
                return response.status

        # two connections (two processes, say) of one token share its 50 per second
        shared = await asyncio.gather(*(me(one if i % 2 else other, "a") for i in range(50)))
        over = await me(one, "a")
        another_token = await me(other, "b")
        clock.advance(1.0)
        next_second = await me(one, "a")
    assert shared == [200] * 50
    assert over == 429 and another_token == 200 and next_second == 200
