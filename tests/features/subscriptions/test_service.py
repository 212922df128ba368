"""The subscriptions service over real stores: overviews, suggestions, DM pauses, forgetting."""

from __future__ import annotations

import pytest

from bot.features.papers.search import SearchService
from bot.features.subscriptions.service import SubscriptionService, TopicError
from domain.reasons import Reason, ReasonCode
from domain.subscriptions import AddResult, Delivery
from storage.backend import SUBSCRIPTIONS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database

GUILD, ALICE, BOB = 10, 1, 2


@pytest.fixture
def service(db: Database, store: SqlitePaperStore,
            search: SearchService) -> SubscriptionService:
    return SubscriptionService(SUBSCRIPTIONS.open(db), store, search)


async def test_member_overview_counts_matches_and_resumes_dms(
        service: SubscriptionService) -> None:
    done = await service.subscribe(GUILD, ALICE, "grokking", Delivery.DM)
    assert done.result is AddResult.ADDED and done.matches > 0 and not done.dms_paused
    await service.pause_dms(ALICE)
    paused = await service.member_overview(GUILD, ALICE)
    assert [(t.topic, t.delivery, t.matches) for t in paused.topics] == [
        ("grokking", Delivery.DM, done.matches)]
    assert paused.dm_pause == Reason(ReasonCode.DMS_CLOSED) and not paused.resumed
    again = await service.subscribe(GUILD, ALICE, "ridge regression", Delivery.DM)
    assert again.dms_paused
    resumed = await service.member_overview(GUILD, ALICE, resume_dms=True)
    assert resumed.resumed and resumed.dm_pause is None and len(resumed.topics) == 2


async def test_admin_overview_counts_topics_or_names_followers(
        service: SubscriptionService) -> None:
    for user in (ALICE, BOB):
        await service.subscribe(GUILD, user, "Grokking", Delivery.MENTION)
    await service.subscribe(GUILD, BOB, "distillation", Delivery.DM)
    counts = await service.admin_overview(GUILD)
    assert counts.topic_counts == (("Grokking", 2), ("distillation", 1))
    assert counts.followers is None
    assert (await service.admin_overview(GUILD, "grokking")).followers == (ALICE, BOB)
    with pytest.raises(TopicError):
        await service.admin_overview(GUILD, "   ")


async def test_suggestions_start_with_what_is_typed_and_fit_discord(
        service: SubscriptionService) -> None:
    suggestions = await service.suggest_topics("ridge grok")
    assert suggestions[0] == "ridge grok" and "grokking" in suggestions
    assert len(suggestions) <= 25 and len(set(suggestions)) == len(suggestions)
    assert await service.suggest_topics("   ") == []
    assert await service.suggest_topics("x" * 101) == []


async def test_own_topics_and_forget(service: SubscriptionService) -> None:
    await service.subscribe(GUILD, ALICE, "grokking", Delivery.DM)
    await service.subscribe(GUILD, ALICE, "distillation", Delivery.DM)
    assert await service.own_topics(GUILD, ALICE, "GROK") == ["grokking"]
    gone = await service.forget(ALICE)
    assert gone.subscriptions == 2
    assert await service.own_topics(GUILD, ALICE, "") == []
