"""`/calendar` end to end: a member gets the feed links ephemerally, an organiser rotates them
(the old token stops resolving at once) or turns the feed off; a member cannot."""

from __future__ import annotations

import functools
import re

from bot.client.bot import PaperclubBot
from discord_standin import Guild, StandIn
from tests.group import People

LINK = re.compile(r"<(webcal|https?)://[^/>]+/calendar/([-\w]+)\.ics>")


def _tokens(content: str) -> dict[str, str]:
    """Scheme -> token of each link in an answer."""
    return {scheme: token for scheme, token in LINK.findall(content)}


async def test_members_get_links_organisers_rotate_and_turn_off(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    slash = functools.partial(standin.slash, guild=guild)
    first = await (await slash("calendar link", {}, user=people.alice)).reply()
    assert first.ephemeral
    tokens = _tokens(first.content)
    assert set(tokens) == {"webcal", "http"} and len(set(tokens.values())) == 1
    token = tokens["webcal"]
    assert len(token) >= 32
    assert "[web]" in first.content  # the web server is off in this configuration
    again = await (await slash("calendar link", {}, user=people.carol)).reply()
    assert _tokens(again.content) == tokens
    assert await bot.services.calendar.guild_of(token) == guild.id

    refused = await (await slash("calendar rotate", {}, user=people.alice)).reply()
    assert refused.ephemeral and "Manage Server" in refused.content
    assert await bot.services.calendar.guild_of(token) == guild.id

    rotated = await (await slash("calendar rotate", {}, user=people.bob)).reply()
    assert rotated.ephemeral and "old ones stopped working" in rotated.content
    (new,) = set(_tokens(rotated.content).values())
    assert new != token
    assert await bot.services.calendar.guild_of(token) is None
    assert await bot.services.calendar.guild_of(new) == guild.id

    refused = await (await slash("calendar off", {}, user=people.carol)).reply()
    assert "Manage Server" in refused.content
    off = await (await slash("calendar off", {}, user=people.bob)).reply()
    assert off.ephemeral and "no longer work" in off.content
    assert await bot.services.calendar.guild_of(new) is None
    after = await (await slash("calendar link", {}, user=people.alice)).reply()
    assert _tokens(after.content) == {} and "/calendar rotate" in after.content
    again = await (await slash("calendar off", {}, user=people.bob)).reply()
    assert "already off" in again.content
