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
"""

from __future__ import annotations

import gc
from collections.abc import Awaitable, Callable

enabled = True
"""False: `settle` only collects and freezes nothing (the test suite's bots: each start's full
collection would walk the whole test process's heap again)."""


def settle() -> int:
    """Collect what is not frozen, then freeze what survives; how many objects are frozen
    (nothing is done when not `enabled`)."""
    if enabled:
        gc.collect()
        gc.freeze()
    return gc.get_freeze_count()


async def settle_after(*ready: Callable[[], Awaitable[None]]) -> int:
    """`settle` once each of `ready` has returned (the builds it should freeze)."""
    for wait in ready:
        await wait()
    return settle()


def release() -> None:
    """Give the frozen objects back to the collector (the bot is closing)."""
    gc.unfreeze()
