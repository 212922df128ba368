"""Corrections (纠错): members propose a fix to one field of a paper, a server's curators
approve or reject it once, and approved fixes are an overlay kept apart from the source record
(a catalog reload, an arXiv update or a BibTeX import rewrites the record, never the overlay).
Everything is per server."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from bot.features.corrections.rules import (
    checked_reason,
    checked_value,
    current_value,
    overlaid,
)
from bot.features.corrections.store import CorrectionStore
from bot.shared.clock import Clock, utc_now
from bot.shared.leases import Leaser, process_owner
from bot.shared.messages import Refusal
from bot.shared.server_view import as_stored
from domain.corrections import (
    Event,
    Field,
    NewProposal,
    Proposal,
    ReviewSettings,
    Status,
    Target,
)
from domain.paper import Paper

CORRECTED_LIMIT = 10_000
"""The most corrected papers a server's searches take into account."""
CACHED_GUILDS = 256
"""Servers whose corrected papers are kept between searches."""


class PaperLookup(Protocol):
    """The catalog's source records by public id (`PaperStore.get`)."""

    async def get(self, public_id: str) -> Paper | None:
        """A paper as the catalog holds it, or None."""
        ...

    async def catalog_version(self) -> int:
        """A number that changes whenever the catalog does."""
        ...


@dataclass(frozen=True, slots=True)
class Draft:
    """What the proposal form shows: the paper as the server sees it and the field's value."""

    paper: Paper
    target: Target
    value: str


@dataclass(frozen=True, slots=True)
class Submitted:
    """A stored proposal, the paper it corrects (as the server sees it before the change), and
    where the server reviews proposals (None: no channel set)."""

    proposal: Proposal
    paper: Paper
    review_channel_id: int | None


@dataclass(frozen=True, slots=True)
class Listing:
    """`/corrections list`: the proposals, and outcomes owed to the asker."""

    proposals: list[Proposal]
    untold: list[Proposal]


