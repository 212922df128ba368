"""The process-wide arXiv API client (aiohttp): polite and robust.

- One request in flight at a time, and at least `min_interval` (3 s, arXiv's terms of use)
  from the end of one request to the start of the next, measured with an injected clock and
  sleep (tests move a fake clock; nothing waits for wall time).
- A descriptive User-Agent naming paperclub and the operator's contact (`arxiv.contact`).
- `id_list` in batches of up to 100 ids; searches page `page_size` entries at a time.
- Throttling (429, 503, a plain-text `Rate exceeded.`) and transient failures (other 5xx,
  connection errors, timeouts, non-Atom answers) back off exponentially with jitter (honouring
  Retry-After) and retry at most `max_retries` times, then raise `ArxivBusy` or
  `ArxivUnavailable`. A back-off also holds back every other caller: nobody hammers arXiv.
- 400 raises `ArxivRejected` with arXiv's reason from its Error entry.
- An empty page where the total says there are results is asked again once.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence

import aiohttp

from bot import __version__
from bot.features.adding.arxiv_atom import ArxivEntry, AtomPage, NotAtom, parse_atom
from bot.features.adding.arxiv_types import (
    ArxivBusy,
    ArxivRejected,
    ArxivUnavailable,
    FetchResult,
    SearchResult,
    SortBy,
    SortOrder,
)
from bot.settings import ArxivSettings
from domain.arxiv_ids import ArxivRef

MIN_INTERVAL = 3.0
"""arXiv's terms of use: no more than one request every three seconds."""
ID_BATCH = 100
PAGE_SIZE = 100
MAX_BACKOFF = 120.0
RATE_EXCEEDED = "Rate exceeded."
_THROTTLE_STATUSES = frozenset({429, 503})
_TRANSIENT_STATUSES = frozenset({500, 502, 504})

Sleep = Callable[[float], Awaitable[None]]


def user_agent(contact: str) -> str:
    """`paperclub/0.1.0 (Discord reading-group bot; mailto:…)`: who asks, and whom to tell."""
    reach = f"; {'mailto:' + contact if '@' in contact and ':' not in contact else contact}" \
        if contact else ""
    return f"paperclub/{__version__} (Discord reading-group bot{reach})"


class _Throttled(Exception):
    """One throttling or transient answer; `busy` tells throttling from failure."""

    def __init__(self, busy: bool, retry_after: float | None, detail: str) -> None:
        super().__init__(detail)
        self.busy, self.retry_after, self.detail = busy, retry_after, detail


