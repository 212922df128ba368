"""A local arXiv export API (`GET /api/query`) on 127.0.0.1, for tests, benchmarks and local mode.

It answers `id_list` and `search_query` (field prefixes, AND/OR/ANDNOT, quotes), `start`,
`max_results`, `sortBy`/`sortOrder` with Atom as arXiv writes it, from fixtures the project
writes (`default_papers`) plus any a test adds; an unknown id is a 200 with no entry, a malformed
one a 400 with an Error entry. On demand it throttles (429, 503 with Retry-After, plain-text
`Rate exceeded.`), answers slowly, or sends an empty page. Every request is recorded with the
time of an injectable clock.

Use::

    async with ArxivStandIn(clock=ticker) as arxiv:
        arxiv.fail(ArxivFault.unavailable(retry_after=5))   # the next request gets a 503
        ...  # point the client at arxiv.api_base
        assert [r.status for r in arxiv.requests] == [503, 200]

Import from this package only; its submodules are internal. It imports nothing from paperclub.
"""

from .faults import ArxivFault, FaultKind
from .fixtures import BUNDLED_TITLE, default_papers, synthetic_papers
from .records import RecordedQuery, StandinPaper
from .search import QuerySyntaxError, compile_query
from .server import ArxivStandIn

__all__ = [
    "BUNDLED_TITLE",
    "ArxivFault",
    "ArxivStandIn",
    "FaultKind",
    "QuerySyntaxError",
    "RecordedQuery",
    "StandinPaper",
    "compile_query",
    "default_papers",
    "synthetic_papers",
]
