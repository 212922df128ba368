"""Faults and rate limits: the limiter itself, 429s on the wire, and a bot retrying."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from discord_standin import Fault, GlobalRateLimiter, Guild, StandIn
from tests.discord_standin.testbot import TestBot


def test_global_rate_limiter_counts_a_rolling_second() -> None:
    limiter = GlobalRateLimiter(per_second=50)
    assert all(limiter.check(0.0 + i / 1000) is None for i in range(50))
    wait = limiter.check(0.5)
    assert wait == pytest.approx(0.5) and limiter.rejected == 1
    assert limiter.check(1.001) is None


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


async def test_rate_limited_callback_is_retried(
    standin: StandIn, bot: TestBot, guild: Guild
) -> None:
    standin.fail("POST", "/interactions/*/callback", Fault.rate_limited(retry_after=0.05))
    handle = await standin.slash("echo", {"text": "again"}, guild=guild)
    assert (await handle.reply()).content == "echo: again"
    assert [r.status for r in standin.requests("POST", "/callback")] == [429, 200]
    assert standin.rate_limited == 1


async def test_server_error_is_retried(standin: StandIn, bot: TestBot, guild: Guild) -> None:
    rule = standin.fail("POST", "/channels/*/messages", Fault.server_error(502))
    handle = await standin.slash("announce", {"title": "Attention"}, guild=guild)
    assert (await handle.reply(timeout=10)).content.startswith("posted")
    assert rule.hits == 1 and rule.remaining == 0
    statuses = [r.status for r in standin.requests("POST", "/channels/")]
    assert statuses[:2] == [502, 200]
    assert [m.content for m in standin.messages(guild.channel("general"))] == [
        "New paper: Attention"
    ]


async def test_a_stalled_answer_arrives_on_release_after_the_request_took_effect(
        http: aiohttp.ClientSession) -> None:
    guild = Guild("Stalls", channels=["general"])
    async with StandIn(guilds=[guild]) as standin:
        channel = guild.channel("general")
        stall = standin.stall("POST", "/channels/*/messages")
        url = f"{standin.rest_base}/channels/{channel.id}/messages"
        posting = asyncio.create_task(http.post(url, json={"content": "slow"},
                                                headers={"Authorization": "Bot t"}))
        await asyncio.wait_for(stall.reached.wait(), 5)
        assert [m.content for m in standin.messages(channel)] == ["slow"]
        assert not posting.done()
        stall.release()
        async with await posting as answer:
            assert answer.status == 200
