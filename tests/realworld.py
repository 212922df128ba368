"""Where the real files nobody on this project wrote live (`shared/realworld/`, see its
SOURCES.md), for tests that read them by path; a test skips when the folder is absent.

`PAPERCLUB_REALWORLD` names the folder (`.ci/run` sets it); otherwise it is looked for beside
the repository (`../shared/realworld`) and, for a git worktree under a folder of worktrees, one
level further up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _located() -> Path:
    named = os.environ.get("PAPERCLUB_REALWORLD")
    if named:
        return Path(named)
    candidates = [REPO / ".." / "shared" / "realworld", REPO / ".." / ".." / "shared" / "realworld"]
    return next((c for c in candidates if c.exists()), candidates[0])


REALWORLD = _located()
BIBTEX = REALWORLD / "bibtex"
ARXIV_ATOM = REALWORLD / "arxiv_atom"
ARXIV_METADATA = REALWORLD / "arxiv-metadata" / "arxiv-sample.jsonl"


def realworld(*parts: str) -> Path:
    """A path under `shared/realworld/`."""
    return REALWORLD.joinpath(*parts)


def real(path: Path) -> Path:
    """`path`, or skip the test when the real corpus is not beside the repository."""
    if not path.exists():
        pytest.skip(f"the real-world corpus is absent ({path.resolve()})")
    return path


def bib_files() -> list[Path]:
    """Every real .bib file (none when the corpus is absent)."""
    return sorted(BIBTEX.rglob("*.bib")) if BIBTEX.is_dir() else []
