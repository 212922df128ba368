"""The web bench on a small run: every page load answered, `/paper` timed alone and during the
loads, the report's rows filled."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench import web


async def test_a_small_run_answers_every_load_and_reports(tmp_path: Path) -> None:
    args = argparse.Namespace(papers=200, concurrency=15, rounds=2, lookups=3,
                              out=tmp_path / "web.md")
    result = await web._bench(tmp_path, args)
    assert result.failed == 0 and len(result.pages) == 30
    assert len(result.idle) == 3 and result.during
    assert result.page_bytes > 10_000
    text = web.report(result)
    assert "| /paper while 15 page loads are in flight | " in text
    assert "30 page loads, 0 failed" in text


def test_bad_options_exit_2() -> None:
    args = argparse.Namespace(papers=0, concurrency=1, rounds=1, lookups=1, out=Path("x"))
    assert web.run(args) == 2
