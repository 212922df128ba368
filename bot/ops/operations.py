"""The bot's operations side, built by the wiring and driven by the bot: readiness, the
metrics and the listener serving both. With `[ops] enabled = false` nothing listens, and with
`metrics = false` nothing is counted (`metrics` is then None)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from bot.ops.interactions import InteractionTimer
from bot.ops.listener import OpsListener
from bot.ops.metrics import RATE_LIMIT_LOGGERS, BotMetrics, RateLimitCounter
from bot.ops.readiness import Gateway, Probe, Readiness
from bot.settings import Settings
from domain.storage_faults import StorageError

log = logging.getLogger(__name__)
OutboxSummary = Callable[[], Awaitable[tuple[int, datetime | None]]]


@dataclass(frozen=True)
class HostCounts:
    """What the bot counts itself, read at each scrape."""

    background_tasks: int
    features_building: bool
    dms_refused: int


class OpsHost(Gateway, Protocol):
    """What the operations side asks of the bot."""

    @property
    def latencies(self) -> list[tuple[int, float]]:
        """Each shard's heartbeat latency."""
        ...

    def ops_counts(self) -> HostCounts:
        """The bot's own counts."""
        ...


class Operations:
    """Readiness, the metrics and the listener of one bot."""

    def __init__(self, settings: Settings, *, now: Callable[[], float] = time.monotonic
                 ) -> None:
        self.settings = settings.ops
        self.tick_seconds = settings.digest.tick_seconds
        self.now = now
        self.probe: Probe = _no_database
        """The database's test write (set once the database is open)."""
        self.outbox: OutboxSummary = _no_outbox
        """The outbox's depth and oldest unit (set once the database is open)."""
        self.metrics = BotMetrics() if settings.ops.metrics else None
        self.timer = InteractionTimer(self.metrics) if self.metrics is not None else None
        self.readiness: Readiness | None = None
        self.listener: OpsListener | None = None
        self._host: OpsHost | None = None
        self._refused_seen = 0
        self._rate_limits = RateLimitCounter(self.metrics) if self.metrics else None

    def attach(self, host: OpsHost) -> None:
        """The bot this side watches (its constructor calls this)."""
        self._host = host
        self.readiness = Readiness(host, self.probe, tick_seconds=self.tick_seconds,
                                   timeout=self.settings.probe_timeout_seconds, now=self.now)

    async def start(self) -> None:
        """Listen, when `[ops] enabled` (a taken address is logged; the bot runs on)."""
        if self._rate_limits is not None:
            for name in RATE_LIMIT_LOGGERS:
                logging.getLogger(name).addFilter(self._rate_limits)
        if not self.settings.enabled or self.readiness is None or self.listener is not None:
            return
        listener = OpsListener(self.settings, self.readiness.problems,
                               self.scrape if self.metrics is not None else None)
        try:
            await listener.start()
        except OSError as exc:
            log.error("operations listener not started: cannot listen on %s:%s: %s",
                      self.settings.host, self.settings.port, exc)
            await listener.stop()
            return
        self.listener = listener

    async def stop(self) -> None:
        """Stop listening; wait for a readiness probe still running."""
        if self._rate_limits is not None:
            for name in RATE_LIMIT_LOGGERS:
                logging.getLogger(name).removeFilter(self._rate_limits)
        if self.listener is not None:
            await self.listener.stop()
            self.listener = None
        if self.readiness is not None:
            await self.readiness.close()

    def ticked(self) -> None:
        """The scheduler woke the bot."""
        if self.readiness is not None:
            self.readiness.ticked()

    def turn(self, kind: str, results: Iterable[object]) -> None:
        """What one scheduled turn did (`digest`, `votes`, `reminders`; others are ignored)."""
        if self.metrics is None or kind not in ("digest", "votes", "reminders"):
            return
        self.metrics.turns(kind, [_status(result) for result in results])

    def busy_wait(self) -> None:
        """A write is about to wait for the database's write lock."""
        if self.metrics is not None:
            self.metrics.database_busy_waits.inc()

    async def scrape(self) -> bytes:
        """The metrics, with the gauges read now."""
        assert self.metrics is not None
        if self._host is not None:
            self._gauges(self.metrics, self._host)
        try:
            depth, oldest = await asyncio.wait_for(self.outbox(),
                                                   self.settings.probe_timeout_seconds)
        except Exception as exc:  # the scrape still answers; readiness names the database
            log.warning("outbox depth not read for the metrics: %r", exc)
        else:  # the outbox stamps its rows with the wall clock (`storage.times`)
            self.metrics.outbox(depth, oldest, datetime.now(UTC))
        return self.metrics.exposition()

    def _gauges(self, metrics: BotMetrics, host: OpsHost) -> None:
        shards: Mapping[int, bool] = {shard_id: not shard.is_closed()
                                      for shard_id, shard in host.shards.items()}
        metrics.gateway(shards, host.latencies if host.is_ready() else ())
        counts = host.ops_counts()
        metrics.background_tasks.set(counts.background_tasks)
        metrics.recommend_building.set(1 if counts.features_building else 0)
        if counts.dms_refused > self._refused_seen:
            metrics.dms_refused.inc(counts.dms_refused - self._refused_seen)
            self._refused_seen = counts.dms_refused
        if self.readiness is not None:
            metrics.scheduler_tick_age.set(self.now() - self.readiness.last_tick)


async def _no_database() -> None:
    raise StorageError("the database is not open")


async def _no_outbox() -> tuple[int, datetime | None]:
    return 0, None


def _status(result: object) -> str:
    """A turn result's status; a paper of the day posted after its time is "late"."""
    status = str(getattr(result, "status", getattr(result, "outcome", "")))
    return "late" if status == "posted" and getattr(result, "late", False) else status
