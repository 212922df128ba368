"""The web bench on a small run, the pages served by the bot and by a process of their own:
every page load answered, `/paper` timed alone and during the loads, the report's rows filled
side by side."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from bench import web


async def test_a_small_run_answers_every_load_and_reports(tmp_path: Path) -> None:
    apart = len(os.sched_getaffinity(0)) > 1  # the bot's process on CPU 0, the rest apart
    args = argparse.Namespace(papers=200, concurrency=15, rounds=2, lookups=3,
                              out=tmp_path / "web.md", cores_apart=apart)
    before = os.sched_getaffinity(0)
    results = [await web._bench(tmp_path, args, process) for process in web.PROCESSES]
    for result in results:
        assert result.failed == 0 and len(result.pages) == 30
        assert len(result.idle) == 3 and result.during
        assert result.page_bytes > 10_000
        assert result.cores_apart == apart
    assert os.sched_getaffinity(0) == before  # put back after each run
    assert results[0].page_bytes == results[1].page_bytes  # the same page from either
    text = web.report(results)
    assert "| measured | bot: n | p50 ms | p99 ms | own: n | p50 ms | p99 ms |" in text
    assert "| /paper while 15 page loads are in flight | " in text
    assert "- `bot`: 30 page loads, 0 failed" in text
    assert "- `own`: 30 page loads, 0 failed" in text
    assert ("`--cores-apart`: the bot's process" in text) == apart


def test_bad_options_exit_2() -> None:
    args = argparse.Namespace(papers=0, concurrency=1, rounds=1, lookups=1, out=Path("x"),
                              web_process=web.PROCESSES)
    assert web.run(args) == 2


@pytest.mark.parametrize("text", ["", "bot,elsewhere", ","])
def test_web_process_names_bot_or_own(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        web._processes(text)
    assert web._processes("own, bot,own") == ("own", "bot")
