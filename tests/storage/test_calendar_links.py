"""The calendar feed's links on both backends: one token per server, agreed by concurrent
askers, replaced at once by a rotation, gone when turned off."""

from __future__ import annotations

import asyncio

from tests.backends import Backend


async def test_first_token_is_kept_and_concurrent_askers_agree(backend: Backend) -> None:
    links = backend.calendar_links()
    tokens = await asyncio.gather(*(links.token(1, f"t{n}") for n in range(6)))
    assert len(set(tokens)) == 1 and tokens[0] is not None
    assert await links.token(1, "later") == tokens[0]
    assert await links.guild_of(tokens[0]) == 1
    assert await links.token(2, "other") == "other"
    assert await links.guild_of("other") == 2


async def test_rotation_replaces_the_token_at_once(backend: Backend) -> None:
    links = backend.calendar_links()
    old = await links.token(1, "old")
    await links.rotate(1, "new")
    assert old == "old"
    assert await links.guild_of("old") is None
    assert await links.guild_of("new") == 1
    assert await links.token(1, "unused") == "new"


async def test_off_stays_off_until_rotated(backend: Backend) -> None:
    links = backend.calendar_links()
    await links.token(1, "live")
    assert await links.turn_off(1)
    assert not await links.turn_off(1)
    assert await links.guild_of("live") is None
    assert await links.token(1, "again") is None  # asking does not turn it back on
    assert not await links.turn_off(5)  # never had one: off from now on
    assert await links.token(5, "x") is None
    await links.rotate(1, "back")
    assert await links.token(1, "unused") == "back"
    assert await links.guild_of("back") == 1
