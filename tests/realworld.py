"""Where `../shared/realworld/` is: beside the repository (`/work/main/../shared`), or, for a
git worktree under a folder of worktrees, one level further up."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def realworld(*parts: str) -> Path:
    """The path under `shared/realworld/` (the first candidate that exists, else the first)."""
    candidates = [REPO / ".." / "shared" / "realworld", REPO / ".." / ".." / "shared" / "realworld"]
    base = next((c for c in candidates if c.exists()), candidates[0])
    return base.joinpath(*parts)
