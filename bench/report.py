"""What every benchmark does with its figures: print them, keep a copy, say where."""

from __future__ import annotations

import sys
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
