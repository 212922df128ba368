"""Where `shared/realworld/` is (the real inputs nobody here wrote), for the tests and the
benches alike: `PAPERCLUB_REALWORLD` when set (`.ci/run` sets it), else beside the repository,
else one level further up (a git worktree under a folder of worktrees)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def realworld(*parts: str) -> Path:
    """A path under `shared/realworld/` (the first place that has the folder)."""
    named = os.environ.get("PAPERCLUB_REALWORLD")
    candidates = [Path(named)] if named else [ROOT / ".." / "shared" / "realworld",
                                              ROOT / ".." / ".." / "shared" / "realworld"]
    base = next((c for c in candidates if c.exists()), candidates[0])
    return base.joinpath(*parts)


ARXIV_SAMPLE = realworld("arxiv-metadata", "arxiv-sample.jsonl")
"""11,648 real arXiv papers (2025–2026) with their categories."""
