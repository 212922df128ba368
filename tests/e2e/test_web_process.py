"""`[web] process = "own"`: the bot (in-process, with the stand-in) starts `paperclub web` as a
child process on the same database; the child's page equals what the bot's own server answers
(queue, history, presenters' display names, asked of the stand-in over REST), a rotated link
answers 404 from it soon after, a paper added by the bot reaches its search and typo corrector,
and a child killed with SIGKILL is started again."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.client.bot import PaperclubBot
from bot.client.web_child import WebChild
from bot.features.calendar.web import CalendarWeb
from bot.features.web.service import TOKEN_SECONDS
from bot.features.web.web import GatewayDirectory, WebPages
from bot.settings import Settings
from discord_standin import Guild, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.group_steps import answer, suggest
from tests.e2e.web_server import reading_group, web_settings
from tests.group import People

STARTUP_SECONDS = 60.0
"""The child's start (an interpreter, discord.py, the database) on a busy machine, at most."""


@pytest.fixture
def settings(tmp_path: Path, people: People) -> Settings:
    shared = web_settings(tmp_path, people)
    return shared.model_copy(update={"web": shared.web.model_copy(update={"process": "own"})})


@pytest.fixture
def guild(people: People) -> Guild:
    return reading_group(people)


@pytest.fixture(autouse=True)
def same_clock(standin: StandIn, clock: FakeClock) -> None:
    standin.set_clock(clock)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def _child(bot: PaperclubBot) -> WebChild:
    cog = bot.get_cog("WebCog")  # an extension's own module: its class is not this one
    child = getattr(cog, "child", None)
    assert isinstance(child, WebChild) and getattr(cog, "server", None) is None
    return child


async def _status(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    try:
        async with http.get(url) as response:
            return response.status, await response.text()
    except aiohttp.ClientError:
        return 0, ""


async def _until(http: aiohttp.ClientSession, url: str, status: int,
                 seconds: float = STARTUP_SECONDS) -> str:
    """The body once `url` answers `status` (polled; fails after `seconds`)."""
    deadline = time.monotonic() + seconds
    while True:
        got, body = await _status(http, url)
        if got == status:
            return body
        assert time.monotonic() < deadline, f"{url} still answers {got}, not {status}"
        await asyncio.sleep(0.1)


async def _furnish(bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
                   papers: list[Paper]) -> str:
    """A queue, a discussion carol presented, one she will present; the page's link."""
    await suggest(standin, guild, people.alice, papers[0].id, note="start <here>")
    await suggest(standin, guild, people.bob, papers[0].id)
    await suggest(standin, guild, people.alice, papers[1].id)
    when = bot.services.sessions.clock()
    await bot.services.sessions.history.record_discussed(
        guild.id, papers[2].id, when, people.carol.id, "good one", 777)
    scheduled = await standin.slash("session schedule", {
        "paper": papers[3].id, "when": "2026-12-03 18:00", "presenter": people.carol.id},
        guild=guild, user=people.bob)
    assert "Scheduled session #1" in (await scheduled.followup()).content
    url = await bot.services.web.link(guild.id)
    assert url is not None
    return url


async def test_the_childs_page_equals_the_bots_own(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], http: aiohttp.ClientSession) -> None:
    url = await _furnish(bot, standin, guild, people, bundled_papers)
    from_child = await _until(http, url, 200)
    directory = GatewayDirectory(bot)
    app = web.Application()
    WebPages(directory, bot.services.web).add_routes(app)
    CalendarWeb(directory, bot.services.calendar).add_routes(app)
    path = url.split("/s/", 1)[1]
    async with TestServer(app) as in_bot:
        for query in ("", "?lang=zh-CN", "?q=grokking"):
            _, own = await _status(http, str(in_bot.make_url(f"/s/{path}{query}")))
            child = await _until(http, url + query, 200)
            assert child == own
    assert from_child.count("Presenter: Carol Reader") == 2  # past and upcoming, by REST
    assert bundled_papers[0].title_en in from_child and "start &lt;here&gt;" in from_child
    assert str(people.carol.id) not in from_child
    feed = await bot.services.calendar.link(guild.id)
    assert feed is not None
    assert "Carol Reader" in await _until(http, feed.https, 200)


async def test_a_rotated_link_answers_404_from_the_child(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], http: aiohttp.ClientSession) -> None:
    url = await _furnish(bot, standin, guild, people, bundled_papers)
    await _until(http, url, 200)
    rotated = await answer(standin, "group web", {"action": "rotate"}, guild=guild,
                           user=people.bob)
    assert url not in rotated.content
    await _until(http, url, 404, seconds=TOKEN_SECONDS + 5)  # the child remembers it 2 s
    new_url = await bot.services.web.link(guild.id)
    assert new_url is not None and new_url != url
    assert (await _status(http, new_url))[0] == 200


async def test_catalog_changes_reach_the_childs_search_and_typo_corrector(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], http: aiohttp.ClientSession) -> None:
    url = await _furnish(bot, standin, guild, people, bundled_papers)
    await _until(http, url + "?q=grokking", 200)  # the child's typo vocabulary is built
    added = Paper(title_en="Quorbitronic Attention for Paper Clubs", title_zh="读书会的注意力",
                  authors=("Ada Quorbit",))
    await bot.services.catalog.add_papers([added])
    found = await _polled(http, url + "?q=quorbitronic", added.title_en)
    assert "Showing results for" not in found
    corrected = await _polled(http, url + "?q=quorbitronik", added.title_en)  # a typo of it
    assert "Showing results for “quorbitronic”" in corrected


async def _polled(http: aiohttp.ClientSession, url: str, text: str,
                  seconds: float = 30.0) -> str:
    """The page at `url` once it shows `text` (polled; fails after `seconds`)."""
    deadline = time.monotonic() + seconds
    while text not in (body := await _until(http, url, 200)):
        assert time.monotonic() < deadline, f"{url} never showed {text!r}"
        await asyncio.sleep(0.2)
    return body


async def test_a_killed_child_is_started_again_and_ends_with_the_bot(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], http: aiohttp.ClientSession) -> None:
    url = await _furnish(bot, standin, guild, people, bundled_papers)
    await _until(http, url, 200)
    child = _child(bot)
    first = child.pid
    assert first is not None and child.starts == 1
    os.kill(first, signal.SIGKILL)
    await _until(http, url, 0, seconds=10)  # nothing listens
    await _until(http, url, 200)  # a new child
    assert child.starts == 2 and child.pid not in (None, first)
    process = child.process
    await standin.stop_bot(bot)
    assert process is not None and process.returncode == 0  # terminated: a clean shutdown
    assert (await _status(http, url))[0] == 0
