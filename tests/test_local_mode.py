"""Local mode in-process: the real bot and the stand-in, driven by typed lines."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import aiohttp
import pytest

from bot.cli import local
from bot.cli.local import local_session, run_script
from bot.client.bot import PaperclubBot
from bot.features.meaning import keeper
from bot.settings import Settings, load_settings
from bot.shared.lang import Lang
from bot.shared.messages import t
from tests.e2e.web_server import free_port

INTERNALS = ("Traceback", "no callback", "focused option", "invalid literal", "Ignoring exception")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # a port of its own for the local web page: with the default (8080) another worker's local
    # mode may hold it between two runs, and the second run's link would name another port
    return load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(tmp_path / "local.db"),
                                "PAPERCLUB_WEB__PORT": str(free_port())})


@pytest.fixture(autouse=True)
def _keep_log_levels() -> Iterator[None]:
    """Local mode quiets logging for the transcript; give other tests their levels back."""
    loggers = [logging.getLogger(), logging.getLogger("discord")]
    levels = [logger.level for logger in loggers]
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


async def _run(settings: Settings, *lines: str, meaning: bool | None = None) -> str:
    """The transcript; search by meaning as `settings` say (off: `settings` leave it off)
    unless `meaning`."""
    out: list[str] = []
    await run_script(settings, lines, out.append, meaning=meaning)
    return "\n".join(out)


async def test_local_mode_waits_for_search_by_meaning_and_shows_the_papers_it_adds(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one local-mode test with the bundled encoder (the others leave it off, as settings
    do by default): the first command already finds papers by meaning, and `/paper`'s answer
    is shown again once they join it in an edit."""
    monkeypatch.setattr(keeper, "_LOADED", {})  # the encoder loaded here is let go after
    described_query = "/paper 从数据中找出描述系统的方程"  # finding a system's equations
    out = await _run(settings, described_query, "/paper grokking", meaning=True)
    assert out.count("Search by meaning is getting ready…") == 1
    assert "not ready" not in out and "could not start" not in out
    described, grokking = out.split(f"> {described_query}")[1].split("> /paper grokking")
    assert f"*{t(Lang.EN, 'results.close_in_meaning')}*" in described
    assert "No paper matches" not in described
    first = described.split("(updated)")[-1].split("**1. ")[1]
    assert first.startswith("Neuro-Symbolic ODE Discovery")  # an English-titled paper
    assert "To Grok Grokking" in grokking and "(updated)" not in grokking  # never edited


class _Keeper:
    """A meaning keeper that never gets ready (`hangs`) or gives up."""

    def __init__(self, *, hangs: bool) -> None:
        self.hangs = hangs

    def answers(self) -> bool:
        return False

    async def ready(self) -> bool:
        if self.hangs:
            await asyncio.Event().wait()
        return False


async def test_search_by_meaning_not_ready_in_time_is_one_line_and_local_mode_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "MEANING_WAIT", 0.01)
    for hangs, says in ((True, "not ready after 0 s"), (False, "could not start")):
        bot = SimpleNamespace(services=SimpleNamespace(search=SimpleNamespace(
            meaning=_Keeper(hangs=hangs))))
        out: list[str] = []
        await local.meaning_ready(cast(PaperclubBot, bot), out.append)
        assert out[0] == "Search by meaning is getting ready…"
        assert len(out) == 2 and says in out[1] and "answers by words" in out[1]


async def test_ids_are_the_same_in_the_next_run(settings: Settings) -> None:
    await _run(settings, "/subscribe topic:grokking",
               "/digest set channel:#papers time:09:00 timezone:UTC")
    out = await _run(settings, "/subscriptions", "/digest status",
                     "/subscriptions-admin topic:grokking")
    assert "**grokking** — 1 paper, direct message" in out
    assert "│ Channel: #papers" in out
    assert "**grokking**: @you" in out


