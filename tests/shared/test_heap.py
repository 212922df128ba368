"""`bot.shared.heap`: what survives start-up is frozen; what is allocated after is collected."""

from __future__ import annotations

import gc
import weakref

import pytest

from bot.shared import heap
from bot.shared.heap import release, settle, settle_after


@pytest.fixture(autouse=True)
def _enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "enabled", True)  # the suite's bots freeze nothing


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_settle_freezes_what_survives_and_later_garbage_is_still_collected() -> None:
    try:
        kept = _Node()
        frozen = settle()
        assert frozen > 0 and gc.get_freeze_count() == frozen
        assert not any(obj is kept for obj in gc.get_objects())  # frozen: no longer walked
        later = _Node()
        gone = weakref.ref(later)
        del later
        gc.collect()
        assert gone() is None
    finally:
        release()
    assert gc.get_freeze_count() == 0


def test_disabled_settle_freezes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "enabled", False)
    before = gc.get_threshold()
    assert settle() == 0 and gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_the_young_generations_are_collected_less_often_until_release() -> None:
    before = gc.get_threshold()
    try:
        settle()
        settle()  # after a load: the pace stays, the defaults are still known
        assert gc.get_threshold() == heap.THRESHOLDS != before
    finally:
        release()
    assert gc.get_threshold() == before


async def test_settle_after_waits_for_the_builds() -> None:
    waited: list[str] = []

    async def build() -> None:
        waited.append("built")

    try:
        assert await settle_after(build, build) > 0
        assert waited == ["built", "built"]
    finally:
        release()
