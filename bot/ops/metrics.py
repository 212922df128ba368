"""paperclub's Prometheus metrics, in a registry of the bot's own (never the process-wide
default): two bots in one process, or the tests, never share a counter.

Labels hold only what the code names (a command, an outcome, a shard number, a kind of
failure), never a member, a server's name or anything a user typed. docs/operators/
operations.md explains each metric; tests/ops/test_metrics.py checks the two agree."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
"""Seconds: fine below Discord's 3-second deadline for the first response."""
SEARCH_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
DIGEST_OUTCOMES = {"posted": "posted", "late": "late", "skipped": "skipped", "failed": "failed",
                   "error": "failed"}
"""A paper-of-the-day turn's status → its outcome label (nothing done: not counted)."""
REMINDER_OUTCOMES = {"posted": "posted", "skipped": "skipped", "failed": "failed",
                     "error": "failed"}
VOTE_OUTCOMES = {"announced": "posted", "pending": "late", "failed": "failed"}
"""A vote's close → its announcement's outcome ("late": to be finished at the next turn)."""
DATABASE_ERRORS = ("busy", "storage_error")
"""A command's database failures: the write lock held too long, or the database refusing."""


class BotMetrics:
    """Every metric of one bot, and the small methods the bot records them through."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.gateway_connected = Gauge(
            "paperclub_gateway_connected", "1 when the shard is connected to Discord's gateway.",
            ["shard"], registry=r)
        self.gateway_latency = Gauge(
            "paperclub_gateway_latency_seconds",
            "The shard's last heartbeat round trip to Discord's gateway.", ["shard"], registry=r)
        self.interactions = Counter(
            "paperclub_interactions", "Slash commands handled, by command and outcome.",
            ["command", "outcome"], registry=r)
        self.interaction_seconds = Histogram(
            "paperclub_interaction_response_seconds",
            "From a slash command's arrival to its first response (an answer or a deferral).",
            ["command", "outcome"], buckets=LATENCY_BUCKETS, registry=r)
        self.search_seconds = Histogram(
            "paperclub_search_seconds", "One catalog search, from query to ranked results.",
            buckets=SEARCH_BUCKETS, registry=r)
        self.digest_posts = Counter(
            "paperclub_digest_posts", "Papers of the day by outcome (posted, late, skipped, "
            "failed).", ["outcome"], registry=r)
        self.reminders = Counter(
            "paperclub_reminders", "Session reminders by outcome (posted, skipped, failed).",
            ["outcome"], registry=r)
        self.vote_announcements = Counter(
            "paperclub_vote_announcements", "Vote results announced by outcome (posted, late: "
            "left for the next turn, failed).", ["outcome"], registry=r)
        self.outbox_depth = Gauge(
            "paperclub_outbox_depth", "Notifications waiting in the outbox.", registry=r)
        self.outbox_oldest_age = Gauge(
            "paperclub_outbox_oldest_age_seconds",
            "How long the oldest notification in the outbox has waited (0 when empty).",
            registry=r)
        self.dms_refused = Counter(
            "paperclub_dms_refused", "Direct messages Discord refused (the member's DMs are "
            "closed; their DMs are paused).", registry=r)
        self.rate_limit_seconds = Counter(
            "paperclub_discord_rate_limit_wait_seconds",
            "Seconds spent waiting on Discord's rate limits (its 429 answers).", registry=r)
        self.rate_limits = Counter(
            "paperclub_discord_rate_limits", "429 answers from Discord (each waited out).",
            registry=r)
        self.database_errors = Counter(
            "paperclub_database_errors", "Commands that failed on the database, by kind.",
            ["kind"], registry=r)
        self.database_busy_waits = Counter(
            "paperclub_database_busy_waits",
            "Writes that had to wait for the database's write lock.", registry=r)
        self.background_tasks = Gauge(
            "paperclub_background_tasks", "Background work in flight (catch-ups, DM pacing, "
            "feature rebuilds).", registry=r)
        self.recommend_building = Gauge(
            "paperclub_recommend_features_building",
            "1 while the recommendation features are being brought up to date.", registry=r)
        self.scheduler_tick_age = Gauge(
            "paperclub_scheduler_last_tick_age_seconds",
            "Seconds since the scheduler last woke the bot.", registry=r)
        self._known_series()

    def _known_series(self) -> None:
        """Every outcome's series from the start, at 0, so that a rate or an alert sees the
        first increase (a series that appears only when it first counts is missed)."""
        for counter, outcomes in ((self.digest_posts, DIGEST_OUTCOMES),
                                  (self.reminders, REMINDER_OUTCOMES),
                                  (self.vote_announcements, VOTE_OUTCOMES)):
            for outcome in sorted(set(outcomes.values())):
                counter.labels(outcome=outcome)
        for kind in DATABASE_ERRORS:
            self.database_errors.labels(kind=kind)

    def exposition(self) -> bytes:
        """The registry in Prometheus's text format."""
        return generate_latest(self.registry)

    def gateway(self, shards: Mapping[int, bool], latencies: Iterable[tuple[int, float]]) -> None:
        """Each shard's connection (True: connected) and heartbeat latency."""
        for shard_id, connected in shards.items():
            self.gateway_connected.labels(shard=str(shard_id)).set(1 if connected else 0)
        for shard_id, latency in latencies:
            if math.isfinite(latency):  # NaN or inf before the first heartbeat
                self.gateway_latency.labels(shard=str(shard_id)).set(latency)

    def outbox(self, depth: int, oldest: datetime | None, now: datetime) -> None:
        """The outbox's depth and its oldest unit's age."""
        self.outbox_depth.set(depth)
        self.outbox_oldest_age.set(max(0.0, (now - oldest).total_seconds()) if oldest else 0)

    def interaction(self, command: str, outcome: str, seconds: float | None) -> None:
        """One slash command handled; `seconds` to its first response (None: never
        answered)."""
        self.interactions.labels(command=command, outcome=outcome).inc()
        if seconds is not None:
            self.interaction_seconds.labels(command=command, outcome=outcome).observe(seconds)

    def turns(self, kind: str, statuses: Sequence[str]) -> None:
        """The statuses of one scheduled turn's work (`digest`, `reminders`, `votes`)."""
        counter, outcomes = {
            "digest": (self.digest_posts, DIGEST_OUTCOMES),
            "reminders": (self.reminders, REMINDER_OUTCOMES),
            "votes": (self.vote_announcements, VOTE_OUTCOMES)}[kind]
        for status in statuses:
            if (outcome := outcomes.get(status)) is not None:
                counter.labels(outcome=outcome).inc()


RATE_LIMIT_LOGGERS = ("discord.http", "discord.webhook.async_")
"""discord.py's REST client and its webhook adapter (which answers interactions)."""
RATE_LIMIT_MESSAGES = ("We are being rate limited.", "Webhook ID ")


class RateLimitCounter(logging.Filter):
    """Counts discord.py's 429 retries from its own log record (the only place discord.py
    reports the wait): "We are being rate limited. %s %s responded with 429. Retrying in %.2f
    seconds." (a global limit is logged so too) and "Webhook ID %s is rate limited. Retrying
    in %.2f seconds.". Attach to `RATE_LIMIT_LOGGERS`; passes every record."""

    def __init__(self, metrics: BotMetrics) -> None:
        super().__init__()
        self.metrics = metrics

    def filter(self, record: logging.LogRecord) -> bool:
        """Count a rate-limit wait; keep every record."""
        message, args = str(record.msg), record.args
        if (message.startswith(RATE_LIMIT_MESSAGES) and "Retrying in" in message
                and isinstance(args, tuple) and args and isinstance(args[-1], int | float)):
            self.metrics.rate_limits.inc()
            self.metrics.rate_limit_seconds.inc(args[-1])
        return True
