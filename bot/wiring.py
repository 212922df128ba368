"""The one place that builds paperclub: settings -> database -> stores -> services -> the
Discord-side posters -> the bot. Seams (the clock, the scheduler, DM pacing) are parameters
with production defaults, so tests build the same graph with their own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, timedelta
from functools import partial
from typing import Any

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.bundle import Services
from bot.client.background import BackgroundTasks
from bot.client.bot import PaperclubBot
from bot.client.write_wait import WriteWaitDeferral
from bot.features.adding.arxiv_client import ArxivClient
from bot.features.adding.arxiv_port import ArxivSource
from bot.features.adding.service import AddingService
from bot.features.catalog.service import CatalogService
from bot.features.corrections.poster import DiscordNoticePoster, ReviewRefresher
from bot.features.corrections.service import CorrectionService
from bot.features.corrections.source_watch import SourceWatch
from bot.features.digest.poster import DiscordDigestPoster
from bot.features.digest.recommended import RecommendedPicker
from bot.features.digest.scheduler import DigestScheduler
from bot.features.digest.service import DigestService
from bot.features.digest.store import DigestStore
from bot.features.export.service import ExportService
from bot.features.feeds.poster import DiscordFeedPoster
from bot.features.feeds.service import FeedService
from bot.features.group.service import GroupService
from bot.features.meaning.models import search_by_meaning
from bot.features.notifications.announcements import NewPaperAnnouncements
from bot.features.notifications.notifier import Notifier
from bot.features.notifications.outbox import OutboxService
from bot.features.notifications.sender import OutboxSender
from bot.features.papers.lookup import PaperLookup
from bot.features.papers.search import SearchService
from bot.features.papers.store import PaperStore
from bot.features.queue.service import QueueService
from bot.features.queue.store import QueueStore
from bot.features.reading.bookmarks import BookmarkService
from bot.features.reading.history import HistoryService
from bot.features.recommend.service import RecommendService
from bot.features.sessions.poster import DiscordSessionPoster
from bot.features.sessions.reminders import ReminderService
from bot.features.sessions.service import SessionService
from bot.features.subscriptions.forget import ForgetService
from bot.features.subscriptions.service import SubscriptionService
from bot.features.subscriptions.similar import SimilarService
from bot.features.subscriptions.store import SubscriptionStore
from bot.features.votes.poster import DiscordVotePoster
from bot.features.votes.service import VoteService
from bot.features.votes.store import VoteStore
from bot.features.web.service import WebPageService
from bot.graphs.calendar import calendar_service
from bot.graphs.catalog import open_configured
from bot.graphs.prep import prep_sheets_for
from bot.graphs.summaries import Summaries, summaries_for
from bot.ops.operations import Operations, OutboxSummary
from bot.ops.readiness import Probe
from bot.ops.search_timing import TimedSearchService
from bot.settings import Settings
from bot.shared.clock import Clock, utc_now
from bot.shared.heap import settle_after
from bot.shared.leases import Leaser, process_owner
from bot.shared.sync_record import SyncRecord
from domain.group import ErasedKind
from domain.shards import Shards
from storage import backend as stores
from storage.backend import AnyDatabase
from storage.ops import outbox_summary

READINESS_KEY = "ops.readiness_probe"
"""The `bot_state` row `/readyz` writes to check the database takes writes."""


def forget_service(db: AnyDatabase) -> ForgetService:
    """`/forget-me` over every store that keeps a member's id (tests/storage/test_forget.py
    checks it against every column of the schema that can hold one)."""
    return ForgetService(stores.SUBSCRIPTIONS.open(db), [
        (ErasedKind.BOOKMARKS, stores.BOOKMARKS.open(db)),
        (ErasedKind.SUGGESTIONS, stores.QUEUE.open(db)),
        (ErasedKind.BALLOTS, stores.VOTES.open(db)),
        (ErasedKind.PRESENTATIONS, stores.HISTORY.open(db)),
        (ErasedKind.PRESENTATIONS, stores.SESSIONS.open(db)),  # sessions still to present
        (ErasedKind.PRESENTATIONS, stores.GROUPS.open(db)),  # the presenter rotation's places
        (ErasedKind.FEEDS, stores.FEEDS.open(db)),
        (ErasedKind.RATINGS, stores.RECOMMENDATIONS.open(db)),
        (ErasedKind.CORRECTIONS, stores.CORRECTIONS.open(db)),
        (ErasedKind.SUBSCRIPTIONS, stores.SIMILAR.open(db))])  # papers like their bookmarks


async def build_bot(settings: Settings, *, clock: Clock = utc_now,
                    scheduler: AsyncIOScheduler | None = None,
                    dm_interval: float | None = None, force_sync: bool = False,
                    claim_owner: str | None = None, lease_clock: Clock | None = None,
                    arxiv: ArxivSource | None = None, verify: bool = False,
                    **options: Any) -> PaperclubBot:
    """Open the database (loading the catalog if it is empty) and build the bot on it.

    `clock` drives the paper of the day; `scheduler` wakes it (default: a UTC asyncio
    scheduler); `dm_interval` paces DMs (default: from `subscriptions.dm_per_second`);
    `claim_owner` names this process in the digest's claims (default: host, process id and
    start time) and `lease_clock` times their leases (default: `clock`); `arxiv` is the one
    arXiv client of the process (default: from `[arxiv]`; a test passes one on a fake clock);
    `verify` checks a SQLite file's integrity first (`paperclub run` and `local`);
    `options` go to discord.py's client. The bot's close() closes arXiv's client and the
    database. The database is SQLite or PostgreSQL as configured: nothing below knows which."""
    db, ops, write_wait = await _open_database(settings, clock, verify=verify)
    arxiv_source: ArxivSource = arxiv or ArxivClient.from_settings(settings.arxiv)
    try:
        papers: PaperStore = stores.PAPERS.open(db)
        catalog = CatalogService(papers, settings.catalog_path())
        await catalog.load_if_empty()  # before the announcer is set: nothing is announced
        leases = Leaser(claim_owner or process_owner(),
                        timedelta(seconds=settings.digest.claim_lease_seconds),
                        lease_clock or clock)
        corrections, sources = _corrections(db, papers, leases, clock)
        summaries = summaries_for(db, settings, corrections, clock=clock)  # [llm], or nothing
        if summaries.service is not None:  # a correction of a generated summary starts from it
            corrections.generated = summaries.service.attached
        search = _search(db, papers, settings, summaries, ops)
        subscription_store: SubscriptionStore = stores.SUBSCRIPTIONS.open(db)
        recommend = RecommendService(papers, stores.RECOMMENDATIONS.open(db), clock,
                                     view=summaries.view,
                                     features=stores.RECOMMEND_FEATURES.open(db),
                                     meaning=search.meaning)
        subscriptions = SubscriptionService(subscription_store, papers, search, SimilarService(
            stores.SIMILAR.open(db), recommend, subscription_store))  # papers like my bookmarks
        digests: DigestStore = stores.DIGESTS.open(db)
        sync_record, lookup = SyncRecord(stores.STATE.open(db)), PaperLookup(search)
        vote_store: VoteStore = stores.VOTES.open(db)
        queue_store: QueueStore = stores.QUEUE.open(db)
        queue = QueueService(queue_store, lookup, clock)
        bookmark_store, history_store = stores.BOOKMARKS.open(db), stores.HISTORY.open(db)
        groups, sessions = stores.GROUPS.open(db), stores.SESSIONS.open(db)
        forget, bookmarks = forget_service(db), BookmarkService(bookmark_store, lookup, clock)
        history = HistoryService(history_store, lookup)
        export = ExportService(history, queue, bookmarks)
        group = GroupService(groups, digests)
        background = BackgroundTasks()
        # Discord's limits belong to the token: this process takes its share of them.
        shards, share = settings.discord.shards(), settings.discord.process_share()
        requests_per_second = settings.digest.requests_per_second * share
        pacing = dm_interval if dm_interval is not None else (
            1 / (settings.subscriptions.dm_per_second * share))

        outbox = OutboxService(
            stores.OUTBOX.open(db), subscription_store, papers,
            lease_seconds=settings.subscriptions.outbox_lease_seconds, shards=shards,
            view=summaries.view)

        def services(client: discord.Client) -> tuple[Services, OutboxSender]:
            """The Discord side needs the client: the bot calls this with itself, once."""
            sender = OutboxSender(client, outbox, interval=pacing)
            notifier = Notifier(subscriptions, outbox, sender)
            # after a load or add: `after_change` runs, and subscribers hear of new papers
            catalog.announcer, catalog.on_change, sources.poster = (
                NewPaperAnnouncements(stores.ANNOUNCEMENTS.open(db), papers, subscriptions,
                                      leases, wake=sender.wake),
                _after_change(search, recommend, sources, background, summaries),
                DiscordNoticePoster(client))
            digest_scheduler = DigestScheduler(
                digests, papers, DiscordDigestPoster(client),
                grace=timedelta(hours=settings.digest.grace_hours),
                concurrency=settings.digest.concurrency, clock=clock, audience=notifier,
                requests_per_second=requests_per_second, leases=leases, shards=shards,
                history=history_store, picker=RecommendedPicker(recommend, papers),
                view=summaries.view)
            session_poster = DiscordSessionPoster(client)
            summaries.start()
            return Services(search=search,
                            catalog=catalog,
                            digest=DigestService(digests, papers, digest_scheduler, clock=clock,
                                                 history=history_store, leases=leases),
                            digest_scheduler=digest_scheduler,
                            subscriptions=subscriptions, sync_record=sync_record,
                            queue=queue,
                            votes=VoteService(vote_store, queue, lookup,
                                              DiscordVotePoster(client), clock,
                                              shards=shards, leases=leases,
                                              spawner=background),
                            bookmarks=bookmarks, forget=forget, group=group,
                            sessions=SessionService(sessions, papers, history_store, group,
                                                    session_poster, clock, lookup, queue,
                                                    view=summaries.view),
                            reminders=ReminderService(
                                sessions, groups, papers, session_poster, clock=clock,
                                concurrency=settings.digest.concurrency,
                                requests_per_second=requests_per_second, shards=shards,
                                leases=leases, view=summaries.view),
                            history=history, export=export, arxiv=arxiv_source,
                            adding=AddingService(catalog, arxiv_source,
                                                 stores.ADD_POLICIES.open(db)),
                            calendar=calendar_service(db, settings, clock=clock),
                            feeds=FeedService(
                                stores.FEEDS.open(db), catalog, papers, arxiv_source,
                                DiscordFeedPoster(client), **_feed_options(
                                    settings, clock=clock, leases=leases, shards=shards,
                                    requests_per_second=requests_per_second)),
                            recommend=recommend,
                            corrections=corrections, correction_sources=sources,
                            correction_reviews=ReviewRefresher(client, corrections, search,
                                                               sources).tick,
                            web=WebPageService(
                                links=stores.WEB_LINKS.open(db), queue=queue, history=history,
                                sessions=sessions, digests=digests, search=search, group=group,
                                base_url=settings.web.public_base()),
                            summaries=summaries.service,
                            prep=prep_sheets_for(summaries, db, settings, client, clock=clock,
                                                 leases=leases, shards=shards)), sender

        return PaperclubBot(settings=settings, services=services, background=background,
                            scheduler=scheduler or AsyncIOScheduler(timezone=UTC),
                            release=_release(summaries, arxiv_source, search, db),
                            force_sync=force_sync, write_wait=write_wait, ops=ops,
                            **options)
    except BaseException:
        await arxiv_source.close()
        await db.close()
        raise


def _release(summaries: Summaries, arxiv: ArxivSource, search: SearchService,
             db: AnyDatabase) -> Callable[[], Awaitable[None]]:
    """What the bot's close() releases last: the summariser, arXiv's client, the search
    service, then the database."""

    async def release() -> None:
        try:
            await summaries.close()
            await arxiv.close()
        finally:
            try:
                await search.close()
            finally:
                await db.close()

    return release


def _corrections(db: AnyDatabase, papers: PaperStore, leases: Leaser,
                 clock: Clock) -> tuple[CorrectionService, SourceWatch]:
    """Corrections, and the watch on their sources (its poster is set with the client)."""
    return (CorrectionService(stores.CORRECTIONS.open(db), papers, clock, leases),
            SourceWatch(stores.CORRECTION_NOTICES.open(db), stores.CORRECTIONS.open(db), papers,
                        leases, clock))


def _after_change(search: SearchService, recommend: RecommendService, sources: SourceWatch,
                  background: BackgroundTasks,
                  summaries: Summaries) -> Callable[[], Awaitable[None]]:
    """What runs after every load and add (feed polls add too): the typo vocabulary is
    rebuilt, the recommendation features catch up, source changes under corrections are put
    before the curators (in the background), and the summariser looks for new papers."""

    async def after_change() -> None:
        summaries.poke()
        await search.prepare()
        await recommend.prepare()
        background.spawn(sources.tick(), "corrections: source changes")
        background.spawn(settle_after(search.built, recommend.features.built),
                         "freeze the rebuilt vocabulary and features")

    return after_change


async def _open_database(settings: Settings, clock: Clock, *, verify: bool) -> tuple[
        AnyDatabase, Operations, WriteWaitDeferral]:
    """The database, and the operations side watching it (its writes' waits counted)."""
    ops, write_wait = Operations(settings), WriteWaitDeferral()
    db = await open_configured(settings.database, verify=verify,
                               before_wait=_counted(ops, write_wait))
    ops.probe, ops.outbox = _ops_database(db, clock)
    return db, ops, write_wait


def _search(db: AnyDatabase, papers: PaperStore, settings: Settings, summaries: Summaries,
            ops: Operations) -> SearchService:
    """The catalog search (its hits with their AI summaries, papers close in meaning when
    `[search] by_meaning`), timed when the metrics are on."""
    search = TimedSearchService(papers, fuzzy_threshold=settings.search.fuzzy_threshold,
                                view=summaries.view, attach=summaries.attach)
    if settings.search.by_meaning:
        search_by_meaning(search, papers, stores.EMBEDDINGS.open(db),
                          settings.search.meaning_model)
    search.histogram = ops.metrics.search_seconds if ops.metrics is not None else None
    return search


def _counted(ops: Operations, write_wait: WriteWaitDeferral) -> Callable[[], Awaitable[None]]:
    """The database's hook before a write wait: counted, then the command is deferred (the
    tree arms the deferral per command)."""

    async def before_wait() -> None:
        ops.busy_wait()
        await write_wait()

    return before_wait


def _ops_database(db: AnyDatabase, clock: Clock) -> tuple[Probe, OutboxSummary]:
    """Readiness's test write (a row of `bot_state`) and the outbox's summary."""
    state = stores.STATE.open(db)

    async def probe() -> None:
        await state.set(READINESS_KEY, clock().isoformat())

    return probe, partial(outbox_summary, db)


def _feed_options(settings: Settings, *, clock: Clock, leases: Leaser, shards: Shards,
                  requests_per_second: float) -> dict[str, Any]:
    """The feed service's schedule and claims, from the settings."""
    return {"poll_every": timedelta(minutes=settings.arxiv.poll_minutes), "clock": clock,
            "leases": leases, "shards": shards, "concurrency": settings.digest.concurrency,
            "requests_per_second": requests_per_second}
