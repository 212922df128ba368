"""Every server's turn at once, bounded, and isolated: one server's failure is its own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


async def each_isolated(items: Iterable[Item], concurrency: int,
                        run: Callable[[Item], Awaitable[Result]],
                        failed: Callable[[Item, Exception], Result]) -> list[Result]:
    """`run` every item, at most `concurrency` at a time; an exception becomes `failed(item,
    exc)` (called inside the handler, so it may log the traceback) and never stops the rest."""
    gate = asyncio.Semaphore(concurrency)

    async def turn(item: Item) -> Result:
        async with gate:
            try:
                return await run(item)
            except Exception as exc:
                return failed(item, exc)

    return list(await asyncio.gather(*(turn(item) for item in items)))
