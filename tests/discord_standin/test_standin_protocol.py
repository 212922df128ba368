"""The stand-in's wire protocol, spoken to directly with aiohttp (and once through a bot)."""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from discord_standin import Guild, Overwrite, Permission, StandIn
from tests.discord_standin.testbot import People, TestBot


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def receive(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    msg = await ws.receive(timeout=5)
    if msg.type is aiohttp.WSMsgType.BINARY:
        return dict(json.loads(zlib.decompressobj().decompress(msg.data)))
    assert msg.type is aiohttp.WSMsgType.TEXT, msg
    return dict(json.loads(msg.data))


async def test_identify_ready_guild_create_then_resume_replays(
    standin: StandIn, http: aiohttp.ClientSession, guild: Guild
) -> None:
    async with http.ws_connect(standin.gateway_url + "?v=10&encoding=json") as ws:
        hello = await receive(ws)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
        await ws.send_json({"op": 1, "d": None})
        assert (await receive(ws))["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1, "properties": {}}})
        ready, created = await receive(ws), await receive(ws)
        await ws.close(code=4000)
    assert (ready["t"], ready["s"], created["t"], created["s"]) == ("READY", 1, "GUILD_CREATE", 2)
    assert ready["d"]["resume_gateway_url"] == standin.gateway_url + "/resume"
    assert ready["d"]["application"] == {"id": str(standin.application_id), "flags": 0}
    assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
    assert {c["name"] for c in created["d"]["channels"]} == {"general", "papers"}
    assert created["d"]["member_count"] == len(created["d"]["members"]) == 4

    session_id = ready["d"]["session_id"]
    async with http.ws_connect(ready["d"]["resume_gateway_url"]) as ws:
        await receive(ws)
        await ws.send_json({"op": 6, "d": {"token": "x", "session_id": session_id, "seq": 1}})
        replayed, resumed = await receive(ws), await receive(ws)
    assert (replayed["t"], replayed["s"]) == ("GUILD_CREATE", 2)
    assert (resumed["t"], resumed["s"]) == ("RESUMED", 3)
    assert standin.gateway_stats.replayed == 1


async def test_resume_of_unknown_session_is_invalid(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    async with http.ws_connect(standin.gateway_url) as ws:
        await receive(ws)
        await ws.send_json({"op": 6, "d": {"token": "x", "session_id": "nope", "seq": 3}})
        invalid = await receive(ws)
    assert invalid == {"op": 9, "d": False, "s": None, "t": None}
    assert standin.gateway_stats.invalid_sessions == 1


async def test_wrong_token_closes_with_4004(standin: StandIn, http: aiohttp.ClientSession) -> None:
    async with http.ws_connect(standin.gateway_url) as ws:
        await receive(ws)
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0}})
        msg = await ws.receive(timeout=5)
    assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4004


async def test_rest_answers_exact_json_and_checks_the_token(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    async with http.get(standin.rest_base + "/users/@me", headers={"Authorization": "Bot x"}) as ok:
        assert ok.status == 200 and ok.headers["Content-Type"] == "application/json"
        assert (await ok.json())["id"] == str(standin.bot_user.id)
    async with http.get(
        standin.rest_base + "/users/@me", headers={"Authorization": "Bot y"}
    ) as bad:
        assert bad.status == 401 and (await bad.json())["message"] == "401: Unauthorized"


async def test_global_rate_limiter_answers_proper_429s(http: aiohttp.ClientSession) -> None:
    async with StandIn(rate_limit=2) as standin:
        statuses, last = [], None
        for _ in range(3):
            async with http.get(
                standin.rest_base + "/users/@me", headers={"Authorization": "Bot t"}
            ) as r:
                statuses.append(r.status)
                last = (dict(r.headers), await r.json())
        assert statuses == [200, 200, 429]
        assert last is not None
        headers, body = last
        assert headers["Via"] and headers["X-RateLimit-Global"] == "true"
        assert body["global"] is True and 0 < body["retry_after"] <= 1
        assert standin.rate_limited == 1


async def test_channel_overwrites_deny_the_bot(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    papers = guild.channel("papers")
    papers.overwrites.append(Overwrite.for_role(guild.everyone, deny=Permission.SEND_MESSAGES))
    handle = await standin.slash("announce", {"title": "Closed"}, channel=papers, user=people.alice)
    assert (await handle.response()).content == "failed: 50013"
    assert standin.messages(papers) == []


async def test_compressed_gateway_works_with_discord_py(guild: Guild) -> None:
    async with StandIn(guilds=[guild], compress=True) as standin:
        bot = TestBot()
        await standin.start_bot(bot)
        handle = await standin.slash("echo", {"text": "zipped"}, guild=guild)
        assert (await handle.response()).content == "echo: zipped"
        assert standin.gateway_stats.identifies == 1 and standin.gateway_stats.compressed == 1


async def test_one_standin_at_a_time_and_endpoints_are_restored() -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    async with StandIn() as standin:
        assert standin.rest_base == Route.BASE
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == standin.gateway_url
        with pytest.raises(RuntimeError, match="another StandIn"):
            async with StandIn():
                pass
        assert standin.rest_base == Route.BASE
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_callbacks_need_a_live_unanswered_interaction(
    standin: StandIn, bot: TestBot, guild: Guild, http: aiohttp.ClientSession
) -> None:
    handle = await standin.slash("echo", {"text": "once"}, guild=guild)
    await handle.response()
    again = f"{standin.rest_base}/interactions/{handle.id}/{handle.token}/callback"
    async with http.post(again, json={"type": 4, "data": {"content": "twice"}}) as answered:
        assert answered.status == 400 and (await answered.json())["code"] == 40060
    unknown = f"{standin.rest_base}/interactions/{handle.id}/not-the-token/callback"
    async with http.post(unknown, json={"type": 4, "data": {"content": "?"}}) as missing:
        assert missing.status == 404 and (await missing.json())["code"] == 10062
