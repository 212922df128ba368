"""The corrections service on the real SQLite stores and the bundled listing: a proposal is
prefilled with what the server sees, approved once, kept as an overlay across a reload of the
listing and an upstream change of the record, never seen by another server, and reverted."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.catalog.loader import load_catalog
from bot.features.corrections.service import CorrectionService
from bot.shared.messages import Refusal
from domain.catalog import LoadSource
from domain.corrections import Action, Field, Status, Target
from domain.paper import Paper
from storage import backend as stores
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.backends import queued
from tests.clocks import FakeClock

GUILD, OTHER_GUILD, MEMBER, CURATOR = 1, 2, 10, 20


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 9, tzinfo=UTC))


@pytest.fixture
def service(db: Database, store: SqlitePaperStore, clock: FakeClock) -> CorrectionService:
    return CorrectionService(stores.CORRECTIONS.open(db), store, clock)


async def _first(store: SqlitePaperStore) -> str:
    ids = await store.paper_ids()
    return ids[0]


async def test_an_approved_title_survives_a_reload_and_stays_in_its_server(
        service: CorrectionService, store: SqlitePaperStore, catalog_path: Path) -> None:
    paper_id = await _first(store)
    draft = await service.draft(GUILD, paper_id, Field.TITLE_ZH)
    source = await store.get(paper_id)
    assert source is not None and draft.value == source.title_zh
    submitted = await service.propose(GUILD, draft.target, "更好的中文标题", "机翻不准",
                                      MEMBER)
    made = submitted.proposal
    assert made.old_value == source.title_zh and made.status is Status.PENDING
    # Pending changes nothing.
    assert (await service.overlay_one(GUILD, source)).title_zh == source.title_zh
    decided = await service.decide(GUILD, made.id, approve=True, by=CURATOR)
    assert decided is not None
    assert (await service.overlay_one(GUILD, source)).title_zh == "更好的中文标题"
    await load_catalog(store, catalog_path)  # the unchanged listing again
    reloaded = await store.get(paper_id)
    assert reloaded == source  # the source record is never edited
    assert (await service.overlay_one(GUILD, reloaded)).title_zh == "更好的中文标题"
    assert (await service.overlay_one(OTHER_GUILD, reloaded)).title_zh == source.title_zh
    assert (await service.overlay_one(None, reloaded)).title_zh == source.title_zh
    assert (await service.draft(GUILD, paper_id, Field.TITLE_ZH)).value == "更好的中文标题"


async def test_a_rejected_proposal_changes_nothing(service: CorrectionService,
                                                   store: SqlitePaperStore) -> None:
    paper_id = await _first(store)
    source = await store.get(paper_id)
    assert source is not None
    submitted = await service.propose(GUILD, Target(paper_id, Field.TITLE_ZH), "错的", "", MEMBER)
    made = submitted.proposal
    assert await service.decide(GUILD, made.id, approve=False, by=CURATOR, note="不对") is not None
    assert await service.decide(GUILD, made.id, approve=True, by=CURATOR) is None
    assert await service.overlay_one(GUILD, source) == source
    assert [e.action for e in await service.history(GUILD, paper_id)] == [
        Action.PROPOSED, Action.REJECTED]


async def test_two_curators_at_once_one_decision_one_notice(service: CorrectionService,
                                                            store: SqlitePaperStore,
                                                            db: Database) -> None:
    paper_id = await _first(store)
    submitted = await service.propose(GUILD, Target(paper_id, Field.TITLE_ZH), "新", "", MEMBER)
    made = submitted.proposal
    outcomes = await asyncio.gather(
        service.decide(GUILD, made.id, approve=True, by=CURATOR),
        service.decide(GUILD, made.id, approve=False, by=CURATOR + 1))
    assert sum(o is not None for o in outcomes) == 1
    assert await queued(db) == 1  # one DM, queued with the decision
    notices = await asyncio.gather(*(service.claim_outcome_notice(made.id) for _ in range(3)))
    assert notices.count(True) == 0  # not owed to a listing while the DM waits


async def test_an_english_title_fix_keeps_the_id(service: CorrectionService,
                                                 store: SqlitePaperStore) -> None:
    paper_id = await _first(store)
    submitted = await service.propose(
        GUILD, Target(paper_id, Field.TITLE_EN), "Fixed Title", "", MEMBER)
    made = submitted.proposal
    await service.decide(GUILD, made.id, approve=True, by=CURATOR)
    source = await store.get(paper_id)
    assert source is not None
    shown = await service.overlay_one(GUILD, source)
    assert shown.title_en == "Fixed Title" and shown.id == paper_id


async def test_the_source_changing_a_corrected_field_is_told_once(
        service: CorrectionService, store: SqlitePaperStore) -> None:
    paper_id = await _first(store)
    submitted = await service.propose(GUILD, Target(paper_id, Field.TITLE_ZH), "馆员的标题", "",
                                      MEMBER)
    made = submitted.proposal
    await service.decide(GUILD, made.id, approve=True, by=CURATOR)
    source = await store.get(paper_id)
    assert source is not None
    upstream = replace(source, title_zh="上游改过的标题")
    await store.load([(1, upstream)], source=LoadSource("upstream"))
    changed = await store.get(paper_id)
    assert changed is not None and changed.title_zh == "上游改过的标题"
    # The correction is still shown until the curators decide.
    assert (await service.overlay_one(GUILD, changed)).title_zh == "馆员的标题"
    assert await service.revert(GUILD, made.id, by=CURATOR, note="上游已修正") is not None
    assert (await service.overlay_one(GUILD, changed)).title_zh == "上游改过的标题"


async def test_refusals(service: CorrectionService, store: SqlitePaperStore) -> None:
    paper_id = await _first(store)
    source = await store.get(paper_id)
    assert source is not None
    for target, text, key in (
            (Target(paper_id, Field.TITLE_ZH), source.title_zh, "corrections.unchanged"),
            (Target("0" * 16, Field.TITLE_ZH), "x", "corrections.no_paper"),
            (Target(paper_id, Field.YEAR), "20", "corrections.bad_year")):
        with pytest.raises(Refusal) as refused:
            await service.propose(GUILD, target, text, "", MEMBER)
        assert refused.value.key == key
    submitted = await service.propose(GUILD, Target(paper_id, Field.TITLE_ZH), "新", "", MEMBER)
    made = submitted.proposal
    with pytest.raises(Refusal):
        await service.proposal(OTHER_GUILD, made.id)
    with pytest.raises(Refusal):
        await service.decide(OTHER_GUILD, made.id, approve=True, by=CURATOR)


async def test_an_english_summary_fix_starts_from_the_generated_one_and_wins_over_it(
        service: CorrectionService, store: SqlitePaperStore) -> None:
    from bot.features.summaries.prompt import paper_source, source_hash
    from bot.features.summaries.service import with_generated
    from domain.summaries import GeneratedSummary, SummaryLang

    async def generated(paper: Paper) -> Paper:  # what `[llm]` attaches
        digest = source_hash(paper_source(paper), SummaryLang.EN)
        return with_generated(paper, [GeneratedSummary(SummaryLang.EN, "AI text.", "m", digest)])

    service.generated = generated
    paper_id = await _first(store)
    draft = await service.draft(GUILD, paper_id, Field.SUMMARY_EN)
    assert draft.value == "AI text."
    submitted = await service.propose(GUILD, draft.target, "A fixed summary.", "", MEMBER)
    assert submitted.proposal.old_value == "AI text."
    assert await service.decide(GUILD, submitted.proposal.id, approve=True, by=CURATOR)
    source = await store.get(paper_id)
    assert source is not None
    shown = await generated(await service.overlay_one(GUILD, source))
    assert [(s.text, s.corrected) for s in shown.generated] == [("A fixed summary.", True)]
    assert shown.summary_en == source.summary_en  # the abstract is the authors' own: kept
    assert (await service.draft(GUILD, paper_id, Field.SUMMARY_EN)).value == "A fixed summary."
