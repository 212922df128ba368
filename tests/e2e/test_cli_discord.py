"""`paperclub sync` and `paperclub invite` as an operator runs them, against the stand-in."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from discord_standin import Guild, StandIn

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


async def _cli(standin: StandIn, tmp_path: Path, *args: str,
               token: str = "standin-token") -> tuple[int, str, str]:
    config = tmp_path / "paperclub.toml"
    config.write_text(f'[database]\npath = "{tmp_path / "cli.db"}"\n'
                      f'[discord]\napi_base = "{standin.rest_base}"\n'
                      f'gateway_url = "{standin.gateway_url}"\n', encoding="utf-8")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, "--config", str(config), cwd=ROOT,
        env={**os.environ, "DISCORD_TOKEN": token, "PAPERCLUB_LOGGING__LEVEL": "WARNING"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, out.decode(), err.decode()


async def test_sync_registers_commands_once_then_skips(tmp_path: Path) -> None:
    guild = Guild("Dev Server")
    async with StandIn(guilds=[guild]) as standin:
        code, out, err = await _cli(standin, tmp_path, "sync", "--guild", str(guild.id))
        assert code == 0, err
        assert "synced" in out
        names = {c["name"] for c in standin.commands(guild)}
        assert {"paper", "digest", "subscribe", "forget-me"} <= names
        code, out, _ = await _cli(standin, tmp_path, "sync", "--guild", str(guild.id))
        assert (code, "unchanged; not synced" in out) == (0, True)
        puts = [r for r in standin.requests("PUT") if r.path.endswith("/commands")]
        assert len(puts) == 1
        code, out, _ = await _cli(standin, tmp_path, "sync", "--global")
        assert code == 0 and {c["name"] for c in standin.commands()} >= {"paper"}


async def test_invite_asks_discord_for_the_application_id(tmp_path: Path) -> None:
    async with StandIn(guilds=[]) as standin:
        code, out, err = await _cli(standin, tmp_path, "invite")
        assert code == 0, err
        assert f"client_id={standin.application_id}" in out
        assert "create_public_threads" in err


@pytest.mark.parametrize("command", ["run", "sync", "invite"])
async def test_a_refused_token_is_one_line_exit_2(tmp_path: Path, command: str) -> None:
    async with StandIn(guilds=[], token="standin-token") as standin:
        code, _, err = await _cli(standin, tmp_path, command, token="not-the-token")
    assert "Traceback" not in err
    assert (code, err.count("\n")) == (2, 1), err
    assert "Discord refused the token (DISCORD_TOKEN)" in err
