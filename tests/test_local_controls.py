"""Local mode's buttons, menus and forms: `controls` numbers what the last messages offer,
`press` and `choose` use it, a form is filled one field a line, and the demo presses 👍 and a
vote button. Each run starts the real bot against the stand-in, in-process."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.local import DEMO_SCRIPT, HELP, run_script
from bot.settings import Settings, load_settings
from tests.e2e.web_server import free_port
from tests.test_local_mode import INTERNALS, _keep_log_levels

__all__ = ["_keep_log_levels"]  # the fixture that gives other tests their log levels back


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(tmp_path / "local.db"),
                                "PAPERCLUB_WEB__PORT": str(free_port())})


async def _run(settings: Settings, *lines: str) -> str:
    out: list[str] = []
    await run_script(settings, lines, out.append)
    return "\n".join(out)


def _after(transcript: str, line: str) -> str:
    """What the session printed for `line` (up to the next typed line)."""
    return transcript.split(f"\n> {line}\n", 1)[1].split("\n> ", 1)[0]


async def test_buttons_menus_and_a_form_are_used_from_the_prompt(settings: Settings) -> None:
    out = await _run(settings, "/paper grokking", "controls", "press 👍", "press 1",
                     "press 5", "choose 6 English title", "To Grok Grokking, Corrected", "-")
    listed = _after(out, "controls")
    assert "1. [Find on arXiv] ↗ https://arxiv.org/search/" in listed
    assert "2. [👍]" in listed and "4. [🔎 More like this]" in listed
    assert "Noted: more like" in _after(out, "press 👍")
    assert "is a link: open https://arxiv.org/search/" in _after(out, "press 1")
    assert "field 1 of 2: English title" in _after(out, "choose 6 English title")
    assert "now: To Grok Grokking: Provable Grokking in Ridge Regression" in out
    assert "field 2 of 2" in _after(out, "To Grok Grokking, Corrected")
    assert "correction #1 is saved" in _after(out, "-")
    assert not [word for word in INTERNALS if word in out]


async def test_a_vote_button_is_pressed_by_its_number(settings: Settings) -> None:
    out = await _run(settings, "/suggest paper:grokking", "/suggest paper:蒸馏",
                     "/vote start from:2", "controls", "press 1", "press 99", "choose 2 x",
                     "/vote close", "/suggest paper:grokking", "/suggest paper:蒸馏",
                     "/vote start from:2 style:Discord poll")
    assert "1. [1]" in _after(out, "controls") and "2. [2]" in _after(out, "controls")
    assert "You voted for **To Grok Grokking" in _after(out, "press 1")
    assert "! press one of the numbers controls lists (1-2)" in _after(out, "press 99")
    assert "is a button: press 2" in _after(out, "choose 2 x")
    poll = _after(out, "/vote start from:2 style:Discord poll")
    assert re.search(r"📊 Which paper next\? \(ends \d{4}-\d\d-\d\d \d\d:\d\d UTC\)", poll), poll
    assert "  1. To Grok Grokking" in poll and "  2. Symbiosis-Inspired" in poll
    assert not [word for word in INTERNALS if word in out]


async def test_the_demo_presses_thumbs_up_and_a_vote_button(settings: Settings) -> None:
    out = await _run(settings, *DEMO_SCRIPT)
    assert "Noted: more like" in _after(out, "press 👍")
    (vote,) = [line for line in DEMO_SCRIPT if line.startswith("press ") and line[6:].isdigit()]
    assert "You voted for" in _after(out, vote)
    assert not [word for word in INTERNALS if word in out]


def test_help_says_what_local_mode_can_and_cannot_do() -> None:
    words = " ".join(HELP.split())
    for verb in ("controls", "press N", "choose N OPTION", "cancel", "<@id>",
                 "no other people", "open in a browser"):
        assert verb in words, verb
