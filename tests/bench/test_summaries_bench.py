"""The summaries bench on a tiny run: both variants timed in every round, the backfill really
running (summaries made while its lookups ran), the report filled."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench import summaries


async def test_a_tiny_run_times_both_variants_with_the_backfill_running(tmp_path: Path) -> None:
    result = await summaries.measure(tmp_path, rounds=2, lookups=3, concurrency=2,
                                     papers=100)
    assert [len(rounds) for rounds in result.times.values()] == [2, 2]
    assert all(len(took) == 3 for rounds in result.times.values() for took in rounds)
    assert result.made >= 2  # each backfill round stored summaries
    text = summaries.report(result, 2, 3, 100)
    assert "p99 backfill - idle, median of the rounds:" in text
    assert f"summaries made during the backfill rounds: {result.made}" in text


def test_bad_options_exit_2() -> None:
    assert summaries.run(argparse.Namespace(rounds=0, lookups=1, concurrency=1,
                                                    papers=1)) == 2
