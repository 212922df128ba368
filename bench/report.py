"""What every benchmark does with its figures: print them, keep a copy, say where."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path


def progress(tag: str, message: str) -> None:
    """A progress line on stderr, so stdout holds only the report."""
    print(f"[{tag}] {message}", file=sys.stderr, flush=True)


def publish(text: str, out: Path, tag: str) -> None:
    """Print the Markdown report and write it to `out` (under bench/out/, git-ignored)."""
    print(text)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    progress(tag, f"written to {out}")


def p99(values: Sequence[float]) -> float:
    """Nearest-rank 99th percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def fmt_ms(ms: float) -> str:
    """Milliseconds with as many decimals as their size deserves."""
    return f"{ms:.3f}" if ms < 1 else f"{ms:.2f}" if ms < 100 else f"{ms:,.0f}"
