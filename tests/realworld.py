"""Where the real files nobody on this project wrote live (`shared/realworld/`, see its
SOURCES.md), for tests that read them by path; a test skips when the folder is absent.

`tools.realworld` finds the folder (`PAPERCLUB_REALWORLD`, else beside the repository)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.realworld import ARXIV_SAMPLE, realworld

REALWORLD = realworld()
BIBTEX = REALWORLD / "bibtex"
ARXIV_ATOM = REALWORLD / "arxiv_atom"
ARXIV_METADATA = ARXIV_SAMPLE


def real(path: Path) -> Path:
    """`path`, or skip the test when the real corpus is not beside the repository."""
    if not path.exists():
        pytest.skip(f"the real-world corpus is absent ({path.resolve()})")
    return path


def bib_files() -> list[Path]:
    """Every real .bib file (none when the corpus is absent)."""
    return sorted(BIBTEX.rglob("*.bib")) if BIBTEX.is_dir() else []
