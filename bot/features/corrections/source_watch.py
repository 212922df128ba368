"""Source changes under an approved correction: after any catalog load or add (a reload, the
command line's import, an arXiv update, a BibTeX import, a feed), a correction whose field the
source now spells differently from when it was approved is put before the server's curators
once, in the review channel, with the old and new source values; they keep the correction or
drop it, and it stays shown until they decide.

Exactly once: the notice is queued in the same transaction that marks the approval as told
(a second reload, or a second process, queues nothing); it is claimed with a lease before it is
sent, carries a nonce derived from its key, is looked for in the channel before a resend after
a crash, and is marked posted after Discord accepts it."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from bot.features.corrections.rules import current_value
from bot.features.corrections.store import SourceNoticeStore
from bot.shared.clock import Clock, utc_now
from bot.shared.delivery import DeliveryFailed
from bot.shared.leases import Leaser
from bot.shared.messages import Refusal
from domain.corrections import NoticeDecision, Proposal, SourceNotice, Target
from domain.paper import Paper

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(minutes=30)
"""How long a notice Discord refused (a deleted channel, lost access) waits before another try:
meanwhile `/group corrections` may name a channel that works."""
TICK_LIMIT = 25
"""Notices posted per turn at most (the rest wait for the next turn)."""


class Catalog(Protocol):
    """The source records (`PaperStore`)."""

    async def get(self, public_id: str) -> Paper | None:
        """A paper as the catalog holds it, or None."""
        ...

    async def catalog_version(self) -> int:
        """Changes with every load and add."""
        ...


@dataclass(frozen=True, slots=True)
class NoticePost:
    """What the Discord side renders: the notice and the correction it is about."""

    notice: SourceNotice
    correction: Proposal
    paper: Paper | None

    @property
    def key(self) -> str:
        """Stable per approval's notice: its nonce and the marker in the message's footer."""
        return f"corrsrc:{self.notice.correction_id}:{self.notice.token}"


@dataclass(frozen=True, slots=True)
class DecidedPost:
    """A decided notice whose message is still to show the decision."""

    post: NoticePost
    decision: NoticeDecision


class NoticePoster(Protocol):
    """Posts a source-change notice with Keep / Drop buttons (`poster`)."""

    async def post(self, channel_id: int, post: NoticePost) -> int:
        """Post, pinging nobody; the message id. Raises `DeliveryFailed`."""
        ...

    async def find(self, channel_id: int, post: NoticePost) -> int | None:
        """The notice posted before a crash, if it is in the channel. `DeliveryFailed`."""
        ...


class SourceWatch:
    """Finds source changes under approved corrections, posts each notice once, and applies
    the curators' decision."""

    def __init__(self, notices: SourceNoticeStore, corrections_of: CorrectionsOf,
                 catalog: Catalog, leases: Leaser, clock: Clock = utc_now) -> None:
        self._notices = notices
        self._corrections = corrections_of
        self._catalog = catalog
        self._leases = leases
        self._clock = clock
        self._checked: int | None = None
        self.poster: NoticePoster | None = None
        """Set once the Discord client exists (`bot.wiring`); without it nothing is posted."""

    async def check(self) -> int:
        """Queue a notice for each approved correction whose source changed (once each);
        how many were queued. Skipped while the catalog has not changed since the last look."""
        version = await self._catalog.catalog_version()
        if version == self._checked:
            return 0
        queued = 0
        papers: dict[str, Paper | None] = {}
        for correction in await self._notices.watched():
            paper_id = correction.target.paper_id
            if paper_id not in papers:
                papers[paper_id] = await self._catalog.get(paper_id)
            paper = papers[paper_id]
            if paper is None:
                continue  # the paper left the catalog: nothing to compare with
            now = source_value(paper, correction.target)
            if now != correction.source_value and await self._notices.queue(
                    correction.id, now, secrets.token_hex(6), self._clock()):
                queued += 1
        self._checked = version
        if queued:
            log.info("%d corrected fields changed in their source: curators are told", queued)
        return queued

    async def tick(self) -> int:
        """Look for changes, then post what is due (each claimed before it is sent); how many
        were posted."""
        await self.check()
        if self.poster is None:
            return 0
        posted = 0
        for _ in range(TICK_LIMIT):
            lease = self._leases.fresh()
            notice = await self._notices.claim(lease, self._clock())
            if notice is None:
                break
            if await self._send(self.poster, notice, lease.owner):
                posted += 1
        return posted

    async def _send(self, poster: NoticePoster, notice: SourceNotice, owner: str) -> bool:
        assert notice.channel_id is not None
        correction = await self._corrections.proposal(notice.guild_id, notice.correction_id)
        if correction is None:
            return False
        post = NoticePost(notice, correction, await self._catalog.get(correction.target.paper_id))
        try:
            found = await poster.find(notice.channel_id, post) if notice.attempts > 1 else None
            message_id = found if found is not None else await poster.post(
                notice.channel_id, post)
        except DeliveryFailed as exc:
            log.warning("correction #%s: the source-change notice was refused: %s",
                        notice.correction_id, exc.reason.encode())
            await self._notices.retry_later(notice.correction_id, owner,
                                            self._clock() + RETRY_AFTER)
            return False
        return await self._notices.posted(notice.correction_id, owner, notice.channel_id,
                                          message_id)

    async def notice(self, proposal_id: int) -> SourceNotice | None:
        """The correction's open notice (the correction stays shown while there is one)."""
        return await self._notices.notice(proposal_id)

    async def decide(self, guild_id: int, proposal_id: int, *, keep: bool,
                     by: int) -> Proposal | None:
        """Keep the correction over the new source value or drop it, once: None when it was
        decided already (another curator, another process) or withdrawn meanwhile. The
        notice's message is due to show the decision (leased to this process, which shows it
        through the click's answer; else `due_decision` finds it)."""
        return await self._notices.decide(guild_id, proposal_id, keep=keep, by=by,
                                          at=self._clock(), lease=self._leases.fresh())

    async def due_decision(self) -> DecidedPost | None:
        """A decision whose notice's message does not show it (the click's answer was lost,
        or its process died), leased to this process; None when none is."""
        while (decision := await self._leases.hold(self._notices.claim_decision)) is not None:
            notice = decision.notice
            correction = await self._corrections.proposal(notice.guild_id, notice.correction_id)
            if correction is not None:
                paper = await self._catalog.get(correction.target.paper_id)
                return DecidedPost(NoticePost(notice, correction, paper), decision)
            await self.decision_shown(notice)  # the correction is gone: nothing to show
        return None

    async def decision_shown(self, notice: SourceNotice) -> None:
        """The notice's message shows its decision: nothing left to resume."""
        await self._notices.decision_shown(notice.correction_id, notice.token)


class CorrectionsOf(Protocol):
    """One server's correction by id (`CorrectionStore.proposal`)."""

    async def proposal(self, guild_id: int, proposal_id: int) -> Proposal | None:
        """The correction, or None."""
        ...


def source_value(paper: Paper, target: Target) -> str:
    """The source's value of a corrected field ('' when the source dropped it)."""
    try:
        return current_value(paper, target)
    except Refusal:
        return ""
