"""The web pages' links on both backends: one token per server, agreed by concurrent askers,
replaced at once by a rotation, gone when turned off, and apart from the calendar's links (a
calendar token never opens the page, nor the other way round)."""

from __future__ import annotations

import asyncio

from tests.backends import Backend


async def test_first_token_is_kept_and_concurrent_askers_agree(backend: Backend) -> None:
    links = backend.web_links()
    tokens = await asyncio.gather(*(links.token(1, f"t{n}") for n in range(6)))
    assert len(set(tokens)) == 1 and tokens[0] is not None
    assert await links.token(1, "later") == tokens[0]
    assert await links.guild_of(tokens[0]) == 1
    assert await links.token(2, "other") == "other"
    assert await links.guild_of("other") == 2


async def test_rotation_replaces_the_token_and_off_stays_off(backend: Backend) -> None:
    links = backend.web_links()
    await links.token(1, "old")
    await links.rotate(1, "new")
    assert await links.guild_of("old") is None
    assert await links.guild_of("new") == 1
    assert await links.turn_off(1)
    assert not await links.turn_off(1)
    assert await links.guild_of("new") is None
    assert await links.token(1, "again") is None  # asking does not turn it back on
    await links.rotate(1, "back")
    assert await links.token(1, "unused") == "back"


async def test_page_and_calendar_tokens_are_separate(backend: Backend) -> None:
    pages, calendars = backend.web_links(), backend.calendar_links()
    assert await pages.token(7, "page-secret") == "page-secret"
    assert await calendars.token(7, "feed-secret") == "feed-secret"
    assert await pages.guild_of("feed-secret") is None
    assert await calendars.guild_of("page-secret") is None
    await pages.turn_off(7)
    assert await calendars.guild_of("feed-secret") == 7
