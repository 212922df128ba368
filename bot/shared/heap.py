"""The long-lived part of the heap, set aside from the garbage collector's full collections.

After start-up the process holds a couple of hundred thousand objects that live as long as it
does (modules, the command tree, the typo vocabulary, the recommendation features). A full
collection walks them all with the GIL held: 140–170 ms of CPU at 20k papers, once every few
hundred `/paper` lookups (the lookups' surviving objects set it off), so one lookup in a few
hundred waited for it. `settle` collects once and then freezes what survived
(`gc.freeze`): later full collections walk only what was allocated since. It runs at start and
after every catalog load or add, once the vocabulary and the features are rebuilt (a rebuild's
survivors are frozen too; the collection then walks only what is not frozen yet). Frozen
objects are still freed by reference counting when dropped (the replaced vocabulary and
features hold no cycles); only cyclic garbage among them waits for `release`, which the bot
calls when it closes.

It also collects the young generations less often (`THRESHOLDS`). What a `/paper` lookup
leaves behind is mostly cyclic garbage (discord.py's interaction and its response refer to
each other, a greyed-out list to its buttons), about forty objects: at Python's default of a
collection every 700 allocations, 125 young collections and 11 of the middle generation
(2.7 ms each) and a full one (27–36 ms) landed on 1,000 lookups; at 5,000, 16 young ones of
about 2 ms and none of the others (`bench interactions`: the slowest lookup 41 → 8 ms).
"""

from __future__ import annotations

import gc
from collections.abc import Awaitable, Callable

enabled = True
"""False: `settle` only collects and freezes nothing (the test suite's bots: each start's full
collection would walk the whole test process's heap again)."""


THRESHOLDS = (5000, 20, 10)
"""`gc.set_threshold` once the start-up heap is frozen (Python's defaults: 700, 10, 10)."""
_defaults: list[tuple[int, int, int]] = []
"""The thresholds `settle` replaced, until `release` puts them back."""


def settle() -> int:
    """Collect what is not frozen, then freeze what survives and collect the young generations
    less often; how many objects are frozen (nothing is done when not `enabled`)."""
    if enabled:
        gc.collect()
        gc.freeze()
        if not _defaults:
            _defaults.append(gc.get_threshold())
            gc.set_threshold(*THRESHOLDS)
    return gc.get_freeze_count()


async def settle_after(*ready: Callable[[], Awaitable[None]]) -> int:
    """`settle` once each of `ready` has returned (the builds it should freeze)."""
    for wait in ready:
        await wait()
    return settle()


def release() -> None:
    """Give the frozen objects back to the collector, at its earlier pace (the bot is
    closing)."""
    gc.unfreeze()
    if _defaults:
        gc.set_threshold(*_defaults.pop())
