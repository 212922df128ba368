"""What fetching from arXiv gives back, and how it fails (plain data, for services and the UI)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.features.adding.arxiv_atom import ArxivEntry
from domain.arxiv_ids import ArxivRef


class SortBy(StrEnum):
    """arXiv's `sortBy`."""

    RELEVANCE = "relevance"
    LAST_UPDATED = "lastUpdatedDate"
    SUBMITTED = "submittedDate"


class SortOrder(StrEnum):
    """arXiv's `sortOrder`."""

    ASCENDING = "ascending"
    DESCENDING = "descending"


@dataclass(frozen=True, slots=True)
class FetchResult:
    """Papers fetched by id, in the order asked; `missing`: ids arXiv does not know."""

    entries: tuple[ArxivEntry, ...]
    missing: tuple[ArxivRef, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Up to the number asked of a search's papers; `total_results` is arXiv's count.

    `complete` is False when arXiv stopped answering pages before the count was reached
    (an empty page twice in a row), so a caller may say the list is partial."""

    entries: tuple[ArxivEntry, ...]
    total_results: int
    complete: bool = True


class ArxivError(Exception):
    """arXiv could not be asked or refused; subclasses say how."""


class ArxivBusy(ArxivError):
    """arXiv kept throttling (429, 503, `Rate exceeded.`) after bounded retries: try later."""


class ArxivUnavailable(ArxivError):
    """arXiv could not be reached or answered nonsense after bounded retries: try later."""


class ArxivRejected(ArxivError):
    """arXiv answered 400; `reason` is its own words (`incorrect id format for 2401.999`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
