"""The paper of the day (`DigestScheduler`, `DigestService`) on in-memory fakes: what is due
per server time zone, the claim before the send, a claimed post found again or sent late or
skipped past the grace window, a failure then its retry, and the admin paths (status, preview,
now, off). The end-to-end tests (tests/e2e/test_digest*.py) run the same rules through Discord.

Both are built in one place: the scheduler path (`World.digest`) and the admin commands
(`World.admin`), in `_services`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.features.digest.plan import DEFAULT_GRACE, offline_reason
from bot.features.digest.scheduler import DigestScheduler, digest_marker, digest_nonce
from bot.features.digest.service import DigestService
from bot.features.digest.store import DigestStore
from bot.features.papers.store import PaperStore
from bot.features.reading.store import HistoryStore
from bot.shared.leases import Leaser
from bot.shared.messages import Refusal
from domain.digest import Claim, DigestState, LedgerStatus, OutcomeStatus
from domain.leases import Lease
from domain.reasons import Reason, ReasonCode
from storage.backend import DIGESTS, HISTORY
from storage.sqlite.database import Database
from tests.clocks import FakeClock
from tests.fakes import (
    FakeChannels,
    Refuse,
    Stall,
    catalog_paper,
    catalog_store,
    refused,
)
from tests.features.digest.fakes import FakeAudience, FakeDigestPoster

TOKYO, BERLIN = 100, 200
TOKYO_CHANNEL, BERLIN_CHANNEL, OTHER_CHANNEL = 10, 20, 11
CONFIGURED = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
DAY = date(2026, 12, 2)
TOKYO_DUE = datetime(2026, 12, 2, 0, 0, tzinfo=UTC)  # 09:00 in Tokyo
BERLIN_DUE = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)  # 09:00 in Berlin
PAPERS = [catalog_paper(f"Paper of the Day Number {n}") for n in range(1, 6)]
FOLLOWER = 7


@dataclass
class World:
    """The service under test and the fakes around it."""

    clock: FakeClock
    digests: DigestStore
    papers: PaperStore
    channels: FakeChannels
    poster: FakeDigestPoster
    audience: FakeAudience
    history: HistoryStore
    digest: DigestScheduler = field(init=False)
    """The scheduler path: `tick`, `run_guild`, `post_now`."""
    admin: DigestService = field(init=False)
    """The `/digest` commands."""

    def __post_init__(self) -> None:
        self.digest, self.admin = _services(self, "here")

    def process(self, owner: str) -> DigestScheduler:
        """Another process on the same store, with its own leases."""
        return _services(self, owner)[0]

    async def configure(self, guild_id: int, channel_id: int, zone: str, *,
                        thread: bool = True) -> datetime:
        configured = await self.admin.configure(guild_id, channel_id, time(9, 0),
                                                ZoneInfo(zone), thread=thread,
                                                mention_subscribers=True, track=None)
        return configured.next_post_at

    async def outcomes(self, service: DigestScheduler | None = None) -> dict[int, OutcomeStatus]:
        return {o.guild_id: o.status for o in await (service or self.digest).tick()}

    async def crashed_claim(self, *, sent: bool) -> tuple[str, int | None]:
        """Tokyo's post of `DAY` claimed by a process that died (its lease ends now), after
        sending it when `sent`: the nonce and the message id."""
        nonce = digest_nonce(TOKYO, DAY)
        await self.digests.claim(TOKYO, DAY, Claim(PAPERS[0].id, 1, 1, len(PAPERS), nonce,
                                                   TOKYO_CHANNEL, False,
                                                   Lease("crashed", self.clock()),
                                                   at=self.clock()))
        if not sent:
            return nonce, None
        return nonce, await self.channels.send("send", TOKYO_CHANNEL, nonce,
                                               digest_marker(DAY), "sent before the crash")


def _services(world: World, owner: str) -> tuple[DigestScheduler, DigestService]:
    """The scheduler and the admin side, on the world's fakes, leasing as `owner`."""
    scheduler = DigestScheduler(world.digests, world.papers, world.poster, clock=world.clock,
                                audience=world.audience, history=world.history,
                                leases=Leaser(owner, clock=world.clock))
    return scheduler, DigestService(world.digests, world.papers, scheduler, clock=world.clock,
                                    history=world.history)