class ArxivClient:
    """arXiv's export API for the whole process (implements `ArxivSource`)."""

    def __init__(self, api_base: str, *, contact: str = "", timeout: float = 30.0,
                 max_retries: int = 4, min_interval: float = MIN_INTERVAL,
                 backoff: float = 5.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Sleep = asyncio.sleep, jitter: Callable[[], float] = random.random,
                 page_size: int = PAGE_SIZE) -> None:
        self.api_base = api_base
        self.user_agent = user_agent(contact)
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._max_retries, self._min_interval, self._backoff = max_retries, min_interval, backoff
        self._clock, self._sleep, self._jitter = clock, sleep, jitter
        self._page_size = page_size
        self._lock = asyncio.Lock()
        self._next_start = float("-inf")
        self._session: aiohttp.ClientSession | None = None

    @classmethod
    def from_settings(cls, settings: ArxivSettings) -> ArxivClient:
        """The production client for `[arxiv]`."""
        return cls(str(settings.api_base), contact=settings.contact,
                   timeout=settings.timeout_seconds, max_retries=settings.max_retries)

    async def close(self) -> None:
        """Close the connection pool."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    # -- the two calls ------------------------------------------------------------------------

    async def fetch(self, refs: Sequence[ArxivRef]) -> FetchResult:
        """These papers, `ID_BATCH` ids a request; ids arXiv does not know are `missing`."""
        wanted = list(dict.fromkeys(refs))
        found: dict[str, ArxivEntry] = {}
        for first in range(0, len(wanted), ID_BATCH):
            batch = wanted[first:first + ID_BATCH]
            params = {"id_list": ",".join(r.versioned for r in batch),
                      "max_results": str(len(batch))}
            page = await self._page(params, expected=len(batch))
            found.update((e.ref.id, e) for e in page.entries)
        return FetchResult(tuple(found[r.id] for r in wanted if r.id in found),
                           tuple(r for r in wanted if r.id not in found))

    async def search(self, query: str, *, max_results: int,
                     sort_by: SortBy = SortBy.RELEVANCE,
                     sort_order: SortOrder = SortOrder.DESCENDING,
                     start: int = 0) -> SearchResult:
        """Up to `max_results` papers for an arXiv `search_query` from the `start`-th result
        on, paging as needed."""
        entries: dict[str, ArxivEntry] = {}
        total = 0
        while len(entries) < max_results:
            size = min(self._page_size, max_results - len(entries))
            params = {"search_query": query, "start": str(start), "max_results": str(size),
                      "sortBy": sort_by.value, "sortOrder": sort_order.value}
            page = await self._page(params, expected=None)
            total = page.total_results
            if not page.entries:
                return SearchResult(tuple(entries.values()), total, complete=start >= total)
            for entry in page.entries:
                entries.setdefault(entry.ref.id, entry)
            start += len(page.entries)
            if start >= total:
                break
        return SearchResult(tuple(entries.values())[:max_results], total)

    # -- one page: empty-page retry, throttling retries, pacing -------------------------------

    async def _page(self, params: Mapping[str, str], *, expected: int | None) -> AtomPage:
        """One answer; an empty one where results exist is asked for again, once."""
        page = await self._ask(params)
        start = int(params.get("start", "0"))
        owed = page.total_results - start if expected is None else min(expected,
                                                                       page.total_results)
        if not page.entries and owed > 0:
            page = await self._ask(params)
        return page

    async def _ask(self, params: Mapping[str, str]) -> AtomPage:
        """One request with bounded, jittered retries on throttling and transient failures."""
        last: _Throttled | None = None
        for attempt in range(self._max_retries + 1):
            if last is not None:
                delay = min(MAX_BACKOFF, max(last.retry_after or 0.0,
                                             self._backoff * 2 ** (attempt - 1)))
                self._hold_back(delay + self._jitter() * self._backoff)
            try:
                return await self._paced(params)
            except _Throttled as throttled:
                last = throttled
        assert last is not None
        error = ArxivBusy if last.busy else ArxivUnavailable
        raise error(f"arXiv: {last.detail} (gave up after {self._max_retries + 1} tries)")

    def _hold_back(self, seconds: float) -> None:
        """No request (from any caller) before `seconds` from now."""
        self._next_start = max(self._next_start, self._clock() + seconds)

    async def _paced(self, params: Mapping[str, str]) -> AtomPage:
        async with self._lock:
            while (wait := self._next_start - self._clock()) > 0:
                await self._sleep(wait)
            try:
                return await self._send(params)
            finally:
                self._hold_back(self._min_interval)

    async def _send(self, params: Mapping[str, str]) -> AtomPage:
        if self._session is None:
            self._session = aiohttp.ClientSession(headers={"User-Agent": self.user_agent},
                                                  timeout=self._timeout)
        try:
            async with self._session.get(self.api_base, params=dict(params)) as response:
                body = await response.text(errors="replace")
                status, retry_after = response.status, response.headers.get("Retry-After")
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise _Throttled(False, None, f"no answer ({type(exc).__name__})") from None
        return _page_or_raise(status, body, retry_after)


def _seconds(header: str | None) -> float | None:
    try:
        return max(0.0, float(header)) if header else None
    except ValueError:
        return None  # an HTTP date: the exponential back-off applies


def _page_or_raise(status: int, body: str, retry_after: str | None) -> AtomPage:
    if body.strip() == RATE_EXCEEDED or status in _THROTTLE_STATUSES:
        raise _Throttled(True, _seconds(retry_after), f"throttled ({status})")
    if status in _TRANSIENT_STATUSES:
        raise _Throttled(False, _seconds(retry_after), f"server error {status}")
    try:
        page = parse_atom(body)
    except NotAtom:
        raise _Throttled(False, None, f"an answer that is not Atom ({status})") from None
    if status == 400 or page.error:
        raise ArxivRejected(page.error or "bad request")
    if status != 200:
        raise _Throttled(False, None, f"unexpected status {status}")
    return page
