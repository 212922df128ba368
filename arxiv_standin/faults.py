"""Answers on demand: throttling (429, 503, a plain-text `Rate exceeded.`), slowness, an empty
page for a query that has results, a 400 with arXiv's Error entry."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class FaultKind(Enum):
    """What the stand-in does instead of (or before) answering normally."""

    STATUS = "status"  # answer `status` with `body` (and Retry-After if given)
    SLOW = "slow"  # wait `delay` seconds, then answer normally
    EMPTY_PAGE = "empty_page"  # a feed with the right totalResults but no entries
    ERROR_ENTRY = "error_entry"  # 400 with an Atom Error entry whose summary is `body`


@dataclass(frozen=True)
class ArxivFault:
    """One canned misbehaviour for the next request (queue them with `ArxivStandIn.fail`)."""

    kind: FaultKind
    status: int = 200
    body: str = ""
    retry_after: int | None = None
    delay: float = 0.0

    @classmethod
    def rate_exceeded(cls, status: int = 503) -> ArxivFault:
        """arXiv's throttle: the plain text `Rate exceeded.` (not Atom)."""
        return cls(FaultKind.STATUS, status, "Rate exceeded.")

    @classmethod
    def too_many_requests(cls, retry_after: int | None = 5) -> ArxivFault:
        """429 with Retry-After."""
        return cls(FaultKind.STATUS, 429, "Too Many Requests", retry_after)

    @classmethod
    def unavailable(cls, retry_after: int | None = 5) -> ArxivFault:
        """503 with Retry-After (arXiv's load shedding)."""
        return cls(FaultKind.STATUS, 503, "Service Unavailable", retry_after)

    @classmethod
    def slow(cls, seconds: float) -> ArxivFault:
        """Answer normally after `seconds` (of the stand-in's sleep)."""
        return cls(FaultKind.SLOW, delay=seconds)

    @classmethod
    def empty_page(cls) -> ArxivFault:
        """A page with no entries although the query has results (arXiv does this at times)."""
        return cls(FaultKind.EMPTY_PAGE)

    @classmethod
    def bad_request(cls, reason: str) -> ArxivFault:
        """400 with an Error entry saying `reason`."""
        return cls(FaultKind.ERROR_ENTRY, 400, reason)
