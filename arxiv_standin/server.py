"""The stand-in server: `GET /api/query` on 127.0.0.1, as arXiv's export API answers it."""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from types import TracebackType

from aiohttp import web

from .atom import entry_xml, error_entry_xml, feed_xml
from .faults import ArxivFault, FaultKind
from .fixtures import default_papers
from .records import RecordedQuery, StandinPaper
from .search import QuerySyntaxError, compile_query

ATOM_TYPE = "application/atom+xml"
DEFAULT_MAX_RESULTS = 10  # arXiv's default, also for id_list: more ids need max_results
MAX_PAGE = 2000
_ID = re.compile(r"(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{2})?/\d{7})(?:v(\d+))?")
_SORT_KEYS = {"relevance", "lastUpdatedDate", "submittedDate"}


class _BadRequest(Exception):
    """Answered as 400 with an Error entry saying `reason`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ArxivStandIn:
    """A local arXiv export API serving `papers` (default: the project's fixtures).

    ``async with ArxivStandIn() as arxiv:`` serves on a free port; point a client at
    ``arxiv.api_base``. ``fail(fault)`` queues misbehaviour for the next requests; every request
    is kept in ``requests`` with the time of ``clock``; ``peak_in_flight`` is the most requests
    it ever served at once.
    """

    def __init__(self, papers: Iterable[StandinPaper] | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 host: str = "127.0.0.1", port: int = 0) -> None:
        self.papers: dict[str, StandinPaper] = {}
        self.add(*(default_papers() if papers is None else papers))
        self.requests: list[RecordedQuery] = []
        self.peak_in_flight = 0
        self._in_flight = 0
        self._faults: deque[ArxivFault] = deque()
        self._clock, self._sleep = clock, sleep
        self.host, self._port = host, port
        self._runner: web.AppRunner | None = None

    def add(self, *papers: StandinPaper) -> None:
        """Serve these papers too (a paper with a known id replaces the old record)."""
        for paper in papers:
            self.papers[paper.id] = paper

    def fail(self, fault: ArxivFault, times: int = 1) -> None:
        """Answer the next `times` requests (after any already queued) with `fault`."""
        self._faults.extend([fault] * times)

    @property
    def pending_faults(self) -> int:
        """Queued faults not yet used."""
        return len(self._faults)

    # -- lifecycle ----------------------------------------------------------------------------

    async def __aenter__(self) -> ArxivStandIn:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def start(self) -> None:
        """Serve on `host` (a free port unless one was given)."""
        app = web.Application()
        app.router.add_get("/api/query", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self._port).start()
        self._port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        """Stop serving."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        """`http://host:port` of the running server."""
        return f"http://{self.host}:{self._port}"

    @property
    def api_base(self) -> str:
        """What `arxiv.api_base` should be to use this stand-in."""
        return f"{self.url}/api/query"

    # -- answering ----------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        params = dict(request.query)
        at = self._clock()
        self._in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
        try:
            response = await self._answer(params)
        finally:
            self._in_flight -= 1
        self.requests.append(RecordedQuery(at, params, request.headers.get("User-Agent", ""),
                                           response.status))
        return response

    async def _answer(self, params: dict[str, str]) -> web.Response:
        fault = self._faults.popleft() if self._faults else None
        if fault is not None and fault.kind is FaultKind.STATUS:
            headers = {} if fault.retry_after is None else {"Retry-After": str(fault.retry_after)}
            return web.Response(status=fault.status, text=fault.body, headers=headers)
        if fault is not None and fault.kind is FaultKind.ERROR_ENTRY:
            return self._error(params, fault.body)
        if fault is not None and fault.kind is FaultKind.SLOW:
            await self._sleep(fault.delay)
        try:
            total, start, page = self._select(params)
        except _BadRequest as bad:
            return self._error(params, bad.reason)
        if fault is not None and fault.kind is FaultKind.EMPTY_PAGE:
            page = []
        body = feed_xml(params, (entry_xml(p, v) for p, v in page), total=total, start=start,
                        per_page=len(page))
        return web.Response(text=body, content_type=ATOM_TYPE, charset="utf-8")

    def _error(self, params: dict[str, str], reason: str) -> web.Response:
        body = feed_xml(params, [error_entry_xml(reason)], total=1, start=0, per_page=1)
        return web.Response(status=400, text=body, content_type=ATOM_TYPE, charset="utf-8")

    def _select(self, params: dict[str, str]) -> tuple[int, int, list[tuple[StandinPaper, int]]]:
        start = _number(params, "start", 0)
        per_page = min(_number(params, "max_results", DEFAULT_MAX_RESULTS), MAX_PAGE)
        if params.get("sortBy", "relevance") not in _SORT_KEYS:
            raise _BadRequest(f"sortBy must be in: {', '.join(sorted(_SORT_KEYS))}")
        if params.get("sortOrder", "descending") not in {"ascending", "descending"}:
            raise _BadRequest("sortOrder must be in: ascending, descending")
        chosen = self._by_ids(params["id_list"]) if params.get("id_list") else None
        query = params.get("search_query", "").strip()
        if query:
            try:
                matches = compile_query(query)
            except QuerySyntaxError as exc:
                raise _BadRequest(str(exc)) from None
            pool = chosen if chosen is not None else [(p, p.version)
                                                      for p in self.papers.values()]
            chosen = [(p, v) for p, v in pool if matches(p)]
        if chosen is None:
            chosen = []
        chosen = _sorted(chosen, params)
        return len(chosen), start, chosen[start:start + per_page]

    def _by_ids(self, id_list: str) -> list[tuple[StandinPaper, int]]:
        found: list[tuple[StandinPaper, int]] = []
        for raw in (part.strip() for part in id_list.split(",")):
            match = _ID.fullmatch(raw)
            if match is None:
                raise _BadRequest(f"incorrect id format for {raw}")
            paper = self.papers.get(_canonical(match.group(1)))
            version = int(match.group(2)) if match.group(2) else None
            if paper is not None and (version is None or 1 <= version <= paper.version):
                found.append((paper, version or paper.version))
        return found


def _canonical(paper_id: str) -> str:
    """Old-style ids drop their subject class: `math.GT/0309136` is `math/0309136`."""
    archive, slash, number = paper_id.partition("/")
    return f"{archive.split('.')[0]}/{number}" if slash else paper_id


def _number(params: dict[str, str], name: str, default: int) -> int:
    text = params.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit():
        raise _BadRequest(f"{name} must be an integer")
    return int(text)


def _sorted(chosen: list[tuple[StandinPaper, int]],
            params: dict[str, str]) -> list[tuple[StandinPaper, int]]:
    key = params.get("sortBy", "relevance")
    if key == "relevance" or params.get("id_list"):
        return chosen  # id_list answers keep the order asked for; relevance: fixture order
    descending = params.get("sortOrder", "descending") == "descending"
    if key == "submittedDate":
        return sorted(chosen, key=lambda pv: pv[0].published, reverse=descending)
    return sorted(chosen, key=lambda pv: pv[0].updated or pv[0].published, reverse=descending)