@pytest.fixture
async def world(memory_db: Database) -> World:
    clock = FakeClock(CONFIGURED)
    channels = FakeChannels(clock)
    digests = DIGESTS.open(memory_db)
    papers = await catalog_store(memory_db, PAPERS)
    made = World(clock, digests, papers, channels, FakeDigestPoster(channels),
                 FakeAudience(memory_db, (FOLLOWER,)), HISTORY.open(memory_db))
    assert await made.configure(TOKYO, TOKYO_CHANNEL, "Asia/Tokyo") == TOKYO_DUE
    assert await made.configure(BERLIN, BERLIN_CHANNEL, "Europe/Berlin") == BERLIN_DUE
    return made


async def test_each_server_is_due_at_its_own_local_time(world: World) -> None:
    assert await world.outcomes() == {TOKYO: OutcomeStatus.IDLE, BERLIN: OutcomeStatus.IDLE}
    world.clock.now = TOKYO_DUE
    assert await world.outcomes() == {TOKYO: OutcomeStatus.POSTED, BERLIN: OutcomeStatus.IDLE}
    world.clock.now = BERLIN_DUE
    assert await world.outcomes() == {TOKYO: OutcomeStatus.IDLE, BERLIN: OutcomeStatus.POSTED}
    for guild, channel in ((TOKYO, TOKYO_CHANNEL), (BERLIN, BERLIN_CHANNEL)):
        [post] = world.poster.posts(channel)
        assert (post.local_date, post.late, post.marker) == (DAY, False, digest_marker(DAY))
        entry = await world.digests.entry(guild, DAY)
        assert entry is not None and entry.status is LedgerStatus.POSTED
        [message] = world.channels.in_channel(channel)
        assert (entry.message_id, entry.nonce) == (message.message_id, digest_nonce(guild, DAY))
        assert world.poster.threads[message.message_id] == (entry.thread_id, post.paper.title_en)


async def test_the_date_is_claimed_before_the_send_and_left_to_its_owner(
        world: World) -> None:
    stall = Stall(asyncio.Event())
    world.channels.script("send", stall)
    world.clock.now = TOKYO_DUE
    posting = asyncio.create_task(world.digest.tick())
    await stall.started.wait()
    entry = await world.digests.entry(TOKYO, DAY)
    assert entry is not None and entry.status is LedgerStatus.CLAIMED
    assert entry.lease is not None and entry.lease.owner == "here" and entry.paper_id
    other = world.process("there")
    assert (await world.outcomes(other))[TOKYO] is OutcomeStatus.IDLE
    assert await world.digests.entry(TOKYO, DAY) == entry and world.channels.posts == []
    config = await world.digests.config(TOKYO)
    assert config is not None
    assert (await other.post_now(config)).status is OutcomeStatus.ALREADY
    stall.go.set()
    assert {o.guild_id: o.status for o in await posting}[TOKYO] is OutcomeStatus.POSTED
    [post] = world.poster.posts(TOKYO_CHANNEL)
    assert post.paper.id == entry.paper_id


async def test_a_claimed_post_the_poster_finds_is_recorded_not_sent_again(
        world: World) -> None:
    world.clock.now = TOKYO_DUE
    _, sent = await world.crashed_claim(sent=True)
    world.clock.advance(minutes=1)
    await world.digest.tick()  # its outcome is the plan's: the day is handled
    assert [m.message_id for m in world.channels.in_channel(TOKYO_CHANNEL)] == [sent]
    entry = await world.digests.entry(TOKYO, DAY)
    assert entry is not None and (entry.status, entry.message_id) == (LedgerStatus.POSTED, sent)
    assert entry.thread_id == world.poster.threads[sent or 0][0]
    [told] = world.audience.told
    assert told.link == f"https://discord.com/channels/{TOKYO}/{TOKYO_CHANNEL}/{sent}"
    assert told.reply_in == entry.thread_id


