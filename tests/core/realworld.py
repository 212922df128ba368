"""Where the real files nobody on this project wrote live (`../shared/realworld`, see its
SOURCES.md), for tests that read them by path; a test skips when the folder is absent.
`PAPERCLUB_REALWORLD` names another place for it (a git worktree has no `shared/` beside it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REALWORLD = Path(os.environ.get("PAPERCLUB_REALWORLD")
                 or Path(__file__).resolve().parents[2] / ".." / "shared" / "realworld")
BIBTEX = REALWORLD / "bibtex"
ARXIV_ATOM = REALWORLD / "arxiv_atom"
ARXIV_METADATA = REALWORLD / "arxiv-metadata" / "arxiv-sample.jsonl"


def real(path: Path) -> Path:
    """`path`, or skip the test when the real corpus is not beside the repository."""
    if not path.exists():
        pytest.skip(f"the real-world corpus is absent ({path.resolve()})")
    return path


def bib_files() -> list[Path]:
    """Every real .bib file (none when the corpus is absent)."""
    return sorted(BIBTEX.rglob("*.bib")) if BIBTEX.is_dir() else []
