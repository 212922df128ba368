"""The paper of the day's admin commands: its settings, `/digest status`, `preview`, `now`
and `off`, each with the pause notice the admins have not heard yet.

Posting, claims and recovery are `bot.features.digest.scheduler`: `/digest now` posts through
the scheduler's `post_now`, under the same claims and per-server lock as the scheduled turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, time
from functools import partial
from typing import TypeVar
from zoneinfo import ZoneInfo

from bot.features.digest.paper_order import Choice
from bot.features.digest.plan import local_date_of, next_due, parse_local_time
from bot.features.digest.recommended import RecommendedPicker
from bot.features.digest.scheduler import DigestScheduler, Outcome, choose_next
from bot.features.digest.store import DigestStore
from bot.features.papers.store import PaperStore
from bot.features.reading.store import HistoryStore
from bot.shared.clock import Clock, utc_now
from bot.shared.leases import Leaser, process_owner
from bot.shared.messages import Refusal
from bot.shared.noticed import Noticed
from bot.shared.server_view import seen
from domain.digest import DigestConfig, DigestPick, DigestState, LedgerEntry
from domain.paper import Paper
from domain.reasons import Reason

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Configured:
    """Saved settings and when the first post under them is due."""

    config: DigestConfig
    next_post_at: datetime
    falls_back: bool = False
    """`pick:recommended` while the group has no signals: the cycle picks meanwhile."""


@dataclass(frozen=True, slots=True)
class DigestStatus:
    """What `/digest status` shows: settings, the next post (None unless on), recent rows."""

    config: DigestConfig
    next_post_at: datetime | None
    recent: tuple[LedgerEntry, ...]
    falls_back: bool = False
    """`pick:recommended` while the group has no signals: the cycle picks meanwhile."""


@dataclass(frozen=True, slots=True)
class PostedToday:
    """What `/digest now` did: the outcome, or None when the digest is off."""

    config: DigestConfig
    outcome: Outcome | None


class DigestService:
    """A server's digest settings and the `/digest` commands; `scheduler` posts."""

    def __init__(self, digests: DigestStore, papers: PaperStore, scheduler: DigestScheduler,
                 *, clock: Clock = utc_now, history: HistoryStore | None = None,
                 leases: Leaser | None = None) -> None:
        """`history` tells which papers a server discussed, for servers that skip them (as
        the scheduler is told, so that the preview is the paper it will post); the
        scheduler's picker picks for `pick:recommended`, for the preview too. `leases` lease
        the pause note to the answer carrying it (default: this process, five minutes)."""
        self.leases = leases or Leaser(process_owner(), clock=clock)
        self.digests = digests
        self.papers = papers
        self.scheduler = scheduler
        self.clock = clock
        self.history = history

    @property
    def picker(self) -> RecommendedPicker | None:
        """What picks for `pick:recommended` (the scheduler's)."""
        return self.scheduler.picker if self.scheduler is not None else None

    async def preview(self, config: DigestConfig) -> tuple[Paper, Choice] | None:
        """The paper the next post will carry, without claiming it."""
        day = local_date_of(await self._next_post_at(config), ZoneInfo(config.timezone))
        choice = await choose_next(self.digests, self.papers, self.history, config, day=day,
                                   picker=self.picker)
        if choice is None:
            return None
        view = self.scheduler.view if self.scheduler is not None else None
        paper = await seen(view, config.guild_id, await self.papers.get(choice.paper_id))
        return (paper, choice) if paper else None

    async def config(self, guild_id: int) -> DigestConfig | None:
        """A server's settings, or None."""
        return await self.digests.config(guild_id)

    async def configure(self, guild_id: int, channel_id: int, at: time, zone: ZoneInfo, *,
                        thread: bool, mention_subscribers: bool,
                        track: str | None, skip_discussed: bool = False,
                        pick: DigestPick = DigestPick.CYCLE) -> Configured:
        """Save a server's settings (enabled from now) and say when the next post is due."""
        config = DigestConfig(
            guild_id=guild_id, channel_id=channel_id, local_time=at.strftime("%H:%M"),
            timezone=zone.key, thread=thread, mention_subscribers=mention_subscribers,
            track=track, skip_discussed=skip_discussed, pick=pick, enabled_since=self.clock())
        await self.digests.save_config(config)
        return Configured(config, await self._next_post_at(config), await self.falls_back(config))

    async def disable(self, guild_id: int) -> bool:
        """Turn a server's digest off (settings and history kept); False if it had none."""
        return await self.digests.disable(guild_id)

    async def pending_notice(self, guild_id: int) -> Reason | None:
        """Why the digest paused, when the admins have not been told yet and no other answer
        is telling them: leased to this answer until `notices_given` (or the lease's end)."""
        return await self.leases.hold(partial(self.digests.claim_failure_notice, guild_id))

    def _noticed(self, guild_id: int, result: T, notices: tuple[Reason, ...]
                 ) -> Noticed[T, Reason]:
        """`result` with the claimed pause note, marked given by `told` once sent."""
        if not notices:
            return Noticed(result)
        return Noticed(result, notices, told=partial(
            self.digests.failure_notice_given, guild_id, self.leases.owner))

    # -- `/digest` commands: the result with the pause the admins have not heard about ------

    async def _notices(self, guild_id: int) -> tuple[Reason, ...]:
        """The pending pause notice, claimed (first, as the admins read it first); marked given
        once the answer carrying it was sent (`Noticed.told`)."""
        notice = await self.pending_notice(guild_id)
        return () if notice is None else (notice,)

    async def _configured(self, guild_id: int) -> DigestConfig:
        config = await self.config(guild_id)
        if config is None:
            raise Refusal("digest.none_yet_first")
        return config

    async def switch_off(self, guild_id: int) -> Noticed[bool, Reason]:
        """`/digest off`: `disable`, with the pending pause notice."""
        notices = await self._notices(guild_id)
        return self._noticed(guild_id, await self.disable(guild_id), notices)

    async def overview(self, guild_id: int) -> Noticed[DigestStatus | None, Reason]:
        """`/digest status`: `status`, with the pending pause notice."""
        notices = await self._notices(guild_id)
        return self._noticed(guild_id, await self.status(guild_id), notices)

    async def preview_next(self, guild_id: int
                           ) -> Noticed[tuple[Paper, Choice, Paper | None] | None, Reason]:
        """`/digest preview`: the next paper (None when none is eligible) with, for a
        recommended pick, the group's liked paper it is like, and the pending pause notice;
        a `Refusal` when the server has no digest yet."""
        config = await self._configured(guild_id)
        notices = await self._notices(guild_id)
        found = await self.preview(config)
        if found is None:
            return self._noticed(guild_id, None, notices)
        paper, choice = found
        like = await self.papers.get(choice.like) if choice.like else None
        return self._noticed(guild_id, (paper, choice, like), notices)

    async def post_today(self, guild_id: int, *,
                         posting: Callable[[], Awaitable[None]] | None = None
                         ) -> Noticed[PostedToday, Reason]:
        """`/digest now`: the scheduler's `post_now` unless the digest is off, with the
        pending pause notice; a `Refusal` when the server has no digest yet. `posting` is
        awaited just before the post is attempted (the cog defers its answer: posting can
        outlast Discord's 3 s)."""
        config = await self._configured(guild_id)
        notices = await self._notices(guild_id)
        if config.state is DigestState.OFF:
            return self._noticed(guild_id, PostedToday(config, None), notices)
        if posting is not None:
            await posting()
        return self._noticed(guild_id, PostedToday(config, await self.scheduler.post_now(config)),
                            notices)

    async def status(self, guild_id: int, recent: int = 7) -> DigestStatus | None:
        """Settings, the next post (when on) and the latest ledger rows; None if never set."""
        config = await self.digests.config(guild_id)
        if config is None:
            return None
        next_at = (await self._next_post_at(config)
                   if config.state is DigestState.ON else None)
        return DigestStatus(config, next_at,
                            tuple(await self.digests.recent(guild_id, limit=recent)),
                            falls_back=await self.falls_back(config))

    async def falls_back(self, config: DigestConfig) -> bool:
        """`pick:recommended` without signals to go on: the cycle picks until there are."""
        if config.pick is not DigestPick.RECOMMENDED:
            return False
        return self.picker is None or not await self.picker.has_signals(config.guild_id)

    async def _next_post_at(self, config: DigestConfig) -> datetime:
        return next_due(self.clock(), parse_local_time(config.local_time),
                        ZoneInfo(config.timezone),
                        await self.digests.last_handled(config.guild_id))