async def test_a_claimed_post_never_sent_is_sent_late_within_the_grace(world: World) -> None:
    world.clock.now = TOKYO_DUE
    nonce, _ = await world.crashed_claim(sent=False)
    world.clock.advance(minutes=30)
    await world.digest.tick()
    [message] = world.channels.in_channel(TOKYO_CHANNEL)
    entry = await world.digests.entry(TOKYO, DAY)
    assert entry is not None and entry.status is LedgerStatus.POSTED
    assert (message.nonce, message.message_id) == (nonce, entry.message_id)
    [post] = world.poster.posts(TOKYO_CHANNEL)
    assert post.late and post.paper.id == PAPERS[0].id
    assert post.audience.mention_ids == (FOLLOWER,)


async def test_a_claimed_post_past_the_grace_window_is_skipped(world: World) -> None:
    world.clock.now = TOKYO_DUE
    await world.crashed_claim(sent=False)
    world.clock.now = TOKYO_DUE + DEFAULT_GRACE + timedelta(minutes=1)
    [tokyo] = [o for o in await world.digest.tick() if o.guild_id == TOKYO]
    assert (tokyo.status, tokyo.reason) == (OutcomeStatus.IDLE, None)
    entry = await world.digests.entry(TOKYO, DAY)
    assert entry is not None and entry.status is LedgerStatus.SKIPPED
    assert entry.reason == offline_reason(DEFAULT_GRACE)
    assert world.channels.in_channel(TOKYO_CHANNEL) == []


async def test_days_missed_while_down_are_skipped_and_the_latest_posted_late(
        world: World) -> None:
    world.clock.now = TOKYO_DUE + timedelta(days=2, minutes=30)
    [tokyo] = [o for o in await world.digest.tick() if o.guild_id == TOKYO]
    assert (tokyo.status, tokyo.local_date) == (OutcomeStatus.POSTED, date(2026, 12, 4))
    rows = {e.local_date: (e.status, e.reason) for e in await world.digests.recent(TOKYO)}
    assert rows == {DAY: (LedgerStatus.SKIPPED, offline_reason(DEFAULT_GRACE)),
                    date(2026, 12, 3): (LedgerStatus.SKIPPED, offline_reason(DEFAULT_GRACE)),
                    date(2026, 12, 4): (LedgerStatus.POSTED, None)}
    assert [p.late for p in world.poster.posts(TOKYO_CHANNEL)] == [True]


async def test_a_failed_post_is_retried_by_digest_now_in_the_new_channel(world: World) -> None:
    world.channels.script("send", Refuse(refused(ReasonCode.NO_PERMISSION, 50013)))
    world.clock.now = TOKYO_DUE
    [failed] = [o for o in await world.digest.tick() if o.guild_id == TOKYO]
    assert (failed.status, failed.reason) == (OutcomeStatus.FAILED,
                                              Reason(ReasonCode.NO_PERMISSION))
    entry = await world.digests.entry(TOKYO, DAY)
    assert entry is not None and entry.status is LedgerStatus.FAILED
    assert (await world.outcomes())[TOKYO] is OutcomeStatus.IDLE  # the tick does not retry
    await world.configure(TOKYO, OTHER_CHANNEL, "Asia/Tokyo")
    retried = await world.admin.post_today(TOKYO)
    assert retried.result.outcome is not None
    assert retried.result.outcome.status is OutcomeStatus.POSTED
    [message] = world.channels.in_channel(OTHER_CHANNEL)
    assert message.nonce == entry.nonce
    assert world.poster.posts(OTHER_CHANNEL)[0].paper.id == entry.paper_id
    again = await world.admin.post_today(TOKYO)
    assert again.result.outcome is not None
    assert (again.result.outcome.status, again.result.outcome.message_id) == (
        OutcomeStatus.ALREADY, message.message_id)
    assert len(world.channels.in_channel(OTHER_CHANNEL)) == 1


