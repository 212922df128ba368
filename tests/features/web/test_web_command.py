"""`paperclub web`: a bad configuration is one line and exit 2; the child the bot starts reads
exactly the bot's settings (from the variables it is given), Discord where the bot reaches it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.client.web_child import child_env, settings_env
from bot.settings import Settings, load_settings

STANDIN_BASE = "http://127.0.0.1:5555/api/v10"


def _web(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "web", *args], capture_output=True,
                          text=True, timeout=60, env=env, check=False)


@pytest.mark.parametrize(("config", "expected"), [
    ('[web]\nprocess = "elsewhere"\n', "web.process: Input should be 'bot' or 'own'"),
    ("[web]\nport = 70000\n", "web.port"),
    ("[web\n", "not valid TOML"),
])
def test_a_bad_config_is_one_line_and_exit_2(tmp_path: Path, config: str,
                                              expected: str) -> None:
    path = tmp_path / "paperclub.toml"
    path.write_text(config, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERCLUB_")}
    done = _web("--config", str(path), env=env | {"DISCORD_TOKEN": "x"})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and expected in done.stderr, done.stderr
    assert done.stdout == ""


def test_no_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PAPERCLUB_") and k != "DISCORD_TOKEN"}
    done = _web("--db", str(tmp_path / "x.db"), env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "DISCORD_TOKEN" in done.stderr


def test_the_child_reads_the_bots_settings(tmp_path: Path) -> None:
    settings = load_settings(None, {
        "PAPERCLUB_DATABASE__URL": "postgresql://club:secret@db.example:5432/club",
        "PAPERCLUB_DISCORD__OWNER_IDS": "[1, 2]", "PAPERCLUB_DISCORD__SHARD_COUNT": "4",
        "PAPERCLUB_DISCORD__SHARD_IDS": "[0, 1]", "PAPERCLUB_WEB__ENABLED": "true",
        "PAPERCLUB_WEB__PROCESS": "own", "PAPERCLUB_WEB__BASE_URL": "https://club.example/",
        "PAPERCLUB_SEARCH__FUZZY_THRESHOLD": "80.5", "PAPERCLUB_ARXIV__CONTACT": "a@b.example",
        "PAPERCLUB_CATALOG__PATH": str(tmp_path / "目录 \"x\".txt")})
    read = load_settings(None, settings_env(settings, api_base=STANDIN_BASE))
    expected = settings.model_copy(update={"discord": settings.discord.model_copy(
        update={"api_base": read.discord.api_base})})
    assert str(read.discord.api_base) == STANDIN_BASE and read == expected
    assert read.catalog.path == tmp_path / "目录 \"x\".txt"


def test_the_childs_environment_replaces_paperclub_variables_and_carries_the_token() -> None:
    env = child_env(Settings(), api_base=STANDIN_BASE, token="the-token",
                    inherited={"PATH": "/bin", "PAPERCLUB_WEB__PORT": "1",
                               "DISCORD_TOKEN": "old"})
    assert env["PATH"] == "/bin" and env["DISCORD_TOKEN"] == "the-token"
    assert env["PAPERCLUB_WEB__PORT"] == "8080"  # the bot's settings, not its environment
    assert load_settings(None, env).web == Settings().web
