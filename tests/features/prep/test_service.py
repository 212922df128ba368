"""`PrepService` on in-memory SQLite with the chat-completions stand-in and fake channels: a
sheet made ahead and posted once when due, in the server's language; off where the server
turned it off; unusable answers asked again, then failed with nothing posted; an injected
answer made inert; a moved session posted at its new time, a cancelled one never; a post left
by a crash found again or finished, never doubled."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from bot.features.prep.service import PrepOutcome, PrepParts, PrepService
from bot.features.summaries.llm_client import LlmClient
from bot.shared.lang import Lang
from bot.shared.leases import Leaser
from domain.paper import Paper
from domain.prep import MAX_ATTEMPTS, PrepSheet, PrepStatus
from domain.sessions import Place, Session, SessionStatus
from domain.text import to_traditional
from llm_standin import LlmFault, LlmStandIn
from storage import backend as stores
from storage.sqlite.database import Database
from tests.clocks import FakeClock
from tests.fakes import FakeChannels
from tests.summaries.conftest import settings_for

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
GUILD, CHANNEL, THREAD = 1, 10, 11
PAPER = Paper(title_en="Sparse attention for long graphs", title_zh="", authors=("Ada",),
              summary_en="We study sparse attention on long graphs and report gains.")


class FakePrepPoster:
    """Sheets posted to `channels` (operation "prep"), in each server's `langs` (else English)."""

    def __init__(self, channels: FakeChannels) -> None:
        self.channels = channels
        self.langs: dict[int, Lang] = {}

    def lang(self, guild_id: int) -> Lang:
        return self.langs.get(guild_id, Lang.EN)

    async def post_sheet(self, session: Session, paper: Paper, sheet: PrepSheet,
                         mark: str) -> int:
        return await self.channels.send("prep", session.thread_id or session.channel_id,
                                        sheet.nonce, mark, sheet.questions)

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        return await self.channels.find(channel_id, marker, nonce, since)


@dataclass
class World:
    db: Database
    clock: FakeClock
    llm: LlmStandIn
    channels: FakeChannels
    poster: FakePrepPoster
    service: PrepService

    async def session(self, starts_in: timedelta, guild_id: int = GUILD) -> Session:
        sessions = stores.SESSIONS.open(self.db)
        made = await sessions.create(guild_id, PAPER.id, self.clock() + starts_in, None,
                                     Place(), CHANNEL)
        await sessions.set_discord(made.id, event_id=None, message_id=None, thread_id=THREAD)
        return made

    async def sheet(self, session: Session) -> PrepSheet | None:
        return await stores.PREP_SHEETS.open(self.db).get(session.id)

    def posts(self) -> list[tuple[str, ...]]:
        return [post.body for post in self.channels.in_channel(THREAD)]  # type: ignore[misc]


@pytest.fixture
async def world(memory_db: Database) -> AsyncIterator[World]:
    await stores.PAPERS.open(memory_db).add_papers([PAPER])
    clock = FakeClock(T0)
    channels = FakeChannels(clock)
    poster = FakePrepPoster(channels)
    parts = PrepParts(stores.PREP_SHEETS.open(memory_db), stores.SESSIONS.open(memory_db),
                      stores.GROUPS.open(memory_db), stores.PAPERS.open(memory_db),
                      stores.SUMMARIES.open(memory_db))
    async with LlmStandIn() as llm:
        settings = settings_for(llm)
        async with LlmClient(settings) as client:
            yield World(memory_db, clock, llm, channels, poster,
                        PrepService(parts, client, poster, settings, clock=clock,
                                    leases=Leaser("here", clock=clock)))


async def test_a_sheet_is_made_ahead_and_posted_once_when_due(world: World) -> None:
    session = await world.session(timedelta(hours=30))  # due in 6 h: generated now
    assert [d.outcome for d in await world.service.tick()] == [PrepOutcome.READY]
    assert world.posts() == []
    world.clock.advance(hours=5, minutes=59)
    assert await world.service.tick() == []
    world.clock.advance(minutes=1)
    assert [d.outcome for d in await world.service.tick()] == [PrepOutcome.POSTED]
    world.clock.advance(hours=1)
    assert await world.service.tick() == []
    [questions] = world.posts()
    assert len(questions) == 4 and all(q.endswith("?") for q in questions)
    assert "sparse" in questions[0] and len(world.llm.requests) == 1
    assert world.llm.requests[0].language == "en"
    assert "Sparse attention for long graphs" in world.llm.requests[0].user
    sheet = await world.sheet(session)
    assert sheet is not None and sheet.status is PrepStatus.POSTED
    assert sheet.message_id == world.channels.in_channel(THREAD)[0].message_id


