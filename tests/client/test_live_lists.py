"""The bot's registry of live result lists: least recently used first, capped, expiring."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bot.client.ui.live import LiveLists


class Listed:
    """A list that records when it is greyed out."""

    def __init__(self, name: str, greyed: list[str]) -> None:
        self.name = name
        self._greyed = greyed

    async def disable(self) -> None:
        self._greyed.append(self.name)


def _registry(greyed: list[str], **options: Any) -> tuple[LiveLists, list[asyncio.Task[None]]]:
    spawned: list[asyncio.Task[None]] = []

    def spawn(work: Coroutine[Any, Any, None], _what: str) -> None:
        spawned.append(asyncio.ensure_future(work))

    return LiveLists(spawn, **options), spawned


async def test_beyond_the_cap_the_least_recently_used_is_forgotten_unedited() -> None:
    greyed: list[str] = []
    lists, spawned = _registry(greyed, cap=2)
    for key, name in enumerate("abc"):
        if name == "c":
            assert lists.get(0) is not None  # a click on "a": "b" is now the older
        lists.add(key, Listed(name, greyed))
    assert lists.get(1) is None and len(lists) == 2
    assert [live.name for live in lists if isinstance(live, Listed)] == ["a", "c"]
    assert greyed == [] and spawned == []  # a click on "b" will grey it out
    lists.close()


class Clock:
    """Seconds that pass only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_list_unused_for_its_timeout_is_greyed_out_and_forgotten() -> None:
    greyed: list[str] = []
    clock = Clock()
    lists, spawned = _registry(greyed, timeout=300, clock=clock)
    lists.add(1, Listed("old", greyed))
    clock.now = 200
    lists.add(2, Listed("new", greyed))
    clock.now = 300
    lists.expire()
    await asyncio.gather(*spawned)
    assert greyed == ["old"] and lists.get(1) is None and lists.get(2) is not None
    lists.close()


async def test_a_click_starts_the_timeout_afresh() -> None:
    greyed: list[str] = []
    clock = Clock()
    lists, spawned = _registry(greyed, timeout=300, clock=clock)
    lists.add(1, Listed("used", greyed))
    for minute in range(1, 20):
        clock.now = 60 * minute
        lists.expire()
        assert lists.get(1) is not None
    assert greyed == [] and spawned == []
    clock.now += 300
    lists.expire()
    await asyncio.gather(*spawned)
    assert greyed == ["used"] and len(lists) == 0


async def test_the_timer_greys_out_a_list_when_it_is_due() -> None:
    greyed: list[str] = []
    lists, spawned = _registry(greyed, timeout=0.01)
    lists.add(1, Listed("due", greyed))
    while not spawned:  # the registry's one timer, no task per list
        await asyncio.sleep(0.01)
    await asyncio.gather(*spawned)
    assert greyed == ["due"] and len(lists) == 0


async def test_closing_stops_the_timer_and_greys_out_nothing() -> None:
    greyed: list[str] = []
    lists, spawned = _registry(greyed, timeout=0.01)
    lists.add(1, Listed("kept", greyed))
    lists.close()
    await asyncio.sleep(0.05)  # past the timeout: nothing wakes
    assert spawned == [] and greyed == [] and len(lists) == 1
