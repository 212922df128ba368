"""Paper of the day: decide what is due, claim it in the ledger, then send it exactly once.

The scheduler only calls `tick()`; correctness rests on the ledger. A date is claimed in a
transaction before anything is sent, leased to this process (host, process id, start time)
for a few minutes and renewed before each Discord call; the message carries a nonce derived
from (server, date); the message id is recorded after. Another process (a rolling restart, a
second shard) never touches a claim whose lease is live. A claim whose lease expired (its
owner crashed) is taken over: the channel's history since the claim is searched for the post
first (by nonce or by the footer naming the date, paging as far back as the claim), and only
if it is not there is it sent, unless the grace window has passed, when the day is recorded as
skipped. So a restart never posts twice and never forgets the day.

The admin commands (`/digest set`, `status`, `preview`, `off`) are `bot.features.digest.service`;
`/digest now` posts through `DigestScheduler.post_now`, under the same claims.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import partial
from typing import TypeVar
from zoneinfo import ZoneInfo

from aiolimiter import AsyncLimiter

from bot.features.digest.delivery import Audience, DigestAudience, DigestPost, DigestPoster
from bot.features.digest.followers import Followers
from bot.features.digest.paper_order import Choice, next_paper
from bot.features.digest.plan import (
    DEFAULT_GRACE,
    LATE_TOLERANCE,
    due_instant,
    local_date_of,
    offline_reason,
    parse_local_time,
    plan,
)
from bot.features.digest.recommended import RecommendedPicker
from bot.features.digest.store import DigestStore
from bot.features.papers.store import PaperStore
from bot.features.reading.store import HistoryStore
from bot.shared.clock import Clock, utc_now
from bot.shared.delivery import DeliveryFailed
from bot.shared.fanout import each_isolated
from bot.shared.leases import Leaser, process_owner
from bot.shared.pacing import discord_pace
from bot.shared.server_view import ServerView, seen
from domain.digest import Claim, DigestConfig, DigestPick, LedgerEntry, LedgerStatus, OutcomeStatus
from domain.leases import Lease
from domain.nonce import nonce_of
from domain.reasons import Reason, ReasonCode, text_reason
from domain.shards import ALL_SHARDS, Shards

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRIES = 3
RETRY_DELAY_SECONDS = 1.0
HISTORY_MARGIN = timedelta(minutes=5)
"""The history search starts this long before the claim (clock skew between us and Discord)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one server's turn did: posted, already, idle, skipped, failed or paused."""

    guild_id: int
    status: OutcomeStatus
    local_date: date | None = None
    message_id: int | None = None
    reason: Reason | None = None
    late: bool = False
    """Posted after its due time (marked late), for the operator's metrics."""


def digest_nonce(guild_id: int, local_date: date) -> str:
    """A nonce unique to (server, date), at most 25 characters as Discord requires."""
    return nonce_of(f"{guild_id}:{local_date.isoformat()}")


def digest_marker(local_date: date) -> str:
    """The end of the post's footer that finds the post of a date in the channel's history
    again: short and in no language (`📅 2026-11-30`), as members read it too."""
    return f"📅 {local_date.isoformat()}"


async def choose_next(digests: DigestStore, papers: PaperStore, history: HistoryStore | None,
                      config: DigestConfig, *, day: date,
                      picker: RecommendedPicker | None = None) -> Choice | None:
    """The paper a server's post of `day` carries (None when none is eligible), unclaimed:
    what the scheduler claims and what `/digest preview` shows. With `pick:recommended` the
    group's recommendation (counted in the current cycle), else, or while the group has no
    signals, the cycle's next paper."""
    eligible = await papers.paper_ids(config.track)
    if config.skip_discussed and history is not None:
        # Once the group has discussed every eligible paper, the day's post goes on with
        # all of them rather than stopping.
        discussed = await history.discussed_ids(config.guild_id)
        eligible = [pid for pid in eligible if pid not in discussed] or eligible
    cycle = await digests.current_cycle(config.guild_id)
    posted = await digests.claimed_in_cycle(config.guild_id, cycle)
    if config.pick is DigestPick.RECOMMENDED and picker is not None:
        chosen = await picker.pick(config.guild_id, eligible,
                                   await digests.claimed_papers(config.guild_id), day)
        if chosen is not None:
            size = len(set(eligible))
            return Choice(chosen.paper_id, cycle, len(set(eligible) & posted) + 1, size,
                          recommended=True, like=chosen.like)
    recent = await digests.recent(config.guild_id, limit=1)
    last = recent[0].paper_id if recent else None
    return next_paper(eligible, posted, config.guild_id, cycle, avoid=last)


