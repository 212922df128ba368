"""The stand-in in a process of its own: the bench drives real `/paper` lookups through it."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import aiohttp
import pytest

from bench.standin_process import ROOT, StandInProcess
from bot.settings import bundled_catalog, load_settings
from bot.wiring import build_bot
from discord_standin import CallbackType


async def test_lookups_run_through_the_other_process_in_order(tmp_path: Path) -> None:
    settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(tmp_path / "p.db"),
                                    "PAPERCLUB_CATALOG__PATH": str(bundled_catalog()),
                                    "PAPERCLUB_DISCORD__SYNC": "global"})
    async with StandInProcess() as standin:
        bot = await build_bot(settings, guild_ready_timeout=0.05, force_sync=True)
        await standin.start_bot(bot)
        one = await standin.lookups(["grokking", "zzzzqqqq", "learning"], keep=2)
        many = await standin.lookups(["graph"] * 6, in_flight=3)
        with pytest.raises(RuntimeError, match="in_flight must be at least 1"):
            await standin.lookups(["graph"], in_flight=0)
        assert await standin.problems() == []
        await standin.stop_bot(bot)
    assert [a.type for a in one.answers] == [CallbackType.CHANNEL_MESSAGE] * 3
    assert len(many.answers) == 6 and all(a.type is not None for a in many.answers)
    assert all(a.round_trip_ms == a.inject_ms + a.answer_ms for a in one.answers)
    assert standin.returncode == 0  # stopped by /stop, not killed


async def test_the_first_line_says_where_everything_is_and_bad_batches_are_refused() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "discord_standin", "--member", "ann", "--member", "bo",
        "--channel", "general", "--channel", "papers", cwd=ROOT, stdout=asyncio.subprocess.PIPE)
    try:
        assert proc.stdout is not None
        where = json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))
        assert set(where["users"]) == {"ann", "bo"}
        assert set(where["guilds"][0]["channels"]) == {"general", "papers"}
        assert where["rest_base"].endswith("/api/v10") and "/gateway" in where["gateway_url"]
        async with aiohttp.ClientSession() as http:
            bad = await http.post(f"{where['control']}/interactions", json={"options": []})
            assert bad.status == 400 and "bad batch" in await bad.text()
            unknown = await http.post(f"{where['control']}/interactions", json={
                "command": "paper", "options": [], "user": "1"})
            assert unknown.status == 400
            await http.post(f"{where['control']}/stop")
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