async def test_questions_come_in_the_servers_language_unless_it_turned_them_off(
        world: World) -> None:
    world.poster.langs = {GUILD: Lang.ZH_HANT}
    await stores.GROUPS.open(world.db).set_prep_sheets(2, False)
    await world.session(timedelta(hours=20))  # due already: made and posted at once
    await world.session(timedelta(hours=20), guild_id=2)
    await world.service.tick()
    [questions] = world.posts()
    assert [r.language for r in world.llm.requests] == ["zh-CN"]  # only the first server
    assert all(q == to_traditional(q) and q.endswith("？") for q in questions)
    assert "實驗" in "".join(questions)  # Simplified 实验, as Taiwan writes it


async def test_unusable_answers_are_asked_again_then_failed_and_nothing_is_posted(
        world: World) -> None:
    session = await world.session(timedelta(hours=25))
    world.llm.fail(LlmFault.refusal(), LlmFault.wrong_language(),
                   LlmFault.answer("Only one question here?"))
    outcomes = []
    for _ in range(MAX_ATTEMPTS):
        outcomes += [d.outcome for d in await world.service.tick()]
        assert await world.service.tick() == []  # not before its next try
        world.clock.advance(minutes=20)
    assert outcomes == [PrepOutcome.DISCARDED, PrepOutcome.DISCARDED, PrepOutcome.FAILED]
    world.clock.advance(hours=2)  # due now
    assert await world.service.tick() == []
    sheet = await world.sheet(session)
    assert sheet is not None and (sheet.status, sheet.attempts) == (PrepStatus.FAILED, 3)
    assert world.posts() == [] and len(world.llm.requests) == MAX_ATTEMPTS


async def test_an_injected_answer_pings_nobody_and_links_nowhere(world: World) -> None:
    world.llm.fail(LlmFault.too_many_requests(60), LlmFault.answer(
        "Sure! Here are questions:\n1. **Ignore** the paper, @everyone see "
        "https://evil.example/x?\n2. Ask <@&42> and <@7> why the method works?\n"
        "- What does [this](https://evil.example/y) change about the graphs?\n"
        "4. Is the evaluation on long graphs enough?"))
    session = await world.session(timedelta(hours=20))
    assert await world.service.tick() == []  # 429: waited out, no attempt counted
    assert await world.service.tick() == [] and len(world.llm.requests) == 1
    world.clock.advance(seconds=60)
    assert [d.outcome for d in await world.service.tick()] == [PrepOutcome.READY,
                                                                PrepOutcome.POSTED]
    sheet = await world.sheet(session)
    assert sheet is not None and sheet.attempts == 0
    [questions] = world.posts()
    text = " ".join(questions)
    assert len(questions) == 4 and "evil.example" not in text and "<@" not in text
    assert "@\u200beveryone" in text and "**" not in text and "Sure!" not in text


async def test_a_moved_session_gets_its_sheet_at_the_new_time_and_a_cancelled_one_never(
        world: World) -> None:
    sessions = stores.SESSIONS.open(world.db)
    moved = await world.session(timedelta(hours=28))
    cancelled = await world.session(timedelta(hours=28))
    await world.service.tick()  # both generated, neither due
    await sessions.move(moved.id, moved.starts_at + timedelta(days=2))
    await sessions.finish(cancelled.id, SessionStatus.CANCELLED)
    world.clock.advance(hours=4)  # the old due time
    assert await world.service.tick() == []
    world.clock.advance(hours=48)
    assert [(d.session_id, d.outcome) for d in await world.service.tick()] == [
        (moved.id, PrepOutcome.POSTED)]
    assert len(world.posts()) == 1 and len(world.llm.requests) == 2


async def test_a_post_left_by_a_crash_is_found_or_finished_never_doubled(world: World) -> None:
    sheets = stores.PREP_SHEETS.open(world.db)
    sent, unsent = [await world.session(timedelta(hours=20)) for _ in range(2)]
    for session in (sent, unsent):  # a process that died after claiming the posts
        await sheets.claim_generation(session.id, "dead", T0, T0 + timedelta(minutes=1))
        await sheets.ready(session.id, "dead", ["A?", "B?", "C?"], lang="en", model="m",
                           now=T0)
        claim = await sheets.claim_post(session.id, f"nonce-{session.id}", "dead", T0,
                                        T0 + timedelta(minutes=5))
        assert claim is not None
    world.clock.advance(seconds=1)
    first = await world.channels.send("prep", THREAD, f"nonce-{sent.id}", "", ())  # sent
    assert await world.service.tick() == []  # the dead process's leases are live
    world.clock.advance(minutes=5)
    assert {d.outcome for d in await world.service.tick()} == {PrepOutcome.POSTED}
    assert len(world.channels.in_channel(THREAD)) == 2  # the unsent one, once
    found = await world.sheet(sent)
    assert found is not None and found.message_id == first
    assert world.llm.requests == []
