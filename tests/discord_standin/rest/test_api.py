"""The REST front: exact JSON answers, the token check, unknown routes."""

from __future__ import annotations

import aiohttp
import discord
import pytest
from discord.http import Route

from discord_standin import StandIn
from tests.discord_standin.testbot import TestBot


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


async def test_unknown_routes_are_404_and_recorded(standin: StandIn, bot: TestBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/nothing/here"))
    [unknown] = standin.unknown_requests
    assert unknown.path == "/nothing/here" and unknown.status == 404