class CorrectionService:
    """Propose, decide once, revert, list and overlay a server's corrections."""

    def __init__(self, store: CorrectionStore, papers: PaperLookup,
                 clock: Clock = utc_now, leases: Leaser | None = None) -> None:
        """`leases` lease a decided proposal's review message to this process while it
        shows the decision (default: this process, five minutes)."""
        self._leases = leases or Leaser(process_owner(), clock=clock)
        self._store = store
        self._papers = papers
        self._clock = clock
        self._corrected: OrderedDict[int, tuple[tuple[int, tuple[int, ...]], list[Paper]]] = (
            OrderedDict())
        """Per server: the key its corrected papers were read under, and those papers."""
        self.generated: Callable[[Paper], Awaitable[Paper]] | None = None
        """What gives a paper the AI summaries made for it (set when `[llm]` is on): a form
        correcting a summary the paper shows as generated starts from that summary."""

    async def draft(self, guild_id: int, paper_id: str, field: Field,
                    position: int = 0) -> Draft:
        """The form's prefilled value: the field as the server sees it now."""
        source = await self._source(paper_id)
        paper = await self._overlaid(guild_id, source)
        summary = field is Field.SUMMARY_EN or (field is Field.SUMMARY_ZH and not paper.summary_zh)
        if summary and self.generated is not None:
            paper = await self.generated(paper)
        target = Target(source.id, field, position)
        return Draft(paper, target, current_value(paper, target))

    async def propose(self, guild_id: int, target: Target, text: str, reason: str,
                      user_id: int) -> Submitted:
        """A pending proposal and where to review it; refused when the value is unchanged
        or breaks the field's rules (a `Refusal`)."""
        draft = await self.draft(guild_id, target.paper_id, target.field, target.position)
        value = checked_value(target.field, text)
        if value == draft.value:
            raise Refusal("corrections.unchanged")
        proposal = await self._store.propose(NewProposal(
            guild_id, draft.target, draft.value, value, checked_reason(reason), user_id,
            self._clock()))
        settings = await self._store.review_settings(guild_id)
        return Submitted(proposal, draft.paper, settings.channel_id)

    async def decide(self, guild_id: int, proposal_id: int, *, approve: bool, by: int,
                     note: str = "") -> Proposal | None:
        """Approve or reject, once: None when someone else decided first."""
        proposal = await self._store.proposal(guild_id, proposal_id)
        if proposal is None:
            raise Refusal("corrections.no_such", id=proposal_id)
        source = await self._papers.get(proposal.target.paper_id)
        source_value = "" if source is None else _value_or_blank(source, proposal.target)
        return await self._store.decide(
            guild_id, proposal_id, Status.APPROVED if approve else Status.REJECTED, by,
            self._clock(), checked_reason(note), source_value, self._leases.fresh())

    async def claim_review(self) -> Proposal | None:
        """A decided proposal whose review message is still to show the decision (its
        answer was lost, or its process died), leased to this process; None when none is."""
        return await self._leases.hold(self._store.claim_review)

    async def review_shown(self, proposal_id: int) -> None:
        """The review message shows the decision: nothing left to resume."""
        await self._store.review_shown(proposal_id)

    async def revert(self, guild_id: int, proposal_id: int, *, by: int,
                     note: str = "") -> Proposal | None:
        """Withdraw an approved correction, once: None when it is not approved (any more)."""
        return await self._store.revert(guild_id, proposal_id, by, self._clock(),
                                        checked_reason(note))

    async def proposal(self, guild_id: int, proposal_id: int) -> Proposal:
        """One of the server's proposals (a `Refusal` for another server's or none)."""
        found = await self._store.proposal(guild_id, proposal_id)
        if found is None:
            raise Refusal("corrections.no_such", id=proposal_id)
        return found

    async def proposals(self, guild_id: int, status: Status | None = None,
                        limit: int = 50) -> list[Proposal]:
        """The server's proposals, newest first."""
        return await self._store.proposals(guild_id, status=status, limit=limit)

    async def listing(self, guild_id: int, status: Status, user_id: int,
                      limit: int = 50) -> Listing:
        """The server's proposals of one status, and the outcomes of the asker's own
        proposals they could not be told by DM (each given once)."""
        untold = await self.owed_outcomes(guild_id, user_id)
        return Listing(await self.proposals(guild_id, status, limit), untold)

    async def shown(self, guild_id: int, proposal_id: int,
                    user_id: int) -> tuple[Proposal, Paper | None, list[Proposal]]:
        """`/corrections show`: the proposal, its paper as the server sees it (None: gone
        from the catalog), and the outcomes owed to the asker."""
        proposal = await self.proposal(guild_id, proposal_id)
        source = await self._papers.get(proposal.target.paper_id)
        paper = None if source is None else await self.overlay_one(guild_id, source)
        return proposal, paper, await self.owed_outcomes(guild_id, user_id)

    async def traced(self, guild_id: int, paper_id: str,
                     user_id: int) -> tuple[list[Event], list[Proposal]]:
        """`/corrections history`: the paper's events, and the outcomes owed to the asker."""
        return (await self.history(guild_id, paper_id),
                await self.owed_outcomes(guild_id, user_id))

    async def owed_outcomes(self, guild_id: int, user_id: int) -> list[Proposal]:
        """The outcomes of the member's proposals they could not be told by DM, each given
        once (shown with whichever `/corrections` command they use next)."""
        return [p for p in await self._store.untold_outcomes(guild_id, user_id)
                if await self._store.claim_outcome_notice(p.id)]

    async def history(self, guild_id: int, paper_id: str) -> list[Event]:
        """Every change of the server's corrections of a paper: who, when, why."""
        return await self._store.history(guild_id, paper_id)

    async def overlay(self, guild_id: int | None, papers: Sequence[Paper]) -> list[Paper]:
        """The papers as the server sees them (unchanged outside a server)."""
        if guild_id is None or not papers:
            return list(papers)
        approved = await self._store.approved(guild_id, [p.id for p in papers])
        if not approved:
            return list(papers)
        return [overlaid(paper, approved) for paper in papers]

    async def view(self, guild_id: int | None, paper_ids: Sequence[str]
                   ) -> Callable[[Paper], Paper]:
        """What shows these papers as the server sees them (the search service's hook): one
        read of their approved corrections, applied to each paper when it is built."""
        if guild_id is None or not paper_ids:
            return as_stored
        approved = await self._store.approved(guild_id, list(paper_ids))
        if not approved:
            return as_stored
        return partial(overlaid, corrections=tuple(approved))

    async def corrected(self, guild_id: int) -> list[Paper]:
        """Every paper the server has an approved correction of, as it sees them (what its
        searches merge into the shared index's hits). One read, its approved corrections,
        and when it has any a second, the catalog's version; the papers are read again only
        when either changed (a server without corrections, the common case, costs one)."""
        approved = await self._store.proposals(guild_id, status=Status.APPROVED,
                                               limit=CORRECTED_LIMIT)
        if not approved:
            self._corrected.pop(guild_id, None)
            return []
        key = (await self._papers.catalog_version(), tuple(p.id for p in approved))
        cached = self._corrected.get(guild_id)
        if cached is not None and cached[0] == key:
            return cached[1]
        found = [await self._papers.get(paper_id)
                 for paper_id in dict.fromkeys(p.target.paper_id for p in approved)]
        in_order = sorted(approved, key=lambda p: (p.decided_at or p.created_at, p.id))
        shown = [overlaid(paper, in_order) for paper in found if paper is not None]
        self._corrected[guild_id] = (key, shown)
        self._corrected.move_to_end(guild_id)
        while len(self._corrected) > CACHED_GUILDS:
            self._corrected.popitem(last=False)
        return shown

    async def overlay_one(self, guild_id: int | None, paper: Paper) -> Paper:
        """One paper as the server sees it."""
        return (await self.overlay(guild_id, [paper]))[0]

    async def claim_outcome_notice(self, proposal_id: int) -> bool:
        """True once per decided proposal: the caller tells the proposer."""
        return await self._store.claim_outcome_notice(proposal_id)

    async def set_review_message(self, proposal: Proposal, channel_id: int,
                                 message_id: int) -> None:
        """Remember where a proposal's review message is."""
        await self._store.set_review_message(proposal.id, channel_id, message_id)

    async def review_settings(self, guild_id: int) -> ReviewSettings:
        """Where the server reviews proposals."""
        return await self._store.review_settings(guild_id)

    async def set_review_settings(self, guild_id: int, settings: ReviewSettings) -> None:
        """Choose the review channel and the curator role."""
        await self._store.set_review_settings(guild_id, settings)

    async def _source(self, paper_id: str) -> Paper:
        paper = await self._papers.get(paper_id)
        if paper is None:
            raise Refusal("corrections.no_paper", id=paper_id)
        return paper

    async def _overlaid(self, guild_id: int, paper: Paper) -> Paper:
        return await self.overlay_one(guild_id, paper)


def _value_or_blank(paper: Paper, target: Target) -> str:
    """The field's value, or '' when the source no longer has it (a dropped affiliation)."""
    try:
        return current_value(paper, target)
    except Refusal:
        return ""
