"""`/vote`: a vote on the top of the queue, closed and announced exactly once.

The close follows the digest's ledger rule: the winner is claimed in a transaction (status
`claimed`, with a nonce) before anything is sent; the message carries the nonce and, in its
footer, a marker naming the vote; the message id is recorded after. A claim left unfinished
(a crash, or an unanswered send) is finished on the next tick, which first searches the
channel's history since the claim for the announcement (nonce or marker, however busy the
channel got), so a restart never announces twice. The claim is leased to the process that
made it; the lease is renewed before each Discord call (the history search, the send), and a
process whose renewal fails leaves the claim to its new owner.

A poll vote counts only once its poll's message is known: `start` posts the message and
records its id under the server's vote lock, so no close comes between the two; after a crash
between them, the close finds the poll again by the vote's marker (see `_polled`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from enum import StrEnum
from functools import partial

from bot.features.digest.scheduler import HISTORY_MARGIN
from bot.features.papers.lookup import PaperLookup
from bot.features.queue.service import QueueService
from bot.features.votes.delivery import Tallied, VoteAnnouncement, VotePoster
from bot.features.votes.store import VoteStore
from bot.features.votes.tally import TALLY_INTERVAL, LiveTally, Spawner
from bot.shared.clock import Clock
from bot.shared.delivery import DeliveryFailed
from bot.shared.leases import Leaser, process_owner
from bot.shared.messages import Refusal
from domain.nonce import nonce_of
from domain.paper import Paper
from domain.polls import PollPlan, Unfit, VoteStyle
from domain.reasons import Reason
from domain.shards import ALL_SHARDS, Shards
from domain.votes import (
    MIN_OPTIONS,
    BallotOutcome,
    Vote,
    VoteOption,
    VoteStatus,
    tally,
    winner,
)

log = logging.getLogger(__name__)

GIVE_UP_CODES = frozenset({10003, 50001, 50013})
"""Unknown channel, missing access, missing permissions: retrying will not help."""

POST_GRACE = timedelta(minutes=15)
"""How long after a vote opens its message may still go out: Discord takes an interaction's
answers for 15 minutes. A poll vote with no message known waits that long before it counts."""

MessagePoster = Callable[[Vote, dict[str, Paper]], Awaitable[int]]
"""Posts a new vote's message (its buttons or its poll, with the vote's marker); its id."""

PollPlanner = Callable[[Sequence[tuple[str, Paper | None]]], PollPlan | Unfit]
"""The options' paper ids and papers, in order -> their native poll, or why there cannot be
one."""


class CloseStatus(StrEnum):
    """What one close attempt did."""

    ANNOUNCED = "announced"
    ALREADY = "already"
    PENDING = "pending"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Closed:
    """The outcome of closing one vote."""

    vote_id: int
    guild_id: int
    status: CloseStatus
    message_id: int | None = None
    reason: Reason | None = None


@dataclass(frozen=True, slots=True)
class VoteReport:
    """`/vote status`: the vote, votes per option so far, and the papers."""

    vote: Vote
    results: tuple[Tallied, ...]


def vote_nonce(vote_id: int) -> str:
    """A nonce unique to the vote's announcement (at most 25 characters)."""
    return nonce_of(f"vote:{vote_id}")


def vote_marker(vote_id: int) -> str:
    """The announcement's footer, `🗳️ #7`: finds it again after a restart; short and in no
    language, as members read it too."""
    return f"🗳️ #{vote_id}"


