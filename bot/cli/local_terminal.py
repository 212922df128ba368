"""Local mode at the terminal: reading a typed line, a quiet log, and the hints it prints
(what an option takes, the numbers a result list shows)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sys
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the stand-in is imported only when local mode runs
    from discord_standin import Message

BOOLEAN_OPTION, INTEGER_OPTION, NUMBER_OPTION = 5, 4, 10
"""Discord's application command option types that `?` explains rather than completes."""
_NUMBERED = re.compile(r"^\*\*(\d+)\. ", re.MULTILINE)
"""A numbered entry of a result list (`**6. Title**`), in the order of its menu's options."""


def what_to_type(option: Mapping[str, object]) -> str:
    """What Discord's command bar asks for in an option it has no suggestions for."""
    kind = option.get("type")
    if kind not in {INTEGER_OPTION, NUMBER_OPTION}:
        return "true or false" if kind == BOOLEAN_OPTION else "a value"
    what = "a whole number" if kind == INTEGER_OPTION else "a number"
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None:
        return f"{what} from {low} to {high}"
    if low is not None:
        return f"{what} of at least {low}"
    return what if high is None else f"{what} of at most {high}"


def list_numbers(message: Message, count: int) -> list[int]:
    """The numbers the list shows beside its `count` menu options (1…count if it shows none)."""
    text = "\n".join(str(e.get("description") or "") for e in message.embeds)
    shown = [int(n) for n in _NUMBERED.findall(text)]
    return shown if len(shown) == count else list(range(1, count + 1))


def quiet_logging() -> None:
    """Keep the transcript readable: only paperclub's warnings, and no voice-support notes."""
    logging.getLogger().setLevel(logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)


async def read_line(prompt: str) -> str:
    """One line typed at the prompt (EOFError at the end of input).

    `input` blocks its thread until a line comes, so it runs in a daemon thread of its own:
    Ctrl-C (or `quit`) then ends local mode at once instead of waiting, in the interpreter's
    shutdown, for a line nobody will type."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, failure: BaseException | None) -> None:
        if answer.done():  # cancelled meanwhile (Ctrl-C)
            return
        if failure is not None:
            answer.set_exception(failure)
        else:
            answer.set_result(line or "")

    def read() -> None:
        try:
            line, failure = input(prompt), None
        except (EOFError, OSError, ValueError) as exc:  # end of input, or stdin closed
            line, failure = None, exc if isinstance(exc, EOFError) else EOFError(str(exc))
        with contextlib.suppress(RuntimeError):  # the loop is gone: local mode has ended
            loop.call_soon_threadsafe(settle, line, failure)

    threading.Thread(target=read, name="local-mode prompt", daemon=True).start()
    return await answer


def is_interactive() -> bool:
    """True when a person is at the terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()