async def paced(pace: AsyncLimiter, call: Callable[[], Awaitable[T]]) -> T:
    """One Discord call within our request budget, tried again if still rate limited
    (the nonce keeps a retried post single)."""
    for attempt in range(RETRIES + 1):
        try:
            async with pace:
                return await call()
        except DeliveryFailed as exc:
            if not exc.retryable or attempt == RETRIES:
                raise
            await asyncio.sleep(RETRY_DELAY_SECONDS * (attempt + 1))
    raise AssertionError("unreachable")


def overdue(config: DigestConfig, day: date, now: datetime) -> timedelta:
    """How long after its due instant `now` is, for a date of this server."""
    return now - due_instant(day, parse_local_time(config.local_time), ZoneInfo(config.timezone))


class DigestScheduler:
    """Runs every server's digest; one server's failure never delays or blocks another's."""

    def __init__(self, digests: DigestStore, papers: PaperStore, poster: DigestPoster, *,
                 grace: timedelta = DEFAULT_GRACE, concurrency: int = 50,
                 clock: Clock = utc_now,
                 audience: DigestAudience | None = None,
                 requests_per_second: float = 45.0, leases: Leaser | None = None,
                 shards: Shards = ALL_SHARDS, history: HistoryStore | None = None,
                 picker: RecommendedPicker | None = None,
                 view: ServerView | None = None) -> None:
        """`view` shows each server its corrections of the paper. `leases` names this
        process in its claims and times their leases (default: this
        process, `DEFAULT_LEASE` by `clock`). The scheduled turn
        covers only servers on `shards`; `requests_per_second` is this process's budget.
        `history` tells which papers a server discussed, for servers that skip them;
        `picker` picks for servers set to `pick:recommended` (without it, the cycle does)."""
        self.digests = digests
        self.papers = papers
        self.view = view
        self.history = history
        self.picker = picker
        self.poster = poster
        self.followers = Followers(audience)
        # Pace our own requests below Discord's global 50/s: when hundreds of servers are due
        # in the same minute, retrying after 429s would waste tries (discord.py gives up after
        # five) and count as invalid requests. A small burst keeps burst + rate under 50 in
        # any second.
        self._pace = discord_pace(requests_per_second)
        self.grace = grace
        self.clock = clock
        self.leases = leases or Leaser(process_owner(), clock=clock)
        self._concurrency = concurrency
        self.shards = shards
        self._guild_locks: dict[int, asyncio.Lock] = {}

    async def tick(self) -> list[Outcome]:
        """Give every active server on this process's shards its turn, concurrently (bounded),
        each isolated."""
        configs = [c for c in await self.digests.active_configs() if self.shards.owns(c.guild_id)]
        now = self.clock()

        def failed(config: DigestConfig, exc: Exception) -> Outcome:
            log.exception("digest for guild %s failed", config.guild_id)
            return Outcome(config.guild_id, OutcomeStatus.ERROR, reason=text_reason(str(exc)))

        return await each_isolated(configs, self._concurrency,
                                   lambda config: self.run_guild(config, now), failed)

    def _lock(self, guild_id: int) -> asyncio.Lock:
        return self._guild_locks.setdefault(guild_id, asyncio.Lock())

    async def run_guild(self, config: DigestConfig, now: datetime | None = None) -> Outcome:
        """Finish an interrupted claim, record missed days, and post the due one."""
        now = now or self.clock()
        async with self._lock(config.guild_id):
            for entry in await self.digests.unfinished(config.guild_id):
                await self._resume(config, entry, now)
            await self._finish_posted(config)
            zone = ZoneInfo(config.timezone)
            todo = plan(now, parse_local_time(config.local_time), zone,
                        last_handled=await self.digests.last_handled(config.guild_id),
                        enabled_since=config.enabled_since, grace=self.grace)
            for reason in dict.fromkeys(s.reason for s in todo.skip):
                await self.digests.record_skips(
                    config.guild_id, [s.local_date for s in todo.skip if s.reason == reason],
                    reason)
            if todo.post is None:
                status = OutcomeStatus.SKIPPED if todo.skip else OutcomeStatus.IDLE
                return Outcome(config.guild_id, status, reason=todo.skip[-1].reason
                               if todo.skip else None)
            return await self._claim_and_deliver(config, todo.post, late=todo.late)

    async def post_now(self, config: DigestConfig) -> Outcome:
        """`/digest now`: post today's paper unless today's is already claimed or posted (or
        skipped); a failed post is tried again, in the channel configured now."""
        today = local_date_of(self.clock(), ZoneInfo(config.timezone))
        async with self._lock(config.guild_id):
            existing = await self.digests.entry(config.guild_id, today)
            if existing is not None and existing.status is LedgerStatus.FAILED:
                return await self._retry_failed(config, existing)
            if existing is not None:
                return Outcome(config.guild_id, OutcomeStatus.ALREADY, today, existing.message_id,
                               existing.reason)
            return await self._claim_and_deliver(config, today, late=False)

    async def _retry_failed(self, config: DigestConfig, failed: LedgerEntry) -> Outcome:
        """Claim a failed date again: the same paper while it is in the catalog, else the
        next one."""
        claim: Claim | None = None
        if failed.paper_id and await self.papers.get(failed.paper_id) is not None:
            claim = Claim(failed.paper_id, failed.cycle or 1, failed.position or 1,
                          failed.cycle_size or 1, failed.nonce, config.channel_id, late=False,
                          lease=self._new_lease(), pick=failed.pick, pick_like=failed.pick_like,
                          at=self.clock())
        elif (choice := await self._choose(config, failed.local_date)) is not None:
            claim = self._claim_of(choice, failed.nonce, config.channel_id, late=False)
        if claim is None:
            return Outcome(config.guild_id, OutcomeStatus.FAILED, failed.local_date,
                           reason=Reason(ReasonCode.NO_ELIGIBLE_PAPER))
        entry = await self.digests.reclaim_failed(config.guild_id, failed.local_date, claim)
        if entry is None:
            return Outcome(config.guild_id, OutcomeStatus.ALREADY, failed.local_date)
        return await self._deliver(config, entry, resumed=False, now=self.clock())

    async def _choose(self, config: DigestConfig, day: date) -> Choice | None:
        return await choose_next(self.digests, self.papers, self.history, config, day=day,
                                 picker=self.picker)

    def _claim_of(self, choice: Choice, nonce: str, channel_id: int, *, late: bool) -> Claim:
        """The claim of a chosen paper: how it was picked is recorded before any send, so a
        resume after a crash posts the same paper with the same note."""
        return Claim(choice.paper_id, choice.cycle, choice.position, choice.cycle_size, nonce,
                     channel_id, late=late, lease=self._new_lease(),
                     pick=DigestPick.RECOMMENDED if choice.recommended else DigestPick.CYCLE,
                     pick_like=choice.like, at=self.clock())

    async def _paced(self, call: Callable[[], Awaitable[T]]) -> T:
        return await paced(self._pace, call)

    async def _hold(self, guild_id: int, day: date) -> bool:
        """Take or renew this process's lease on a row; False while another process holds it."""
        return await self.leases.hold(partial(self.digests.hold, guild_id, day))

    async def _resume(self, config: DigestConfig, entry: LedgerEntry, now: datetime) -> Outcome:
        """Finish a claim left unfinished, unless another process's lease on it is live."""
        if not await self._hold(config.guild_id, entry.local_date):
            log.info("guild %s's paper of %s is being posted by another process",
                     config.guild_id, entry.local_date)
            return Outcome(config.guild_id, OutcomeStatus.ALREADY, entry.local_date)
        return await self._deliver(config, entry, resumed=True, now=now)

    async def _finish_posted(self, config: DigestConfig) -> None:
        """A crash between recording the post and queueing its followers: open the missing
        thread, then queue the DMs and follow-up mentions (under the row's lease; the store
        queues a post's followers once, whoever tries)."""
        latest = await self.digests.recent(config.guild_id, limit=1)
        if not latest or latest[0].status is not LedgerStatus.POSTED or not latest[0].message_id:
            return
        entry, message_id = latest[0], latest[0].message_id
        thread_pending = config.thread and entry.thread_id is None and entry.reason is None
        followers_pending = not entry.followers_queued and self.followers.audience is not None
        if not (thread_pending or followers_pending) \
                or not await self._hold(config.guild_id, entry.local_date):
            return
        paper = await seen(self.view, config.guild_id, await self.papers.get(entry.paper_id or ""))
        if thread_pending:
            await self._open_thread(config, entry, message_id, paper.title_en if paper else None)
            entry = await self.digests.entry(config.guild_id, entry.local_date) or entry
            if entry.thread_id is None and entry.reason is None:
                return  # another process took the row over: it opens the thread and queues
        if followers_pending and paper is not None:
            await self.followers.queue(config, entry, paper, message_id, entry.thread_id)

    async def _open_thread(self, config: DigestConfig, entry: LedgerEntry, message_id: int,
                           name: str | None) -> int | None:
        channel_id = entry.channel_id or config.channel_id
        if not await self._hold(config.guild_id, entry.local_date):
            return None  # another process took the row over and opens the thread
        try:
            thread_id = await self._paced(lambda: self.poster.open_thread(
                config.guild_id, channel_id, message_id, name))
            await self.digests.mark_thread(config.guild_id, entry.local_date, thread_id)
            return thread_id
        except DeliveryFailed as exc:
            await self.digests.mark_thread(config.guild_id, entry.local_date, None,
                                           reason=Reason(ReasonCode.NO_THREAD,
                                                         cause=exc.reason))
            return None

    def _new_lease(self) -> Lease:
        return self.leases.fresh()

    async def _claim_and_deliver(self, config: DigestConfig, local_date: date, *,
                                 late: bool) -> Outcome:
        choice = await self._choose(config, local_date)
        if choice is None:
            none_left = Reason(ReasonCode.NO_ELIGIBLE_PAPER)
            await self.digests.record_skips(config.guild_id, [local_date], none_left)
            return Outcome(config.guild_id, OutcomeStatus.SKIPPED, local_date, reason=none_left)
        entry = await self.digests.claim(config.guild_id, local_date, self._claim_of(
            choice, digest_nonce(config.guild_id, local_date), config.channel_id, late=late))
        if entry is None:
            return Outcome(config.guild_id, OutcomeStatus.ALREADY, local_date)
        return await self._deliver(config, entry, resumed=False, now=self.clock())

    async def _deliver(self, config: DigestConfig, entry: LedgerEntry, *,
                       resumed: bool, now: datetime) -> Outcome:
        guild_id, day = config.guild_id, entry.local_date
        channel_id = entry.channel_id or config.channel_id
        paper = await seen(self.view, guild_id, await self.papers.get(entry.paper_id or ""))
        if paper is None:
            gone = Reason(ReasonCode.PAPER_LEFT_CATALOG)
            return await self._failed(guild_id, day, gone)
        marker = digest_marker(day)
        audience = await self.followers.who(config, paper)
        late_by = overdue(config, day, now)
        late = entry.late or (resumed and late_by > LATE_TOLERANCE)  # finished after a crash
        like = (await self.papers.get(entry.pick_like)
                if entry.pick is DigestPick.RECOMMENDED and entry.pick_like else None)
        post = DigestPost(guild_id, channel_id, day, paper, entry.position or 1,
                          entry.cycle_size or 1, late, marker, audience or Audience(),
                          recommended=entry.pick is DigestPick.RECOMMENDED, like=like)
        since = (entry.claimed_at or now) - HISTORY_MARGIN
        try:
            message_id = None
            if resumed:
                message_id = await self._paced(lambda: self.poster.find(
                    channel_id, marker, entry.nonce, since))
                if message_id is None and late_by > self.grace:
                    return await self._too_late(guild_id, day)
            if message_id is None:
                if not await self._hold(guild_id, day):
                    return Outcome(guild_id, OutcomeStatus.ALREADY, day)
                message_id = await self._paced(lambda: self.poster.send(post, entry.nonce))
        except DeliveryFailed as exc:
            log.warning("paper of the day for guild %s on %s failed: %s", guild_id, day,
                        exc.reason)
            return await self._failed(guild_id, day, exc.reason)
        await self.digests.mark_posted(guild_id, day, message_id)
        thread_id = None
        if config.thread:
            thread_id = await self._open_thread(config, entry, message_id, paper.title_en)
        else:  # recorded, so that turning threads on later never opens one on an old post
            await self.digests.mark_thread(guild_id, day, None,
                                           reason=Reason(ReasonCode.THREADS_OFF))
        if audience is not None:  # else the next turn works it out again (`_finish_posted`)
            await self.followers.queue(config, entry, paper, message_id, thread_id, audience)
        return Outcome(guild_id, OutcomeStatus.POSTED, day, message_id, late=late)

    async def _too_late(self, guild_id: int, day: date) -> Outcome:
        """A claim never sent, found past the grace window: skipped, like any missed day."""
        reason = offline_reason(self.grace)
        await self.digests.mark_skipped(guild_id, day, reason)
        return Outcome(guild_id, OutcomeStatus.SKIPPED, day, reason=reason)

    async def _failed(self, guild_id: int, day: date, reason: Reason) -> Outcome:
        paused = await self.digests.mark_failed(guild_id, day, reason)
        return Outcome(guild_id, OutcomeStatus.PAUSED if paused else OutcomeStatus.FAILED, day,
                       reason=reason)
