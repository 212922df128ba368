"""Garbage collections of the bench's process while a phase runs, and their pauses."""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from bench.report import fmt_ms as _fmt


@dataclass(slots=True)
class GcPauses:
    """Garbage collections of this process per generation, and their pauses in all (ms)."""

    counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    pause_ms: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])

    @contextlib.contextmanager
    def counting(self) -> Iterator[None]:
        """Count the collections inside the block."""
        started: list[float] = []

        def callback(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started.append(time.perf_counter())
            elif started:
                generation = info["generation"]
                self.counts[generation] += 1
                self.pause_ms[generation] += (time.perf_counter() - started.pop()) * 1000

        gc.callbacks.append(callback)
        try:
            yield
        finally:
            gc.callbacks.remove(callback)

    def summary(self) -> str:
        """`n0 / n1 / n2 (ms0 / ms1 / ms2)`."""
        return (" / ".join(f"{n:,}" for n in self.counts) + " ("
                + " / ".join(_fmt(ms) for ms in self.pause_ms) + ")")
