"""The calendar feed over HTTP from the running bot, fetched as a calendar client does: a
subscription GET, then conditional GETs (ETag, Last-Modified) answered 304 until a session
moves; a rotated or unknown link answers 404."""

from __future__ import annotations

import functools
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import icalendar
import ics
import pytest

from bot.client.bot import PaperclubBot
from bot.features.calendar.feed import event_uid
from bot.settings import Settings
from discord_standin import Guild, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.e2e.web_server import reading_group, web_settings
from tests.group import People

LINK = re.compile(r"<(https?://[^>]+/calendar/[-\w]+\.ics)>")
CLIENT = {"User-Agent": "Mozilla/5.0 (calendar client; like Thunderbird)",
          "Accept": "text/calendar, */*"}


@pytest.fixture
def settings(tmp_path: Path, people: People) -> Settings:
    """The e2e settings with the web server on (a free local port)."""
    return web_settings(tmp_path, people)


@pytest.fixture
def guild(people: People) -> Guild:
    """The reading group; carol presents under her server nickname."""
    return reading_group(people)


@pytest.fixture(autouse=True)
def same_clock(standin: StandIn, clock: FakeClock) -> None:
    standin.set_clock(clock)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers=CLIENT) as session:
        yield session


async def _events(response: aiohttp.ClientResponse) -> list[icalendar.Event]:
    body = await response.read()
    assert len(ics.Calendar(body.decode()).events) == 1
    return [e for e in icalendar.Calendar.from_ical(body).walk("VEVENT")
            if isinstance(e, icalendar.Event)]


async def test_a_calendar_client_subscribes_and_revalidates(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], http: aiohttp.ClientSession) -> None:
    slash = functools.partial(standin.slash, guild=guild)
    paper = bundled_papers[0]
    scheduled = await slash("session schedule", {"paper": paper.id, "when": "2026-12-03 18:00",
                                                 "presenter": people.carol.id}, user=people.bob)
    assert "Scheduled session #1" in (await scheduled.followup()).content
    link = await (await slash("calendar link", {}, user=people.alice)).reply()
    (url,) = LINK.findall(link.content)
    assert "[web]" not in link.content  # served: no note

    async with http.get(url) as response:
        assert response.status == 200
        assert response.content_type == "text/calendar" and response.charset == "utf-8"
        assert response.headers["Cache-Control"] == "private, no-cache"
        etag, modified = response.headers["ETag"], response.headers["Last-Modified"]
        (event,) = await _events(response)
    assert str(event["uid"]) == event_uid(guild.id, 1)
    assert str(event["summary"]) == paper.title_en
    assert "Presenter: Carol Reader" in str(event["description"])
    assert str(people.carol.id) not in str(event["description"])
    first_sequence = event.decoded("sequence")

    for condition in ({"If-None-Match": etag}, {"If-Modified-Since": modified}):
        async with http.get(url, headers=condition) as response:
            assert response.status == 304, condition
            assert response.headers["ETag"] == etag
    async with http.head(url) as response:
        assert response.status == 200 and response.headers["ETag"] == etag

    moved = await slash("session move", {"session": 1, "when": "2026-12-04 18:00"},
                        user=people.bob)
    assert "now starts" in (await moved.reply()).content
    async with http.get(url, headers={"If-None-Match": etag}) as response:
        assert response.status == 200 and response.headers["ETag"] != etag
        (event,) = await _events(response)
    assert str(event["uid"]) == event_uid(guild.id, 1)
    assert event.decoded("sequence") > first_sequence

    rotated = await (await slash("calendar rotate", {}, user=people.bob)).reply()
    (new_url,) = LINK.findall(rotated.content)
    for gone in (url, url.rsplit("/", 1)[0] + "/not-a-token-at-all-0000.ics",
                 url.rsplit("/", 1)[0] + "/%3Cscript%3E.ics"):
        async with http.get(gone) as response:
            assert response.status == 404, gone
    async with http.get(new_url) as response:
        assert response.status == 200
        assert len(await _events(response)) == 1


async def test_a_taken_port_leaves_the_bot_running_without_the_feed(
        settings: Settings, standin: StandIn, clock: FakeClock, guild: Guild,
        people: People, caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as taken:
        taken.bind((settings.web.host, settings.web.port))
        taken.listen()
        paperclub = await start_paperclub(standin, settings, clock)
        try:
            link = await (await standin.slash("calendar link", {}, guild=guild,
                                              user=people.alice)).reply()
            assert LINK.findall(link.content)
            assert "calendar feeds not served" in caplog.text
        finally:
            await standin.stop_bot(paperclub)
