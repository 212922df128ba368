"""The bot's watch over its `paperclub web` child: a child that exits is started again after a
growing back-off, and stopping ends a child that ignores SIGTERM with SIGKILL."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.client import web_child
from bot.client.web_child import FIRST_BACKOFF, MAX_BACKOFF, WebChild


async def test_a_child_that_exits_is_started_again_with_a_growing_back_off() -> None:
    waits: list[float] = []
    enough = asyncio.Event()

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) >= 7:
            enough.set()
            await asyncio.Event().wait()  # stays here until stopped

    child = WebChild(dict(os.environ), command=[sys.executable, "-c", "raise SystemExit(3)"],
                     sleep=sleep)
    child.start()
    await asyncio.wait_for(enough.wait(), 60)
    await child.stop()
    assert child.starts == 7
    assert waits == [FIRST_BACKOFF * 2 ** n for n in range(5)] + [MAX_BACKOFF] * 2
    assert child.process is not None and child.process.returncode == 3


async def test_stopping_kills_a_child_that_ignores_sigterm(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(web_child, "STOP_SECONDS", 0.5)
    ready = tmp_path / "ready"
    ignoring = ("import pathlib, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
                " pathlib.Path(sys.argv[1]).touch(); time.sleep(60)")
    child = WebChild(dict(os.environ), command=[sys.executable, "-c", ignoring, str(ready)])
    child.start()
    for _ in range(600):  # the child has set its handler
        if ready.exists():
            break
        await asyncio.sleep(0.05)
    assert ready.exists()
    await child.stop()
    assert child.process is not None and child.process.returncode == -9
    assert child.starts == 1
