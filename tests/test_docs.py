"""The documentation is part of the product: the site builds strict, every command, option and
setting is documented, and every example in README.md and docs/ runs (issue 44; issue 39's
"the README's own lines are tested")."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import discord
import pytest
from click.testing import CliRunner
from discord import app_commands
from pydantic import BaseModel

from bot.cli.local import LOCAL_GUILD_ID, run_script
from bot.cli.main import cli
from bot.client.bot import PaperclubBot
from bot.client.translator import COMMAND_PREFIX
from bot.settings import SearchSettings, Settings, load_settings
from bot.shared.lang import Lang
from bot.shared.messages import CATALOGUE, t
from bot.wiring import build_bot
from llm_standin import LlmStandIn
from tests.e2e.web_server import free_port
from tools import config_docs
from tools.doc_checks import (
    DISCORD_COMMANDS,
    ROOT,
    Example,
    collect,
    documentation_files,
    failed_lines,
    fenced_blocks,
    guide_text,
    undocumented_commands,
)
from tools.docs_pictures import render_message

pytestmark = pytest.mark.xdist_group("docs")  # one worker builds the examples' session once
MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict"]
CANARY = Example("/no-such-command", "canary")
PLACEHOLDERS = {"<server id>": str(LOCAL_GUILD_ID), "<id>": "123456789012345678"}


def _build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([*MKDOCS, "--config-file", str(root / "mkdocs.yml"), "-d", str(site)],
                          cwd=root, capture_output=True, text=True, env=env, timeout=300,
                          check=False)


# -- the site ---------------------------------------------------------------------------------

def test_the_site_builds_in_strict_mode(tmp_path: Path) -> None:
    result = _build(ROOT, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "operators" / "deploying" / "index.html").is_file()


def test_a_broken_link_or_a_page_left_out_of_the_navigation_fails_the_build(
        tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs")
    for name in ("mkdocs.yml", "CHANGELOG.md"):
        shutil.copy(ROOT / name, copy / name)
    page = copy / "docs" / "members" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n",
                    encoding="utf-8")
    broken = _build(copy, tmp_path / "site1")
    assert broken.returncode != 0 and "no-such-page.md" in broken.stderr

    page.write_text(page.read_text(encoding="utf-8").replace("[gone](no-such-page.md)", ""),
                    encoding="utf-8")
    (copy / "docs" / "orphan.md").write_text("# Orphan\n", encoding="utf-8")
    orphan = _build(copy, tmp_path / "site2")
    assert orphan.returncode != 0 and "orphan.md" in orphan.stderr


# -- every command and option -----------------------------------------------------------------

@pytest.fixture
async def offline_bot(tmp_path: Path) -> AsyncIterator[PaperclubBot]:
    """The bot with its cogs loaded, never connected."""
    settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(tmp_path / "tree.db")})
    paperclub = await build_bot(settings)
    await paperclub.add_commands()
    yield paperclub
    await paperclub.close()


def _tree(bot: PaperclubBot) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


def _menus(bot: PaperclubBot) -> list[str]:
    return [menu.name for kind in (discord.AppCommandType.message, discord.AppCommandType.user)
            for menu in bot.tree.get_commands(type=kind)
            if isinstance(menu, app_commands.ContextMenu)]


def _entries(commands: list[app_commands.Command[Any, ..., Any]]
             ) -> list[tuple[str, list[str]]]:
    return [(c.qualified_name, [p.display_name for p in c.parameters]) for c in commands]


async def test_every_command_option_and_menu_is_in_the_guides(offline_bot: PaperclubBot) -> None:
    commands = _tree(offline_bot)
    assert len(commands) > 40 and _menus(offline_bot)
    missing = undocumented_commands(_entries(commands), _menus(offline_bot), guide_text())
    assert not missing, (
        f"not in docs/members/ or docs/organisers/ (the command references): {missing}")


async def _frobnicate(interaction: discord.Interaction, speed: int) -> None:
    """A command nobody documented."""


async def _paper(interaction: discord.Interaction, query: str, colour: str) -> None:
    """/paper with an option nobody documented."""


async def test_an_undocumented_command_or_option_is_caught(offline_bot: PaperclubBot) -> None:
    commands = [c for c in _tree(offline_bot) if c.qualified_name != "paper"]
    commands += [app_commands.Command(name="frobnicate", description="x", callback=_frobnicate),
                 app_commands.Command(name="paper", description="x", callback=_paper)]
    missing = undocumented_commands(_entries(commands), [*_menus(offline_bot), "Frob paper"],
                                    guide_text())
    assert missing == ["/frobnicate", "/paper colour", "Frob paper"]


# -- every setting ----------------------------------------------------------------------------

def test_the_configuration_reference_is_generated_from_the_settings() -> None:
    page = config_docs.PAGE.read_text(encoding="utf-8")
    assert page == config_docs.render(), (
        f"{config_docs.PAGE.relative_to(ROOT)} is out of date: run {config_docs.COMMAND}")
    assert config_docs.undocumented(page) == []
    assert "| `limit` | integer (≥ 1, ≤ 100) | `10` | `PAPERCLUB_SEARCH__LIMIT` |" in page


class _MoreSearch(SearchSettings):
    typo_budget: int = 2


class _Frobnication(BaseModel):
    speed: float = 1.5


class _MoreSettings(Settings):
    search: _MoreSearch = _MoreSearch()
    frobnication: _Frobnication = _Frobnication()


def test_a_setting_added_without_documentation_is_caught() -> None:
    page = config_docs.PAGE.read_text(encoding="utf-8")
    assert config_docs.undocumented(page, _MoreSettings) == [
        "search.typo_budget: no comment above it in config.example.toml",
        "frobnication.speed: no comment above it in config.example.toml"]
    example = config_docs.EXAMPLE.read_text(encoding="utf-8") + (
        "\n[frobnication]\n# How fast.\nspeed = 1.5\n")
    assert config_docs.undocumented(page, _MoreSettings, example) == [
        "search.typo_budget: no comment above it in config.example.toml",
        "frobnication.speed: not in the reference with its type and default"]
    assert config_docs.undocumented(config_docs.render(_MoreSettings, example), _MoreSettings,
                                    example) == [
        "search.typo_budget: no comment above it in config.example.toml"]


# -- every example ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def examples_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Every local-mode example of README.md and docs/ in one local-mode session (and a canary
    line that must fail), on a fresh database: the transcript and the database."""
    examples = collect(documentation_files())
    database = tmp_path_factory.mktemp("examples") / "examples.db"
    settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(database),
                                    "PAPERCLUB_WEB__PORT": str(free_port())})
    loggers = [logging.getLogger(), logging.getLogger("discord")]
    levels = [logger.level for logger in loggers]
    out: list[str] = []
    asyncio.run(run_script(settings, [e.text for e in (*examples.local, CANARY)], out.append))
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)
    yield "\n".join(out), database


