"""The `/paper` concurrency sweep runs every (readers, in flight) step and reports each one."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bench.interaction_sweep import SweepPlan, parse_sizes, run_sweep, sweep_report
from bot.settings import bundled_catalog, load_settings


async def test_sweep_runs_and_reports_every_size(tmp_path: Path) -> None:
    settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": str(tmp_path / "sweep.db"),
                                    "PAPERCLUB_CATALOG__PATH": str(bundled_catalog())})
    plan = SweepPlan(sizes=(1, 3), lookups=4, readers=(1, 2))
    rows = await run_sweep(settings, plan, ["learning", "graph"], 1, lambda _: None)

    assert [(r.readers, r.in_flight) for r in rows] == [(1, 1), (1, 3), (2, 1), (2, 3)]
    assert all(len(r.ms) == 4 and sum(r.callbacks.values()) == 4 for r in rows)
    table = [line for line in sweep_report(rows, plan, 30).splitlines()
             if line.startswith("| ") and line[2].isdigit()]
    assert [line.split(" | ")[:2] for line in table] == [
        ["| 1", "1"], ["| 1", "2"], ["| 3", "1"], ["| 3", "2"]]


def test_sweep_sizes_parse_and_refuse_nonsense() -> None:
    assert parse_sizes("1,20,200") == (1, 20, 200)
    assert parse_sizes("") == ()
    for bad in ("0", "a,2"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_sizes(bad)