async def test_question_mark_completes_the_option_it_ends(
        settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    out = await _run(settings, "/digest set channel:#papers time:09:00 timezone:berl?",
                     "/paper venue:?", "/digest set time:?", "/paper ?",
                     "/paper gro year:20x6?", "open abc", "/subscribe topic:#papers")
    completions = out.split("> /paper venue:?")[0]
    assert "Europe/Berlin" in completions
    assert "Workshop   [workshop]" in out.split("> /paper venue:?")[1]
    assert "! /digest set time: no suggestions, type a value" in out
    assert "! open takes a result number, such as open 2" in out
    assert "Subscribed to **\\#papers**" in out  # the topic, not the channel's id
    for internal in INTERNALS:
        assert internal not in out and internal not in caplog.text, internal


async def test_dms_are_shown_and_you_own_the_application(settings: Settings) -> None:
    out = await _run(settings, "/subscribe topic:differential equations",
                     "/digest set channel:#papers time:09:00 timezone:UTC", "/digest now",
                     "/catalog reload")
    assert "[DM from paperclub] " in out
    assert "owner" not in out.split("> /catalog reload")[1]
    assert "30 unchanged" in out


async def test_a_post_made_between_commands_is_printed_when_it_happens(
        settings: Settings) -> None:
    out: list[str] = []
    async with local_session(settings, out.append) as session:
        await session.command("/digest set channel:#papers time:09:00 timezone:UTC")
        config = await session.bot.services.digest.config(session.guild.id)
        assert config is not None
        await session.bot.services.digest_scheduler.post_now(config)  # as the scheduler would
        async with asyncio.timeout(10):
            while not any(line.startswith("[#papers]") for line in out):
                await asyncio.sleep(0.05)


async def test_add_paper_works_on_what_you_said_without_the_internet(
        settings: Settings) -> None:
    out = await _run(settings, "add", "say two: arxiv.org/abs/2401.01234 and arXiv:2401.1",
                     "add", "/paper sparse circuits emerge")
    assert "! say something with an arXiv link first" in out
    assert "[#general] you: two: arxiv.org/abs/2401.01234" in out
    added = out.split("> add")[2]
    assert "Added `2401.01234v1`: Grokking Beyond" in added
    assert "`arXiv:2401.1` is not an arXiv id" in added
    assert "https://arxiv.org/abs/2401.01234" in out.split("> /paper")[1]


async def test_open_and_back_follow_the_numbers_the_list_shows(settings: Settings) -> None:
    out = await _run(settings, "/paper venue:workshop", "next", "open 6", "back", "open 1",
                     "locale zh-CN", "/paper venue:workshop", "open 2", "back")
    page_two = out.split("> next")[1].split("> open 6")[0]
    sixth = page_two.split("**6. ")[1].split("**")[0]
    opened = out.split("> open 6")[1].split("> back")[0]
    assert f"**{sixth}**" in opened and "[Back to results]" in opened
    assert "**7. " in out.split("> back")[1].split("> open 1")[0]  # page 2 again
    assert "! open one of 6, 7, 8, 9, 10" in out
    assert "[返回结果]" in out.split("> open 2")[1]
    assert "**2. " in out.split("> back")[2]  # the Chinese list's own Back button
    for internal in INTERNALS:
        assert internal not in out, internal


async def test_options_are_typed_as_discord_sends_them(settings: Settings) -> None:
    """Choices by their labels, `?` on integer options, quotes and backslashes kept."""
    out = await _run(settings, "/group adding who:Everyone",
                     "/group timezone timezone:Asia/Shanghai",
                     "/session schedule paper:grokking when:2030-01-05 18:00",
                     "/session cancel session:?", "/vote start from:?",
                     '/suggest paper:grokking note:see \\cite{x}, "quoted"')
    assert "Every member can now add papers" in out
    assert "#1 · 2030-01-05 18:00 · To Grok Grokking" in out.split("> /session cancel")[1]
    assert "! /vote start from: no suggestions, type a whole number from 2 to " in out
    assert 'Note: see \\\\cite{x}, "quoted"' in out  # as typed, escaped for Discord markdown
    assert "! " not in out.split("> /vote start from:?")[0]


async def test_timestamps_show_in_the_servers_zone_with_its_name(settings: Settings) -> None:
    """A session at 18:00 Asia/Shanghai reads 18:00 Asia/Shanghai, as a member there sees it."""
    out = await _run(settings, "/group timezone timezone:Asia/Shanghai",
                     "/session schedule paper:grokking when:2030-01-05 18:00")
    assert "**When:** 2030-01-05 18:00 Asia/Shanghai" in out
    assert "10:00" not in out


async def test_local_mode_serves_the_web_page_and_prints_its_link(settings: Settings) -> None:
    out: list[str] = []
    async with local_session(settings, out.append) as session:
        link = await session.web_link()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/s/[-\w]{32}/", link), link
        await session.command("/suggest paper:grokking")
        async with aiohttp.ClientSession() as http, http.get(link) as response:
            assert response.status == 200
            body = await response.text()
    assert "<title>Reading Group</title>" in body and "Grokking" in body
    printed = await _run(settings, "/queue show")
    assert f"The group's web page: {link}" in printed  # the same link in the next run


async def test_values_as_the_readme_writes_them(settings: Settings) -> None:
    """Quotes around a value, and a choice by its name in any case (or its name's head)."""
    out = await _run(settings, '/group reminders before:"24h 1h"', "/group adding who:Curators",
                     '/group adding who:"manage server only"')
    assert "Reminders go out 1 day and 1 hour before each session." in out
    assert "(no curator role is set)" in out.split("> /group adding who:Curators")[1]
    assert "Only members with Manage Server can add papers" in out
    assert "! " not in out
    assert "Search by meaning" not in out  # off, as the settings say: no wait at start


async def test_relative_times_follow_the_chosen_language(settings: Settings) -> None:
    out = await _run(settings, "locale zh-TW",
                     "/session schedule paper:grokking when:2030-01-05 18:00")
    scheduled = out.split("> /session schedule")[1]
    assert re.search(r"\d+ (年|個月|天|小時|分鐘)後", scheduled), scheduled
    assert " ago" not in scheduled and ", in " not in scheduled
