"""The chat-completions client (httpx): one request, its outcome sorted into an answer, a
reason to wait (`LlmBusy`: 429, 5xx, a timeout, no connection) or a broken answer
(`LlmBroken`: a body that is not the API's JSON). Requests per process are bounded in number
(`concurrency`) and rate (`requests_per_minute`); nothing is retried here: the worker decides."""

from __future__ import annotations

import asyncio
import logging
from types import TracebackType
from typing import Any

import httpx
from aiolimiter import AsyncLimiter

from bot.settings_llm import LlmSettings
from domain.summaries import LlmAnswer

logging.getLogger("httpx").setLevel(logging.WARNING)  # not a log line per request

DEFAULT_WAIT = 30.0
"""Seconds to wait after a failure that says nothing of when to come back."""
MAX_WAIT = 3600.0
MAX_BODY = 1_000_000
"""Characters of an answer read at most (a huge answer is cut, then capped by the sanitiser)."""


class LlmBusy(Exception):
    """The endpoint cannot answer now; try again after `retry_after` seconds."""

    def __init__(self, reason: str, retry_after: float = DEFAULT_WAIT) -> None:
        super().__init__(reason)
        self.retry_after = min(max(retry_after, 0.0), MAX_WAIT)


class LlmBroken(Exception):
    """The endpoint answered something that is not a chat completion."""


class LlmClient:
    """Chat completions from the configured endpoint; `async with` owns its connections."""

    def __init__(self, settings: LlmSettings, *, api_key: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.settings = settings
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(
            base_url=str(settings.base_url).rstrip("/"), headers=headers, transport=transport,
            timeout=httpx.Timeout(settings.timeout_seconds,
                                  connect=settings.connect_timeout_seconds))
        self._slots = asyncio.Semaphore(settings.concurrency)
        self._rate = AsyncLimiter(settings.requests_per_minute, 60.0)

    async def __aenter__(self) -> LlmClient:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        await self._http.aclose()

    async def complete(self, messages: list[dict[str, str]]) -> LlmAnswer:
        """The model's answer to `messages`."""
        body = {"model": self.settings.model, "messages": messages, "temperature": 0,
                "max_tokens": self.settings.max_answer_tokens, "stream": False}
        async with self._slots, self._rate:
            try:
                response = await self._http.post("/chat/completions", json=body)
            except httpx.TimeoutException:
                raise LlmBusy("timeout") from None
            except httpx.HTTPError as exc:
                raise LlmBusy(f"unreachable ({type(exc).__name__})") from None
        if response.status_code == 429 or response.status_code >= 500:
            raise LlmBusy(f"HTTP {response.status_code}", _retry_after(response))
        if response.status_code >= 400:
            raise LlmBroken(f"HTTP {response.status_code}: {response.text[:200]}")
        return _answer(response)


def _retry_after(response: httpx.Response) -> float:
    """The seconds Retry-After asks for (a number), else `DEFAULT_WAIT`."""
    try:
        return float(response.headers.get("Retry-After", DEFAULT_WAIT))
    except ValueError:
        return DEFAULT_WAIT


def _answer(response: httpx.Response) -> LlmAnswer:
    """The first choice's text and the usage, or `LlmBroken`."""
    try:
        data: Any = response.json()
        content = data["choices"][0]["message"]["content"]
        usage = data.get("usage") or {}
        used = int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise LlmBroken("not a chat completion") from None
    if content is not None and not isinstance(content, str):
        raise LlmBroken("the answer is not text")
    return LlmAnswer(str(content or "")[:MAX_BODY], max(used, 0))
