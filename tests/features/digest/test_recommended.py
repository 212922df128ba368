"""`pick:recommended` on in-memory fakes with the real recommend service: the group's best
unseen paper is posted (the one `/recommend for:group` names first), never one posted or
signalled before; the cycle picks while the group has no signals; the recency prior; and a
claim left by a crash is finished with the paper it recorded, whatever the signals say now."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.features.digest.paper_order import next_paper
from bot.features.digest.recommended import (
    HALF_LIFE_DAYS,
    RECENCY_WEIGHT,
    RecommendedPicker,
    best,
    freshness,
    published_on,
)
from bot.features.digest.scheduler import DigestScheduler, digest_nonce
from bot.features.digest.service import DigestService
from bot.features.papers.store import PaperStore
from bot.features.recommend.model import Pick
from bot.features.recommend.service import Audience, RecommendService
from bot.shared.leases import Leaser
from domain.digest import Claim, DigestPick, LedgerStatus, OutcomeStatus
from domain.leases import Lease
from domain.paper import Links, Paper
from domain.recommend import Verdict
from storage.backend import DIGESTS
from storage.sqlite.database import Database
from tests.clocks import FakeClock
from tests.fakes import FakeChannels, catalog_store
from tests.features.digest.fakes import FakeAudience, FakeDigestPoster
from tests.features.recommend.test_service import MemorySignals

GUILD, CHANNEL, MEMBER = 300, 30, 9
CONFIGURED = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
DAY = date(2026, 12, 2)
DUE = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


class Group:
    """A server set to `pick:recommended` over the bundled catalog."""

    def __init__(self, papers: PaperStore, db: Database) -> None:
        self.clock = FakeClock(CONFIGURED)
        self.papers = papers
        self.signals = MemorySignals()
        self.recommend = RecommendService(self.papers, self.signals, self.clock)
        self.db = db
        self.digests = DIGESTS.open(db)
        self.channels = FakeChannels(self.clock)
        self.poster = FakeDigestPoster(self.channels)
        self.scheduler = self.process("here")
        self.admin = DigestService(self.digests, self.papers, self.scheduler, clock=self.clock)

    def process(self, owner: str) -> DigestScheduler:
        return DigestScheduler(self.digests, self.papers, self.poster, clock=self.clock,
                               audience=FakeAudience(self.db),
                               leases=Leaser(owner, clock=self.clock),
                               picker=RecommendedPicker(self.recommend, self.papers))

    async def configure(self, pick: DigestPick = DigestPick.RECOMMENDED) -> bool:
        configured = await self.admin.configure(GUILD, CHANNEL, time(9, 0), ZoneInfo("UTC"),
                                                thread=False, mention_subscribers=False,
                                                track=None, pick=pick)
        return configured.falls_back

    async def like(self, *papers: Paper) -> None:
        for paper in papers:
            await self.signals.rate(GUILD, MEMBER, paper.id, Verdict.UP, CONFIGURED)

    async def post_day(self, day: date) -> str:
        self.clock.now = datetime.combine(day, time(9, 0), tzinfo=UTC)
        [outcome] = await self.scheduler.tick()
        assert outcome.status is OutcomeStatus.POSTED, outcome
        entry = await self.digests.entry(GUILD, day)
        assert entry is not None and entry.paper_id is not None
        return entry.paper_id


def _liked(papers: list[Paper]) -> list[Paper]:
    """Two papers on how networks learn (grokking, the Hessian's spectrum)."""
    return [p for p in papers if "grok" in p.title_en.casefold()
            or "hessian" in p.title_en.casefold()]


async def test_the_group_s_first_recommendation_is_posted_then_the_next(
        bundled_papers: list[Paper], memory_db: Database) -> None:
    group = Group(await catalog_store(memory_db, bundled_papers), memory_db)
    liked = _liked(bundled_papers)[:2]
    assert len(liked) == 2
    await group.like(*liked)
    assert not await group.configure()
    expected = await group.recommend.recommend(GUILD, 0, Audience.GROUP, 2)
    first = await group.post_day(DAY)
    assert first == expected[0].paper.id
    entry = await group.digests.entry(GUILD, DAY)
    assert entry is not None and entry.pick is DigestPick.RECOMMENDED
    assert entry.pick_like in {p.id for p in liked}
    [post] = group.poster.posts(CHANNEL)
    assert post.recommended and post.like is not None and post.like.id == entry.pick_like
    # The next day: never the same paper again, never a liked one; the group's second pick.
    second = await group.post_day(DAY + timedelta(days=1))
    assert second == expected[1].paper.id
    assert second not in {first, *(p.id for p in liked)}
    status = await group.admin.status(GUILD)
    assert status is not None and not status.falls_back
    assert [e.pick for e in status.recent] == [DigestPick.RECOMMENDED] * 2


async def test_without_signals_the_cycle_picks_and_status_says_so(
        bundled_papers: list[Paper], memory_db: Database) -> None:
    group = Group(await catalog_store(memory_db, bundled_papers), memory_db)
    assert await group.configure()
    status = await group.admin.status(GUILD)
    assert status is not None and status.falls_back
    cycle = next_paper([p.id for p in bundled_papers], set(), GUILD, 1)
    assert cycle is not None
    assert await group.post_day(DAY) == cycle.paper_id
    entry = await group.digests.entry(GUILD, DAY)
    assert entry is not None and (entry.pick, entry.pick_like) == (DigestPick.CYCLE, None)
    # Once someone likes a paper, the recommendation takes over.
    await group.like(_liked(bundled_papers)[0])
    status = await group.admin.status(GUILD)
    assert status is not None and not status.falls_back
    second = await group.post_day(DAY + timedelta(days=1))
    entry = await group.digests.entry(GUILD, DAY + timedelta(days=1))
    assert entry is not None and entry.pick is DigestPick.RECOMMENDED
    assert second != cycle.paper_id


async def test_a_cycle_server_ignores_the_group_s_signals(bundled_papers: list[Paper],
                                                         memory_db: Database) -> None:
    group = Group(await catalog_store(memory_db, bundled_papers), memory_db)
    await group.like(*_liked(bundled_papers)[:2])
    assert not await group.configure(DigestPick.CYCLE)
    cycle = next_paper([p.id for p in bundled_papers], set(), GUILD, 1)
    assert cycle is not None and await group.post_day(DAY) == cycle.paper_id


async def test_a_crashed_claim_is_finished_with_the_paper_it_recorded(
        bundled_papers: list[Paper], memory_db: Database) -> None:
    """The pick is in the ledger before the send: a new 👍 after the crash changes the
    group's recommendation, not the paper the resumed claim posts (once)."""
    group = Group(await catalog_store(memory_db, bundled_papers), memory_db)
    await group.like(*_liked(bundled_papers)[:2])
    await group.configure()
    choice = (await group.recommend.recommend(GUILD, 0, Audience.GROUP, 1))[0]
    group.clock.now = DUE
    await group.digests.claim(GUILD, DAY, Claim(
        choice.paper.id, 1, 1, len(bundled_papers), digest_nonce(GUILD, DAY), CHANNEL, False,
        Lease("crashed", DUE), pick=DigestPick.RECOMMENDED, pick_like=choice.pick.like, at=DUE))
    await group.like(choice.paper)  # now liked: no longer what the group would be recommended
    after = await group.recommend.recommend(GUILD, 0, Audience.GROUP, 1)
    assert after[0].paper.id != choice.paper.id
    group.clock.now = DUE + timedelta(minutes=1)
    outcomes = [o.status for o in await group.process("restarted").tick()]
    assert outcomes == [OutcomeStatus.IDLE]  # the resumed claim was today's only post
    entry = await group.digests.entry(GUILD, DAY)
    assert entry is not None and entry.status is LedgerStatus.POSTED
    assert [p.paper.id for p in group.poster.posts(CHANNEL)] == [choice.paper.id]
    [post] = group.poster.posts(CHANNEL)
    assert post.recommended and post.like is not None and post.like.id == choice.pick.like


def test_freshness_halves_every_half_life_and_undated_papers_gain_nothing() -> None:
    assert freshness(DAY, DAY) == 1.0
    assert abs(freshness(DAY - timedelta(days=int(HALF_LIFE_DAYS)), DAY) - 0.5) < 1e-9
    assert freshness(DAY + timedelta(days=3), DAY) == 1.0  # a date after the day counts as new
    assert freshness(None, DAY) == 0.0
    arxiv = Paper("A", "", (), links=Links(published=datetime(2026, 5, 4, tzinfo=UTC)))
    assert published_on(arxiv) == date(2026, 5, 4)
    assert published_on(Paper("B", "", ())) is None


def test_the_recency_prior_breaks_near_ties_but_not_clear_leads() -> None:
    fresh, old = DAY - timedelta(days=1), DAY - timedelta(days=3 * 365)
    near = [(Pick("aaa", 2.0, None, None, ()), old), (Pick("bbb", 1.9, None, None, ()), fresh)]
    chosen = best(near, DAY)
    assert chosen is not None and chosen.paper_id == "bbb"
    lead = [(Pick("aaa", 2.0 + RECENCY_WEIGHT, None, None, ()), old),
            (Pick("bbb", 1.9, None, None, ()), fresh)]
    chosen = best(lead, DAY)
    assert chosen is not None and chosen.paper_id == "aaa"
    tie = [(Pick("bbb", 1.0, None, None, ()), None), (Pick("aaa", 1.0, None, None, ()), None)]
    chosen = best(tie, DAY)
    assert chosen is not None and chosen.paper_id == "aaa"
    assert best([], DAY) is None
    assert best(list(reversed(near)), DAY) == best(near, DAY)
