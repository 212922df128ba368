"""Answers on demand: throttling, server errors, slowness, broken bodies, and the answers a
careless or manipulated model gives (huge, refusing, in the wrong language, full of mentions,
links and Markdown)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class FaultKind(Enum):
    """What the stand-in does instead of (or before) answering normally."""

    STATUS = "status"  # answer `status` with an error body (and Retry-After if given)
    SLOW = "slow"  # wait `delay` seconds, then answer normally
    MALFORMED = "malformed"  # 200 with `body` as it is (not the API's JSON)
    TEXT = "text"  # a well-formed answer whose content is `body`
    ECHO = "echo"  # a well-formed answer repeating the user message (an obedient model)
    HUGE = "huge"  # a well-formed answer of `size` characters in the asked language


@dataclass(frozen=True)
class LlmFault:
    """One canned misbehaviour for the next request (queue them with `LlmStandIn.fail`)."""

    kind: FaultKind
    status: int = 200
    body: str = ""
    retry_after: int | None = None
    delay: float = 0.0
    size: int = 0

    @classmethod
    def too_many_requests(cls, retry_after: int | None = 2) -> LlmFault:
        """429 with Retry-After."""
        return cls(FaultKind.STATUS, 429, "Rate limit reached", retry_after)

    @classmethod
    def server_error(cls, status: int = 500) -> LlmFault:
        """A 5xx with the API's error body."""
        return cls(FaultKind.STATUS, status, "The server had an error")

    @classmethod
    def slow(cls, delay: float) -> LlmFault:
        """The right answer, `delay` seconds late (past a client's timeout: a timeout)."""
        return cls(FaultKind.SLOW, delay=delay)

    @classmethod
    def malformed(cls, body: str = '{"choices": [{"message": ') -> LlmFault:
        """A 200 whose body is not the API's JSON."""
        return cls(FaultKind.MALFORMED, body=body)

    @classmethod
    def answer(cls, text: str) -> LlmFault:
        """A well-formed answer saying `text` (mentions, links, Markdown, a refusal…)."""
        return cls(FaultKind.TEXT, body=text)

    @classmethod
    def refusal(cls) -> LlmFault:
        """A model declining to answer."""
        return cls.answer("I'm sorry, but I can't help with that request.")

    @classmethod
    def empty(cls) -> LlmFault:
        """A well-formed answer with nothing in it."""
        return cls.answer("")

    @classmethod
    def wrong_language(cls) -> LlmFault:
        """An answer in French, whatever was asked."""
        return cls.answer("Cet article présente une méthode nouvelle pour apprendre des "
                          "représentations et montre des résultats solides sur plusieurs tâches.")

    @classmethod
    def echo(cls) -> LlmFault:
        """An answer that repeats the request's data, instructions and all."""
        return cls(FaultKind.ECHO)

    @classmethod
    def huge(cls, size: int = 200_000) -> LlmFault:
        """An answer of `size` characters, ignoring any token limit."""
        return cls(FaultKind.HUGE, size=size)