class VoteService:
    """Votes per server; one live vote at a time; every server's close isolated."""

    def __init__(self, votes: VoteStore, queue: QueueService, lookup: PaperLookup,
                 poster: VotePoster, clock: Clock, shards: Shards = ALL_SHARDS,
                 leases: Leaser | None = None, spawner: Spawner | None = None,
                 tally_interval: float = TALLY_INTERVAL) -> None:
        """The scheduled turn closes only votes of servers on `shards`; `leases` names this
        process in its claims (default: this process, timed by `clock`); with a `spawner`, a
        button ballot shows its counts live, edited at most every `tally_interval` seconds."""
        self._votes = votes
        self._queue = queue
        self._lookup = lookup
        self._poster = poster
        self._clock = clock
        self._shards = shards
        self._leases = leases or Leaser(process_owner(), clock=clock)
        self._locks: dict[int, asyncio.Lock] = {}
        self.tally = (LiveTally(self.show_tally, spawner, interval=tally_interval)
                      if spawner is not None else None)

    def _lock(self, guild_id: int) -> asyncio.Lock:
        return self._locks.setdefault(guild_id, asyncio.Lock())

    async def start(self, guild_id: int, channel_id: int, user_id: int, *, top: int,
                    hours: int, poll: PollPlanner | None = None,
                    post: MessagePoster | None = None) -> tuple[Vote, dict[str, Paper]]:
        """Open a vote on the queue's top `top` papers for `hours`; a `Refusal` otherwise.
        With `poll`, a native poll when the planner finds the options fit one (buttons else).
        With `post`, the vote's message is posted and its id recorded under the server's vote
        lock: a close waits for both."""
        items = (await self._queue.items(guild_id))[:top]
        if len(items) < MIN_OPTIONS:
            raise Refusal("vote.queue_too_short", n=len(items))
        options = [VoteOption(n, i.paper_id, i.support, i.suggested_at)
                   for n, i in enumerate(items, start=1)]
        papers = await self._lookup.many([o.paper_id for o in options], guild_id)
        style = VoteStyle.BUTTONS
        if poll is not None and isinstance(
                poll([(o.paper_id, papers.get(o.paper_id)) for o in options]), PollPlan):
            style = VoteStyle.POLL
        async with self._lock(guild_id):
            now = self._clock()
            vote = await self._votes.open(guild_id, channel_id, user_id, now,
                                          now + timedelta(hours=hours), options, style=style)
            if vote is None:
                raise Refusal("vote.already_open")
            if post is not None:
                vote = await self._attached(vote, await post(vote, papers))
        return vote, papers

    async def _attached(self, vote: Vote, message_id: int) -> Vote:
        """`vote` with its message's id, recorded."""
        await self._votes.set_message(vote.id, message_id)
        return replace(vote, message_id=message_id)

    async def ballot(self, vote_id: int, position: int,
                     user_id: int) -> tuple[BallotOutcome, Paper | None]:
        """A button click: vote, or change one's vote, while the vote is open."""
        vote = await self._votes.get(vote_id)
        option = vote.option(position) if vote is not None else None
        if vote is None or option is None:
            return BallotOutcome.UNKNOWN, None
        paper = await self._lookup.by_id(option.paper_id, vote.guild_id)
        if vote.status is VoteStatus.OPEN and vote.ends_at <= self._clock():
            return BallotOutcome.CLOSED, paper
        outcome = await self._votes.cast(vote_id, user_id, option.paper_id, self._clock())
        if self.tally is not None and outcome in (BallotOutcome.CAST, BallotOutcome.CHANGED):
            self.tally.changed(vote_id)
        return outcome, paper

    async def show_tally(self, vote_id: int) -> None:
        """Edit a button ballot to show its counts now (greyed out once it is closed)."""
        vote = await self._votes.get(vote_id)
        if vote is None or vote.style is not VoteStyle.BUTTONS or vote.message_id is None:
            return
        counts = tally(vote.options, await self._votes.ballots(vote.id))
        await self._poster.show_tally(
            vote, {o.position: counts[o.paper_id] for o in vote.options},
            closed=vote.status is not VoteStatus.OPEN)

    async def report(self, guild_id: int) -> VoteReport | None:
        """The live vote (or the last one) with its counts."""
        vote = await self._votes.live(guild_id) or await self._votes.latest(guild_id)
        if vote is None:
            return None
        try:
            return VoteReport(vote, await self._results(vote))
        except DeliveryFailed:  # the poll cannot be read just now: no counts to show
            return VoteReport(vote, await self._tallied(vote, {}))

    async def close(self, guild_id: int) -> Closed:
        """`/vote close`: close the live vote now; a `Refusal` when none is open."""
        vote = await self._votes.live(guild_id)
        if vote is None:
            raise Refusal("vote.none_open")
        return await self._close(vote, early=True)

    async def tick(self) -> list[Closed]:
        """Finish interrupted announcements, then close every vote past its deadline."""
        done: list[Closed] = []
        for vote in await self._votes.unfinished():
            if self._shards.owns(vote.guild_id):
                done.append(await self._isolated(vote, resume=True))
        for vote in await self._votes.due(self._clock()):
            if self._shards.owns(vote.guild_id):
                done.append(await self._isolated(vote, resume=False))
        return done

    async def _isolated(self, vote: Vote, *, resume: bool) -> Closed:
        try:
            if resume:
                async with self._lock(vote.guild_id):
                    current = await self._votes.get(vote.id)
                    if current is None or current.status is not VoteStatus.CLAIMED or \
                            not await self._hold(current):
                        return Closed(vote.id, vote.guild_id, CloseStatus.ALREADY)
                    return await self._announce(current, resumed=True)
            return await self._close(vote, early=False)
        except Exception:
            log.exception("closing vote %s of guild %s failed", vote.id, vote.guild_id)
            return Closed(vote.id, vote.guild_id, CloseStatus.PENDING)

    async def _hold(self, vote: Vote) -> bool:
        """Take or renew this process's lease on a claimed close before a Discord call (a slow
        answer must not let another process take the claim over while this one still sends);
        False once the claim is not ours any more: the new owner finishes it."""
        return await self._leases.hold(partial(self._votes.hold, vote.id))

    @staticmethod
    def _taken_over(vote: Vote) -> Closed:
        log.info("vote %s of guild %s was taken over by another process", vote.id,
                 vote.guild_id)
        return Closed(vote.id, vote.guild_id, CloseStatus.ALREADY)

    async def _counts(self, vote: Vote, *, final: bool) -> dict[str, int] | None:
        """Votes per paper: the ballots, or the poll's counts as Discord reports them; `final`
        ends a poll still running and is None while Discord has not finalised its counts or
        while the poll's message may still go out (see `_polled`)."""
        if vote.style is VoteStyle.BUTTONS:
            return tally(vote.options, await self._votes.ballots(vote.id))
        polled = await self._polled(vote)
        if polled is None:
            if final and self._clock() < vote.opened_at + POST_GRACE:
                return None  # its post may still go out
            if final:
                log.warning("vote %s of guild %s: no poll found; it closes with no votes",
                            vote.id, vote.guild_id)
            return dict.fromkeys((o.paper_id for o in vote.options), 0)
        result = await self._poster.poll_counts(polled)
        if final and not result.finalized:
            await self._poster.end_poll(polled)
            result = await self._poster.poll_counts(polled)
            if not result.finalized:
                return None
        return {o.paper_id: result.counts.get(o.position, 0) for o in vote.options}

    async def _polled(self, vote: Vote) -> Vote | None:
        """The poll vote with its poll's message id: as recorded, else found by the vote's marker
        among the messages of `POST_GRACE` after it opened (a crash came between the post and
        the record) and recorded now; None while no such message is out.

        A poll never found once `POST_GRACE` is over was never posted (the post failed) or was
        deleted unrecorded: like a deleted poll, it counts no votes, and the close announces
        what the ledger knows (no votes: the queue's order decides), so the server's one live
        vote is not stuck open."""
        if vote.message_id is not None:
            return vote
        since = vote.opened_at - HISTORY_MARGIN
        found = await self._poster.find_poll(vote, vote_marker(vote.id), since,
                                                vote.opened_at + POST_GRACE + HISTORY_MARGIN)
        return None if found is None else await self._attached(vote, found)

    async def _results(self, vote: Vote) -> tuple[Tallied, ...]:
        return await self._tallied(vote, await self._counts(vote, final=False) or {})

    async def _tallied(self, vote: Vote, counts: dict[str, int]) -> tuple[Tallied, ...]:
        papers = await self._lookup.many([o.paper_id for o in vote.options], vote.guild_id)
        return tuple(Tallied(o.position, o.paper_id, papers.get(o.paper_id),
                             counts.get(o.paper_id, 0)) for o in vote.options)

    async def _close(self, vote: Vote, *, early: bool) -> Closed:
        async with self._lock(vote.guild_id):
            vote = await self._votes.get(vote.id) or vote  # as a start under the lock left it
            if vote.status is not VoteStatus.OPEN:
                return Closed(vote.id, vote.guild_id, CloseStatus.ALREADY)
            try:
                counts = await self._counts(vote, final=True)
            except DeliveryFailed as exc:
                log.warning("vote %s of guild %s: the poll's result is not readable (%s); will "
                            "look again", vote.id, vote.guild_id, exc.reason)
                return Closed(vote.id, vote.guild_id, CloseStatus.PENDING, reason=exc.reason)
            if counts is None:  # Discord is still counting the poll, or it is not out yet
                return Closed(vote.id, vote.guild_id, CloseStatus.PENDING)
            best = winner(vote.options, counts)
            claimed = await self._votes.claim(vote.id, best.paper_id, vote_nonce(vote.id),
                                              self._clock(), early=early,
                                              lease=self._leases.fresh())
            current = await self._votes.get(vote.id)
            if not claimed or current is None:
                return Closed(vote.id, vote.guild_id, CloseStatus.ALREADY)
            return await self._announce(current, resumed=False)

    async def _announce(self, vote: Vote, *, resumed: bool) -> Closed:
        marker = vote_marker(vote.id)
        try:
            results = await self._results(vote)  # a poll's: read from Discord again
            best = next(r for r in results if r.paper_id == vote.winner)
            tie = sum(1 for r in results if r.votes == best.votes) > 1
            announcement = VoteAnnouncement(vote, best, results, tie, marker)
            nonce = vote.nonce or vote_nonce(vote.id)
            message_id = None
            if resumed:
                if not await self._hold(vote):
                    return self._taken_over(vote)
                since = (vote.claimed_at or vote.opened_at) - HISTORY_MARGIN
                message_id = await self._poster.find(vote.channel_id, marker, nonce, since)
            if message_id is None:
                if not await self._hold(vote):
                    return self._taken_over(vote)
                message_id = await self._poster.announce(announcement, nonce)
        except DeliveryFailed as exc:
            if exc.code in GIVE_UP_CODES:
                log.warning("vote %s of guild %s cannot be announced: %s", vote.id,
                            vote.guild_id, exc.reason)
                await self._votes.mark_failed(vote.id, exc.reason, self._clock())
                return Closed(vote.id, vote.guild_id, CloseStatus.FAILED, reason=exc.reason)
            log.warning("vote %s of guild %s: announcement not confirmed (%s); will look "
                        "again", vote.id, vote.guild_id, exc.reason)
            return Closed(vote.id, vote.guild_id, CloseStatus.PENDING, reason=exc.reason)
        await self._votes.mark_announced(vote.id, message_id, self._clock())
        if self.tally is not None:
            self.tally.forget(vote.id)
        try:
            if vote.style is VoteStyle.BUTTONS:
                await self._poster.show_tally(vote, {r.position: r.votes for r in results},
                                                 closed=True)
        except DeliveryFailed as exc:
            log.info("could not grey out vote %s's buttons: %s", vote.id, exc.reason)
        return Closed(vote.id, vote.guild_id, CloseStatus.ANNOUNCED, message_id)
