"""The catalog's value types."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from functools import lru_cache

from domain.summaries import GeneratedSummary
from domain.text import title_key


class Track(StrEnum):
    """Where at a venue a paper appears."""

    MAIN = "main"
    WORKSHOP = "workshop"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Affiliation:
    """One institution, in English and (where the listing gives it) Chinese."""

    en: str
    zh: str = ""


@dataclass(frozen=True, slots=True)
class Venue:
    """Structured venue facts derived from a paper's Comments and Journal ref."""

    conference: str | None = None
    year: int | None = None
    track: Track = Track.UNKNOWN
    workshop: str | None = None
    honours: tuple[str, ...] = ()
    pages: int | None = None
    figures: int | None = None
    tables: int | None = None

    def length(self) -> str:
        """`16 pages, 8 figures, 2 tables` from whichever counts the notes gave ('' if none)."""
        counts = (("pages", self.pages), ("figures", self.figures), ("tables", self.tables))
        return ", ".join(f"{n} {name}" for name, n in counts if n)

    def badge(self) -> str:
        """A one-line label such as `ICML 2026 · Workshop: Mechanistic Interpretability`."""
        parts: list[str] = []
        if self.conference:
            parts.append(f"{self.conference} {self.year}" if self.year else self.conference)
        if self.track is Track.WORKSHOP:
            parts.append(f"Workshop: {self.workshop}" if self.workshop else "Workshop")
        elif self.track is Track.MAIN:
            parts.append("Main track")
        parts.extend(h.capitalize() for h in self.honours)
        return " · ".join(parts)


ARXIV_BASE = "https://arxiv.org"
"""Where arXiv's public pages live (the API's base URL is configuration, not this)."""


@dataclass(frozen=True, slots=True)
class Links:
    """Where a paper lives outside the catalog: its arXiv record, DOI and web pages.

    `arxiv_id` is kept without its version (`2401.01234`, `hep-th/9901001`); the version seen
    last is `arxiv_version` (0 when unknown). Times are timezone-aware UTC or None.
    """

    arxiv_id: str = ""
    arxiv_version: int = 0
    doi: str = ""
    url: str = ""
    pdf_url: str = ""
    categories: tuple[str, ...] = ()
    published: datetime | None = None
    updated: datetime | None = None

    @property
    def abs_url(self) -> str:
        """The arXiv abstract page ('' without an id); the version-less page is the latest."""
        return f"{ARXIV_BASE}/abs/{self.arxiv_id}" if self.arxiv_id else ""

    @property
    def pdf_link(self) -> str:
        """The PDF: the one arXiv gave, else built from the id ('' when neither is known)."""
        if self.pdf_url:
            return self.pdf_url
        return f"{ARXIV_BASE}/pdf/{self.arxiv_id}" if self.arxiv_id else ""

    @property
    def versioned_id(self) -> str:
        """`2401.01234v2`, or the bare id when the version is unknown ('' without an id)."""
        if self.arxiv_id and self.arxiv_version:
            return f"{self.arxiv_id}v{self.arxiv_version}"
        return self.arxiv_id


@dataclass(frozen=True, slots=True)
class Paper:
    """One catalog record, every field of the listing kept (plus arXiv's, where known)."""

    title_en: str
    title_zh: str
    authors: tuple[str, ...]
    affiliations: tuple[Affiliation, ...] = ()
    summary_zh: str = ""
    comments: str = ""
    journal_ref: str = ""
    venue: Venue = field(default_factory=Venue)
    summary_en: str = ""
    links: Links = field(default_factory=Links)
    kept_key: str = ""
    """The identity a corrected English title keeps (a server's correction overlay sets it, so
    the paper's id, bookmarks and votes stay); '' for a record as the catalog has it."""
    generated: tuple[GeneratedSummary, ...] = ()
    """AI summaries made here (attached when the paper is shown, never stored with it): cards
    show one where the paper has no text of its own in a language; DMs, exports and the web
    page show the English one beside an abstract too."""

    @property
    def key(self) -> str:
        """Identity across reloads: the normalised English title (or the key it kept)."""
        return self.kept_key or title_key(self.title_en)

    @property
    def id(self) -> str:
        """A short, stable public id derived from the identity key."""
        return paper_id(self.key)


PAPER_ID_CHARS = 16


def paper_id(key: str) -> str:
    """16 hex characters (64 bits) of the key's SHA-256: stable across databases and reloads
    (kept for the last 8,192 keys, as `title_key` keeps its titles: a search's hits and a
    page's papers ask for the same ids again and again).

    64 bits keep a collision between two titles improbable even at ten million papers (about
    1 in 370,000); 40 bits collided at one million about every other time.
    """
    return _hashed(key, PAPER_ID_CHARS)


@lru_cache(maxsize=8192)
def _hashed(key: str, chars: int) -> str:
    """The first `chars` hex characters of the key's SHA-256 (the length is part of the cache
    key, so a shorter `PAPER_ID_CHARS` is never answered from longer ids)."""
    return hashlib.sha256(key.encode()).hexdigest()[:chars]
