"""The services the Discord side uses, as one typed bundle handed to the bot and its cogs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.features.adding.arxiv_port import ArxivSource
from bot.features.adding.service import AddingService
from bot.features.calendar.service import CalendarService
from bot.features.catalog.service import CatalogService
from bot.features.corrections.service import CorrectionService
from bot.features.corrections.source_watch import SourceWatch
from bot.features.digest.scheduler import DigestScheduler
from bot.features.digest.service import DigestService
from bot.features.export.service import ExportService
from bot.features.feeds.service import FeedService
from bot.features.group.service import GroupService
from bot.features.papers.search import SearchService
from bot.features.prep.service import PrepService
from bot.features.queue.service import QueueService
from bot.features.reading.bookmarks import BookmarkService
from bot.features.reading.history import HistoryService
from bot.features.recommend.service import RecommendService
from bot.features.sessions.reminders import ReminderService
from bot.features.sessions.service import SessionService
from bot.features.subscriptions.forget import ForgetService
from bot.features.subscriptions.service import SubscriptionService
from bot.features.summaries.service import SummaryService
from bot.features.votes.service import VoteService
from bot.features.web.service import WebPageService
from bot.shared.sync_record import SyncRecord


@dataclass(frozen=True, slots=True)
class Services:
    """Every use case the cogs and the bot's lifecycle call (built by `bot.wiring`)."""

    search: SearchService
    catalog: CatalogService
    digest: DigestService
    """The paper of the day's settings and admin commands."""
    digest_scheduler: DigestScheduler
    """The paper of the day's scheduled turn: claims, posting, recovery."""
    subscriptions: SubscriptionService
    sync_record: SyncRecord
    queue: QueueService
    votes: VoteService
    bookmarks: BookmarkService
    forget: ForgetService
    group: GroupService
    sessions: SessionService
    reminders: ReminderService
    history: HistoryService
    export: ExportService
    arxiv: ArxivSource
    """arXiv's API, paced for the whole process (one client, closed with the bot)."""
    adding: AddingService
    """Papers added by arXiv id or link, and who may add them per server."""
    calendar: CalendarService
    """Each server's calendar feed and its link."""
    feeds: FeedService
    recommend: RecommendService
    """Recommendations, papers like one, 👍 / 👎."""
    corrections: CorrectionService
    """Members' corrections, their review, and the overlay each server sees."""
    correction_sources: SourceWatch
    """Source changes under approved corrections, put before the curators once."""
    correction_reviews: Callable[[], Awaitable[int]]
    """Shows the decisions review messages do not show yet (the click's answer was lost):
    `bot.features.corrections.poster`'s tick."""
    web: WebPageService
    """Each server's read-only web page and its link."""
    summaries: SummaryService | None = None
    """AI summaries' figures for the owner (None while `[llm]` is off)."""
    prep: PrepService | None = None
    """Sessions' prep sheets, made and posted in the background (None while `[llm]` is
    off)."""