def test_every_local_mode_example_runs_without_an_error(
        examples_run: tuple[str, Path]) -> None:
    examples = collect(documentation_files())
    assert len(examples.local) > 80
    transcript, _ = examples_run
    failed = failed_lines(transcript, [*examples.local, CANARY])
    assert failed[-1].startswith(str(CANARY)), "the canary line did not fail"
    assert failed[:-1] == [], "\n".join(failed[:-1])


def _runnable(args: tuple[str, ...]) -> list[str]:
    """The arguments as the test runs them: a command that would connect to Discord only
    parses its options, and local mode leaves search by meaning off (it loads the bundled
    encoder; tests/test_local_mode.py shows it)."""
    filled = list(args)
    needs_discord = filled[0] in DISCORD_COMMANDS or (
        filled[0] == "invite" and "--application-id" not in filled)
    if filled[0] == "local":
        filled.insert(1, "--no-meaning")
    return [*filled, "--help"] if needs_discord else filled


@contextmanager
def _llm_standin() -> Iterator[str]:
    """The chat-completions stand-in on a loop of its own thread (the CLI runs its own loops):
    its base URL."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    standin = LlmStandIn()
    try:
        asyncio.run_coroutine_threadsafe(standin.start(), loop).result(30)
        yield standin.base_url
    finally:
        asyncio.run_coroutine_threadsafe(standin.close(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


def test_every_command_line_example_runs_without_an_error(
        examples_run: tuple[str, Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, database = examples_run
    examples = collect(documentation_files(), PLACEHOLDERS)
    assert len(examples.shell) > 10
    monkeypatch.chdir(tmp_path)  # where `-o FILE` writes
    runner = CliRunner()
    failed: list[str] = []
    with _llm_standin() as llm_url:  # `paperclub summarize` asks the chat-completions stand-in
        env = {"PAPERCLUB_DATABASE__PATH": str(database), "DISCORD_TOKEN": "",
               "PAPERCLUB_LLM__ENABLED": "true", "PAPERCLUB_LLM__BASE_URL": llm_url}
        for example, args in [*examples.shell, (Example("paperclub frobnicate", "canary"),
                                                 ("frobnicate",))]:
            result = runner.invoke(cli, _runnable(args), env=env, catch_exceptions=True)
            if result.exit_code != 0 or (result.exception is not None
                                         and not isinstance(result.exception, SystemExit)):
                failed.append(
                    f"{example} -> exit {result.exit_code}: {result.output.strip()[:300]}")
    assert failed[-1].startswith("canary: paperclub frobnicate"), "the canary did not fail"
    assert failed[:-1] == [], "\n".join(failed[:-1])


# -- the pictures' rendering ------------------------------------------------------------------

def test_the_pictures_draw_a_message_as_discord_shows_it_and_hostile_text_as_text() -> None:
    page = render_message(
        "**Paper of the day** · <script>x()</script>",
        [{"title": "A <b>title</b>", "color": 0x5865F2, "description": "*斜体* and `code`",
          "fields": [{"name": "Venue", "value": "ICML 2026", "inline": True}],
          "footer": {"text": "paperclub · 0fa592f1b14964dd"}}],
        [{"type": 1, "components": [{"type": 2, "style": 5, "label": "Find on arXiv"},
                                    {"type": 2, "style": 2, "emoji": {"name": "👍"}}]}],
        thread="A thread")
    assert "<strong>Paper of the day</strong>" in page and "<em>斜体</em>" in page
    assert "&lt;script&gt;" in page and "<script>" not in page
    assert "A &lt;b&gt;title&lt;/b&gt;" in page
    assert '--colour: #5865f2' in page and 'class="field inline"' in page
    assert 'class="button link">Find on arXiv' in page and 'class="button secondary">👍' in page
    assert "🧵 <b>A thread</b>" in page


# -- the Chinese guide names commands as Discord shows them -----------------------------------

def test_the_chinese_guide_uses_the_names_discord_shows_zh_cn_readers() -> None:
    names = {t(Lang.ZH_HANS, key) for key in CATALOGUE
             if key.startswith(f"{COMMAND_PREFIX}name.")}
    guide = (ROOT / "docs" / "members" / "zh-CN.md").read_text(encoding="utf-8")
    typed = [line for line in re.findall(r"`(/[^`]+)`", guide) + [
        line for info, _, body in fenced_blocks(guide) if info == "text" for line in body]
        if re.search(r"[\u4e00-\u9fff]", line)]  # the English names beside them aside
    assert len(typed) > 15
    wrong: list[str] = []
    for line in typed:
        path = line[1:].split(":")[0].rsplit(" ", 1)[0] if ":" in line else line[1:]
        words = [w for w in path.split() if w != "…"]
        options = re.findall(r"(?:^|\s)([^\s:]+):", line)
        wrong += [f"{line}: {w}" for w in [*words, *options] if w not in names]
    assert wrong == [], wrong


# -- the five questions of issue 44, one click from the home page -----------------------------

@pytest.mark.parametrize(("link", "fact"), [
    ("operators/deploying.md#finding-ids", "Copy Server ID"),
    ("operators/deploying.md#3-invite-it", "| Send Polls |"),
    ("operators/deploying.md#6-turn-on-the-web-page-and-calendar", "[web]\nenabled = true"),
    ("operators/deploying.md#the-catalog", "`bot/data/icml2026.txt`"),
    ("try-it.md#what-local-mode-can-and-cannot-do", "It **cannot**"),
])
def test_the_home_page_answers_the_five_questions(link: str, fact: str) -> None:
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert f"]({link})" in home
    page = (ROOT / "docs" / link.split("#")[0]).read_text(encoding="utf-8")
    assert fact in page
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    missing = [said for said in ("Copy Server ID", "Send Polls", "[web]", "bot/data/icml2026.txt",
                                 "cannot do") if said not in readme]
    assert missing == [], f"README.md no longer says {missing}"