async def test_three_failures_in_a_row_pause_and_the_admins_hear_once(world: World) -> None:
    world.channels.gone.add(TOKYO_CHANNEL)
    statuses = []
    for day in range(3):
        world.clock.now = TOKYO_DUE + timedelta(days=day)
        statuses.append((await world.outcomes())[TOKYO])
    assert statuses == [OutcomeStatus.FAILED, OutcomeStatus.FAILED, OutcomeStatus.PAUSED]
    world.clock.advance(days=1)
    assert TOKYO not in await world.outcomes()
    paused = Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": 3},
                    Reason(ReasonCode.CHANNEL_MISSING))
    first = await world.admin.overview(TOKYO)
    assert first.notices == (paused,)
    assert first.result is not None and first.result.config.state is DigestState.PAUSED
    assert first.result.next_post_at is None
    assert (await world.admin.overview(TOKYO)).notices == ()


async def test_status_preview_now_and_off(world: World) -> None:
    assert (await world.admin.overview(999)).result is None
    with pytest.raises(Refusal) as none:
        await world.admin.preview_next(999)
    assert none.value.key == "digest.none_yet_first"
    previewed = (await world.admin.preview_next(TOKYO)).result
    assert previewed is not None
    paper, choice, like = previewed
    assert like is None and not choice.recommended
    assert (choice.paper_id, choice.position, choice.cycle_size) == (paper.id, 1, len(PAPERS))
    assert await world.digests.recent(TOKYO) == []  # a preview claims nothing
    world.clock.now = TOKYO_DUE + timedelta(hours=1)
    now = await world.admin.post_today(TOKYO)
    assert now.result.outcome is not None
    assert now.result.outcome.status is OutcomeStatus.POSTED
    assert world.poster.posts(TOKYO_CHANNEL)[0].paper == paper
    status = (await world.admin.overview(TOKYO)).result
    assert status is not None and status.next_post_at == TOKYO_DUE + timedelta(days=1)
    assert [(e.local_date, e.status) for e in status.recent] == [(DAY, LedgerStatus.POSTED)]
    assert (await world.admin.switch_off(TOKYO)).result is True
    assert (await world.admin.switch_off(999)).result is False
    world.clock.advance(days=1)
    assert TOKYO not in await world.outcomes()
    off = await world.admin.post_today(TOKYO)
    assert off.result.outcome is None and off.result.config.state is DigestState.OFF
    stopped = (await world.admin.overview(TOKYO)).result
    assert stopped is not None and stopped.next_post_at is None
    assert len(world.poster.posts(TOKYO_CHANNEL)) == 1


async def test_threads_off_or_refused_are_recorded_with_the_reason(world: World) -> None:
    await world.configure(BERLIN, BERLIN_CHANNEL, "Europe/Berlin", thread=False)
    world.channels.script("thread", Refuse(refused(ReasonCode.NO_PERMISSION, 50013)))
    world.clock.now = TOKYO_DUE
    assert (await world.outcomes())[TOKYO] is OutcomeStatus.POSTED
    world.clock.now = BERLIN_DUE
    assert (await world.outcomes())[BERLIN] is OutcomeStatus.POSTED
    tokyo, berlin = (await world.digests.entry(TOKYO, DAY), await world.digests.entry(BERLIN, DAY))
    assert tokyo is not None and berlin is not None
    assert (tokyo.thread_id, tokyo.reason) == (
        None, Reason(ReasonCode.NO_THREAD, cause=Reason(ReasonCode.NO_PERMISSION)))
    assert (berlin.thread_id, berlin.reason) == (None, Reason(ReasonCode.THREADS_OFF))
    assert world.poster.threads == {}


async def test_skip_discussed_leaves_out_what_the_group_discussed_until_all_are(
        world: World) -> None:
    await world.admin.configure(TOKYO, TOKYO_CHANNEL, time(9, 0), ZoneInfo("Asia/Tokyo"),
                                thread=True, mention_subscribers=True, track=None,
                                skip_discussed=True)
    for discussed in PAPERS[:-1]:
        await world.history.record_discussed(TOKYO, discussed.id, CONFIGURED, None, "", None)
    previewed = (await world.admin.preview_next(TOKYO)).result
    assert previewed is not None and previewed[0] == PAPERS[-1]
    await world.history.record_discussed(TOKYO, PAPERS[-1].id, CONFIGURED, None, "", None)
    everything = (await world.admin.preview_next(TOKYO)).result
    assert everything is not None and everything[1].cycle_size == len(PAPERS)
