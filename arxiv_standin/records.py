"""The papers the stand-in serves and the requests it saw."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class StandinPaper:
    """One arXiv record as the stand-in serves it (the latest version is `version`).

    `title` and `summary` are written as arXiv writes them: LaTeX kept, wrapped on output.
    `affiliations` maps an author to theirs (written as `arxiv:affiliation`).
    """

    id: str
    title: str
    summary: str
    authors: tuple[str, ...]
    categories: tuple[str, ...]
    published: datetime
    updated: datetime | None = None
    version: int = 1
    comment: str = ""
    journal_ref: str = ""
    doi: str = ""
    affiliations: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def primary_category(self) -> str:
        """The first category is the primary one."""
        return self.categories[0]


@dataclass(frozen=True)
class RecordedQuery:
    """One request to `/api/query`: when (by the stand-in's clock), its parameters, its answer."""

    at: float
    params: dict[str, str]
    user_agent: str
    status: int
