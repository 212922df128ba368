"""The services the Discord side uses, as one typed bundle handed to the bot and its cogs."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.adding import AddingService
from bot.services.arxiv_port import ArxivSource
from bot.services.bookmarks import BookmarkService
from bot.services.catalog import CatalogService
from bot.services.digest import DigestService
from bot.services.export import ExportService
from bot.services.feeds import FeedService
from bot.services.forget import ForgetService
from bot.services.group import GroupService
from bot.services.history import HistoryService
from bot.services.queue import QueueService
from bot.services.reminders import ReminderService
from bot.services.search import SearchService
from bot.services.sessions import SessionService
from bot.services.subscriptions import SubscriptionService
from bot.services.sync_record import SyncRecord
from bot.services.votes import VoteService


@dataclass(frozen=True, slots=True)
class Services:
    """Every use case the cogs and the bot's lifecycle call (built by `bot.wiring`)."""

    search: SearchService
    catalog: CatalogService
    digest: DigestService
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
    feeds: FeedService
