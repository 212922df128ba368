"""The gateway: IDENTIFY, RESUME and replay, spoken directly and through a bot."""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

import aiohttp

from discord_standin import Guild, StandIn
from tests.discord_standin.testbot import TestBot


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


async def test_compressed_gateway_works_with_discord_py(guild: Guild) -> None:
    async with StandIn(guilds=[guild], compress=True) as standin:
        bot = TestBot()
        await standin.start_bot(bot)
        handle = await standin.slash("echo", {"text": "zipped"}, guild=guild)
        assert (await handle.reply()).content == "echo: zipped"
        assert standin.gateway_stats.identifies == 1 and standin.gateway_stats.compressed == 1


async def test_reconnect_and_resume_mid_session(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    await standin.reconnect("op7")
    stats = standin.gateway_stats
    assert stats.resumes == 1 and stats.identifies == 1
    assert stats.connections == ["/gateway", "/gateway/resume"]
    handle = await standin.slash("echo", {"text": "still here"}, guild=guild)
    assert (await handle.reply()).content == "echo: still here"


async def test_events_sent_while_disconnected_are_replayed(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    async with standin.disconnected("drop"):
        handle = await standin.slash("echo", {"text": "queued"}, guild=guild)
    assert (await handle.reply()).content == "echo: queued"
    stats = standin.gateway_stats
    assert stats.resumes == 1 and stats.replayed >= 1 and stats.identifies == 1


async def test_invalidated_session_identifies_again(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    ready_again = asyncio.ensure_future(bot.wait_for("ready"))
    await standin.invalidate_session()
    await asyncio.wait_for(ready_again, timeout=5)
    assert standin.gateway_stats.identifies == 2 and standin.gateway_stats.invalid_sessions == 1
    assert standin.gateway_stats.resumes == 0
