"""Application commands: global and per-guild commands reach the right scope."""

from __future__ import annotations

import pytest

from discord_standin import Guild, StandIn
from tests.discord_standin.testbot import TestBot
from tests.group import People


async def test_guild_commands_route_by_guild_id(
    standin: StandIn, bot: TestBot, guild: Guild, people: People
) -> None:
    handle = await standin.slash("club_only", guild=guild, locale="de")
    assert (await handle.reply()).content == "club business"
    assert handle.payload["data"]["guild_id"] == str(guild.id) and handle.payload["locale"] == "de"
    where = await standin.slash("whereami", guild=guild, user=people.bob, locale="fr")
    assert (await where.reply()).content == "bob is in Reading Group (fr)"
    assert "guild_id" not in where.payload["data"]
    with pytest.raises(LookupError, match="not registered in DMs"):
        await standin.slash("club_only", user=people.alice)
