"""The figures the Discord-rate benches report."""

from __future__ import annotations

import math

from bench.rate import RecordingLimiter, busiest_second, fmt, per_second


def test_the_busiest_rolling_second_counts_any_window_not_whole_seconds() -> None:
    assert busiest_second([]) == 0
    assert busiest_second([0.0, 0.5, 0.9, 1.4, 1.45, 3.0]) == 4  # 0.5 .. 1.45
    assert busiest_second([0.0, 1.0, 2.0]) == 1  # a window is shorter than one second


def test_requests_per_whole_second_and_figures() -> None:
    assert per_second([0.1, 0.2, 1.5, 9.0], 2.0) == [2, 1, 1]  # late ones count in the last
    assert per_second([0.1], math.nan) == [1]
    assert (fmt(1234.5678), fmt(2.0, 0), fmt(math.nan)) == ("1,234.57", "2", "n/a")


def test_the_recording_limiter_admits_everything_without_a_limit() -> None:
    free, limited = RecordingLimiter(None), RecordingLimiter(2)
    for moment in (0.0, 0.1, 0.2):
        free.check(moment)
        limited.check(moment)
    assert (free.admitted, free.refused) == ([0.0, 0.1, 0.2], [])
    assert (limited.admitted, limited.refused) == ([0.0, 0.1], [0.2])
