"""Adding papers by arXiv id or link: the one use case behind the context menu, `/catalog add`,
`/suggest` with a link and `paperclub add`, plus who may add per server.

Text in -> ids found (malformed candidates reported with why) -> one `fetch` (arXiv's
`id_list`, batched by the client) -> `CatalogService.add_papers` (subscribers hear of new
papers once) -> one outcome per id, in the order the ids appeared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.features.adding.arxiv_port import ArxivSource
from bot.features.adding.arxiv_types import ArxivBusy, ArxivRejected, ArxivUnavailable, SearchResult
from bot.features.adding.store import AddPolicyStore
from bot.features.catalog.service import CatalogService
from domain.adding import (
    AddedItem,
    AddedStatus,
    AddPolicy,
    AddReport,
    ArxivTrouble,
    WhoAdds,
)
from domain.arxiv_ids import ArxivRef, IdScan, find_arxiv_ids
from domain.catalog import AddOutcome, AddStatus

MAX_IDS = 100
"""Ids taken from one text (one `id_list` request); the rest are ignored."""

_STATUS = {AddStatus.ADDED: AddedStatus.ADDED, AddStatus.UPDATED: AddedStatus.UPDATED,
           AddStatus.FILLED: AddedStatus.FILLED, AddStatus.UNCHANGED: AddedStatus.UNCHANGED,
           AddStatus.CONFLICT: AddedStatus.CONFLICT}


@dataclass(frozen=True, slots=True)
class SearchAdded:
    """What adding an arXiv search's papers did: one outcome per paper, and the search."""

    outcomes: list[AddOutcome]
    search: SearchResult


class AddingService:
    """Fetch from arXiv and add to the catalog; the per-server rule for who may."""

    def __init__(self, catalog: CatalogService, arxiv: ArxivSource,
                 policies: AddPolicyStore) -> None:
        self.catalog = catalog
        self.arxiv = arxiv
        self.policies = policies

    async def policy(self, guild_id: int) -> AddPolicy:
        """Who may add papers in a server."""
        return await self.policies.policy(guild_id)

    async def set_policy(self, guild_id: int, who: WhoAdds,
                         curator_role_id: int | None) -> AddPolicy:
        """Replace a server's rule; the rule now in force."""
        await self.policies.set_policy(guild_id, who, curator_role_id)
        return AddPolicy(who, curator_role_id)

    async def add_from_text(self, text: str) -> AddReport:
        """Every arXiv id or link in `text`, fetched and added (see the module's docstring)."""
        return await self.add_scanned(find_arxiv_ids(text))

    async def add_scanned(self, scan: IdScan) -> AddReport:
        """Ids already found: fetched in one go and added; malformed ones reported."""
        malformed = tuple(AddedItem(m.text, AddedStatus.MALFORMED, problem=m.problem)
                          for m in scan.malformed)
        # one ref per paper: `2401.01234v1` and a later bare `2401.01234` are the same paper
        first: dict[str, ArxivRef] = {}
        for ref in scan.found:
            first.setdefault(ref.id, ref)
        refs = tuple(first.values())[:MAX_IDS]
        if not refs:
            return AddReport(malformed)
        try:
            fetched = await self.arxiv.fetch(refs)
        except (ArxivBusy, ArxivUnavailable):
            return AddReport(malformed, ArxivTrouble.BUSY, unfetched=_texts(refs))
        except ArxivRejected as rejected:
            return AddReport(malformed, ArxivTrouble.REJECTED, rejected.reason,
                             unfetched=_texts(refs))
        outcomes = await self.catalog.add_papers([e.to_paper() for e in fetched.entries])
        by_id = {e.ref.id: (e, o) for e, o in zip(fetched.entries, outcomes, strict=True)}
        items = []
        for ref in refs:
            if ref.id in by_id:
                entry, outcome = by_id[ref.id]
                items.append(AddedItem(entry.ref.versioned, _STATUS[outcome.status],
                                       outcome.paper))
            else:
                items.append(AddedItem(ref.versioned, AddedStatus.NOT_FOUND))
        return AddReport((*items, *malformed))

    async def add_from_search(self, query: str, *, max_results: int) -> SearchAdded:
        """Up to `max_results` papers matching an arXiv `search_query`, added to the catalog.
        Raises `ArxivError` (busy, unreachable, or the query rejected with arXiv's reason)."""
        found = await self.arxiv.search(query, max_results=max_results)
        outcomes = await self.catalog.add_papers([e.to_paper() for e in found.entries])
        return SearchAdded(outcomes, found)


def _texts(refs: Sequence[ArxivRef]) -> tuple[str, ...]:
    return tuple(r.versioned for r in refs)
