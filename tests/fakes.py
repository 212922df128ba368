"""`FakeChannels`, the Discord side the posters' fakes write to, whose next calls a test
scripts (`Refuse`, `LoseAnswer`, `Stall`), and the real catalog store a test fills
(`catalog_store`). Every store is real, over in-memory SQLite (the `memory_db` fixture); the
contract suite and the end-to-end tests keep the real stores and posters honest. Each
feature's own poster fakes sit beside its tests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from bot.features.notifications.store import AnnouncementStore
from bot.features.papers.store import PaperStore
from bot.shared.delivery import DeliveryFailed
from bot.shared.leases import Leaser
from domain.catalog import LoadSource
from domain.paper import Paper, Track, Venue
from domain.reasons import Reason, ReasonCode
from storage.backend import PAPERS
from storage.sqlite.database import Database
from tests.clocks import FakeClock


def catalog_paper(title: str, track: str | None = None) -> Paper:
    """A catalog record with just a title (and a venue track when given)."""
    venue = Venue(track=Track(track)) if track else Venue()
    return Paper(title_en=title, title_zh="", authors=("Ada Lindqvist",), venue=venue)


TEST_SOURCE = "test"
"""The source a test's catalog is added and reloaded from."""


async def catalog_store(db: Database, papers: Iterable[Paper] = ()) -> PaperStore:
    """The real catalog store on `db` (the `memory_db` fixture's in-memory SQLite) holding
    `papers`, added in this order."""
    store = PAPERS.open(db)
    await store.add_papers(list(papers), source=TEST_SOURCE)
    return store


async def drop_paper(store: PaperStore, paper_id: str) -> None:
    """Take a paper out of the catalog, as a reload of a listing without it would."""
    kept = [paper async for paper in store.iter_papers() if paper.id != paper_id]
    await store.load(enumerate(kept, start=1), source=LoadSource(TEST_SOURCE), prune=True)


# -- Discord, as the posters see it ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refuse:
    """The next call of an operation is refused: nothing is sent, `failure` is raised."""

    failure: DeliveryFailed


@dataclass(frozen=True, slots=True)
class LoseAnswer:
    """The next call is carried out but its answer is lost: sent, then `failure` raised."""

    failure: DeliveryFailed


@dataclass(frozen=True, slots=True)
class Stall:
    """The next call waits until `go` is set (a slow Discord), then goes through."""

    go: asyncio.Event
    started: asyncio.Event = field(default_factory=asyncio.Event)


Fault = Refuse | LoseAnswer | Stall


def refused(code: ReasonCode, discord_code: int | None = None, *,
            retryable: bool = False) -> DeliveryFailed:
    """A failure as the Discord side raises it."""
    return DeliveryFailed(Reason(code), discord_code, retryable=retryable)


CHANNEL_GONE = 10003


@dataclass(frozen=True, slots=True)
class Post:
    """One message our bot sent: where, with which nonce and footer marker, and what."""

    message_id: int
    channel_id: int
    nonce: str
    marker: str
    at: datetime
    body: object


class FakeChannels:
    """The channels a poster writes to: messages kept in order, found again by nonce or
    marker since an instant; `faults` scripts the next calls of an operation; a channel in
    `gone` answers every call like a deleted one (10003)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.posts: list[Post] = []
        self.faults: dict[str, list[Fault]] = {}
        self.gone: set[int] = set()
        self.calls: list[str] = []
        self._next_id = 5000

    def script(self, operation: str, *faults: Fault) -> None:
        """The next calls of `operation` meet these faults, one each, in order."""
        self.faults.setdefault(operation, []).extend(faults)

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def call(self, operation: str, channel_id: int) -> Fault | None:
        """Record the call, wait out a stall, raise a refusal; the fault still to apply."""
        self.calls.append(operation)
        if channel_id in self.gone:
            raise refused(ReasonCode.CHANNEL_MISSING, CHANNEL_GONE)
        queued = self.faults.get(operation)
        fault = queued.pop(0) if queued else None
        if isinstance(fault, Stall):
            fault.started.set()
            await fault.go.wait()
            return None
        if isinstance(fault, Refuse):
            raise fault.failure
        return fault

    async def send(self, operation: str, channel_id: int, nonce: str, marker: str,
                   body: object) -> int:
        """Post a message (subject to the script); its id."""
        fault = await self.call(operation, channel_id)
        post = Post(self.new_id(), channel_id, nonce, marker, self.clock(), body)
        self.posts.append(post)
        if isinstance(fault, LoseAnswer):
            raise fault.failure
        return post.message_id

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our message in the channel after `since` carrying `nonce` or `marker`."""
        await self.call("find", channel_id)
        return next((p.message_id for p in self.posts if p.channel_id == channel_id
                     and p.at > since and (p.nonce == nonce or p.marker == marker)), None)

    def in_channel(self, channel_id: int) -> list[Post]:
        """What the channel shows, oldest first."""
        return [p for p in self.posts if p.channel_id == channel_id]


class AnnouncedRecorder:
    """A `NewPaperAnnouncer` over the real unannounced papers: each batch it announced (the
    papers, in order) is remembered instead of queued."""

    def __init__(self, store: AnnouncementStore, papers: PaperStore) -> None:
        self.store = store
        self.papers = papers
        self.leases = Leaser("recorder")
        self.announced: list[list[Paper]] = []

    @property
    def told(self) -> list[str]:
        """The titles of every paper announced, in order."""
        return [paper.title_en for batch in self.announced for paper in batch]

    async def announce_pending(self) -> int:
        ids = await self.leases.hold(lambda lease, now: self.store.claim(lease, now, 1000))
        if not ids:
            return 0
        self.announced.append(await self.papers.get_many(ids))
        await self.store.announced(self.leases.owner, ids, [])
        return 0

    async def release(self) -> int:
        return await self.store.release(self.leases.owner)
