"""The stand-in server: OpenAI-compatible `POST /v1/chat/completions` on 127.0.0.1 (a summary,
or discussion questions when the system message asks for them)."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from aiohttp import web

from .answers import asked_language, asks_questions, filler, questions, summary, tokens, user_text
from .faults import FaultKind, LlmFault


@dataclass(frozen=True)
class RecordedRequest:
    """One chat-completions request as the stand-in received it."""

    model: str
    language: str
    user: str
    authorization: str
    max_tokens: int | None


class LlmStandIn:
    """A local chat-completions API answering deterministically in the asked language.

    ``async with LlmStandIn() as llm:`` serves on a free port; point a client at
    ``llm.base_url``. ``fail(fault)`` queues misbehaviour for the next requests; every request
    is kept in ``requests``; ``tokens_served`` adds up the usage it reported; ``peak_in_flight``
    is the most requests it served at once.
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.requests: list[RecordedRequest] = []
        self.tokens_served = 0
        self.peak_in_flight = 0
        self._in_flight = 0
        self._faults: deque[LlmFault] = deque()
        self.host, self._port = host, port
        self._runner: web.AppRunner | None = None

    def fail(self, *faults: LlmFault) -> None:
        """Answer the next requests with these faults, in order, one each."""
        self._faults.extend(faults)

    @property
    def pending_faults(self) -> int:
        """Faults queued and not yet served."""
        return len(self._faults)

    @property
    def port(self) -> int:
        return self._port

    @property
    def base_url(self) -> str:
        """The API's base URL, as an OpenAI client takes it (`…/v1`)."""
        return f"http://{self.host}:{self._port}/v1"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._completions)
        # closing does not wait for slow answers still sleeping
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.2)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        await site.start()
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self._port = int(server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> LlmStandIn:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        self._in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
        try:
            return await self._answer(request)
        finally:
            self._in_flight -= 1

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        try:
            body = await request.json()
            messages = list(body["messages"])
            model = str(body["model"])
        except (ValueError, KeyError, TypeError):
            return _error(400, "invalid_request_error", "a JSON body with model and messages")
        max_tokens = body.get("max_tokens")
        language = asked_language(messages)
        self.requests.append(RecordedRequest(model, language, user_text(messages),
                                             request.headers.get("Authorization", ""),
                                             max_tokens if isinstance(max_tokens, int) else None))
        fault = self._faults.popleft() if self._faults else None
        content = questions(messages) if asks_questions(messages) else summary(messages)
        if fault is not None:
            if fault.kind is FaultKind.STATUS:
                headers = ({"Retry-After": str(fault.retry_after)}
                           if fault.retry_after is not None else {})
                return _error(fault.status, "server_error", fault.body, headers)
            if fault.kind is FaultKind.SLOW:
                await asyncio.sleep(fault.delay)
            elif fault.kind is FaultKind.MALFORMED:
                return web.Response(text=fault.body, content_type="application/json")
            elif fault.kind is FaultKind.TEXT:
                content = fault.body
            elif fault.kind is FaultKind.ECHO:
                content = user_text(messages)
            elif fault.kind is FaultKind.HUGE:
                content = filler(language, fault.size)
        prompt_tokens = tokens(json.dumps(messages, ensure_ascii=False))
        completion_tokens = tokens(content)
        self.tokens_served += prompt_tokens + completion_tokens
        return web.json_response(_completion(model, content, prompt_tokens, completion_tokens))


def _completion(model: str, content: str, prompt_tokens: int,
                completion_tokens: int) -> dict[str, Any]:
    return {
        "id": "chatcmpl-standin", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def _error(status: int, kind: str, message: str,
           headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": {"message": message, "type": kind}}, status=status,
                             headers=headers)
