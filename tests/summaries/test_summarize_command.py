"""`paperclub summarize` against the stand-in: an estimate first, a dry run that asks nothing,
a limited run, a clear sentence when [llm] is off."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from llm_standin import LlmStandIn


async def _paperclub(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "COLUMNS": "200", **env})
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode or 0, out.decode(), err.decode()


@pytest.fixture
async def database(tmp_path: Path, catalog_path: Path) -> Path:
    db = tmp_path / "cli.db"
    code, _, err = await _paperclub("import", str(catalog_path), "--db", str(db), env={})
    assert code == 0, err
    return db


async def test_estimate_dry_run_limited_run_and_off(database: Path) -> None:
    async with LlmStandIn() as llm:
        env = {"PAPERCLUB_LLM__ENABLED": "true", "PAPERCLUB_LLM__BASE_URL": llm.base_url,
               "PAPERCLUB_LLM__MODEL": "standin-1"}
        dry = await _paperclub("summarize", "--dry-run", "--db", str(database), env=env)
        assert dry[0] == 0 and llm.requests == []
        assert "30 summaries to make (en, zh-CN): about " in dry[2]
        assert "0 of 200000 tokens spent today" in dry[2]
        run = await _paperclub("summarize", "--lang", "en", "--limit", "5", "--db",
                               str(database), env=env)
        assert run[0] == 0, run[2]
        assert run[1].startswith("5 made, 0 kept, 0 discarded (0 failed), 0 waiting; ")
        assert len(llm.requests) == 5 and {r.language for r in llm.requests} == {"en"}
        after = await _paperclub("summarize", "--dry-run", "--db", str(database), env=env)
        assert "25 summaries to make" in after[2]
    off = await _paperclub("summarize", "--db", str(database), env={})
    assert off[0] == 2 and off[2].strip() == (
        "paperclub: AI summaries are off: set enabled = true under [llm] (see "
        "docs/operators/ai-summaries.md)")
