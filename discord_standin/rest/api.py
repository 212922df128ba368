"""The stand-in's one aiohttp handler: records each request, applies faults, then routes it."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import BodyPartReader, web

from ..faults import FaultRule, GlobalRateLimiter, Stall, rate_limit_body, rate_limit_headers
from ..interactions import InteractionHandle
from ..model import JSONObject, new_id
from ..state import World
from .commands import ApplicationCommands
from .gateway_info import GatewayInfo
from .guilds import Guilds
from .interactions import Interactions
from .messages import Messages
from .polls import Polls
from .resource import Resource
from .routing import (
    API_PREFIX,
    ApiError,
    Call,
    Dispatch,
    RecordedRequest,
    Route,
    json_response,
)
from .scheduled_events import ScheduledEvents
from .users import Users

log = logging.getLogger(__name__)

RESOURCES: tuple[type[Resource], ...] = (
    Users,
    ApplicationCommands,
    Guilds,
    ScheduledEvents,
    Messages,
    Interactions,
)
"""Every resource the stand-in serves, in the order their routes are matched."""


class RestApi:
    """Routes ``/api/v10/...`` requests to the resources that read and change the :class:`World`."""

    def __init__(
        self, world: World, dispatch: Dispatch, *, token: str | None, base_url: Callable[[], str],
        gateway_bot: Callable[[], JSONObject] | None = None,
    ) -> None:
        """``gateway_bot`` gives the body of ``GET /gateway/bot`` (the gateway's URL, shards
        and session start limit)."""
        self.world = world
        self.token = token
        self.base_url = base_url
        self.log: list[RecordedRequest] = []
        self.faults: list[FaultRule] = []
        self.stalls: list[Stall] = []
        self.new_limiter: Callable[[], GlobalRateLimiter] | None = None
        """Makes the global limiter of a token (None: no global limit)."""
        self.limiters: dict[str, GlobalRateLimiter] = {}
        """Each token's global limiter: the limit belongs to the token, not to a connection."""
        self.rate_limited = 0
        self.in_flight = 0
        self.internal_errors: list[Exception] = []
        self.polls = Polls(world, dispatch)
        """Polls end at their expiry: checked before every request is served."""
        self.routes: list[Route] = [
            route for kind in RESOURCES for route in kind(world, dispatch).routes()
        ] + self.polls.routes()
        if gateway_bot is not None:
            self.routes += GatewayInfo(world, dispatch, gateway_bot).routes()

    # -- the one aiohttp handler --------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.Response:
        """Record the request, apply faults and the rate limiter, then route it."""
        self.in_flight += 1
        try:
            return await self._handle(request)
        finally:
            self.in_flight -= 1

    async def _handle(self, request: web.Request) -> web.Response:
        path = request.path.removeprefix(API_PREFIX) or "/"
        body, files = await self._read_body(request)
        headers = dict(request.headers)
        record = RecordedRequest(
            request.method, path, dict(request.query), body, headers, files=files
        )
        self.log.append(record)
        await self.polls.finish_due()
        found = self._resolve(record.method, path)
        record.route = None if found is None else found[0].pattern
        touched: list[InteractionHandle] = []
        rule = next((r for r in self.faults if r.take(record.method, path)), None)
        if rule is None or rule.after_processing:
            response = await self._serve(found, request, record, touched)
        if rule is not None:
            response = rule.fault.response()
        if stall := next((s for s in self.stalls if s.take(record.method, path)), None):
            await stall.hold()
        record.status = response.status
        if response.status == 429:
            self.rate_limited += 1
        for handle in touched:
            handle.changed()
        return response

    def _resolve(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            params = route.match(method, path)
            if params is not None:
                return route, params
        return None

    async def _serve(
        self,
        found: tuple[Route, dict[str, str]] | None,
        request: web.Request,
        record: RecordedRequest,
        touched: list[InteractionHandle],
    ) -> web.Response:
        if found is None:
            return json_response(404, {"message": "404: Not Found", "code": 0})
        route, params = found
        limiter = self._limiter(request) if route.authenticated else None
        if limiter is not None:
            wait = limiter.check(self.world.clock())
            if wait is not None:
                body = rate_limit_body(wait, is_global=True)
                return json_response(429, body, rate_limit_headers(wait, is_global=True))
        try:
            if route.authenticated:
                self._authenticate(request)
            if record.files and self._too_large(record):
                raise ApiError(413, 40005, "Request entity too large")
            call = Call(params, record.json, request.query, record, touched)
            result = await route.handler(call)
        except ApiError as error:
            return json_response(error.status, error.body)
        except Exception as error:
            log.exception("stand-in failed on %s %s", record.method, record.path)
            self.internal_errors.append(error)
            return json_response(500, {"message": f"stand-in error: {error!r}", "code": 0})
        return json_response(200, result)

    def _limiter(self, request: web.Request) -> GlobalRateLimiter | None:
        """The global limiter of the request's token (created on its first request)."""
        if self.new_limiter is None:
            return None
        token = request.headers.get("Authorization", "")
        if token not in self.limiters:
            self.limiters[token] = self.new_limiter()
        return self.limiters[token]

    def _authenticate(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or (self.token is not None and auth != f"Bot {self.token}"):
            raise ApiError(401, 0, "401: Unauthorized")

    async def _read_body(self, request: web.Request) -> tuple[Any, list[str]]:
        """The JSON body; a multipart body's ``payload_json`` with its files stored as
        attachments where Discord reads them: an interaction callback's inside ``data``."""
        if not request.body_exists:
            return None, []
        if not request.content_type.startswith("multipart/"):
            raw = await request.text()
            try:
                return json.loads(raw), []
            except ValueError:
                return raw, []
        payload: JSONObject = {}
        uploads: list[tuple[JSONObject, bytes]] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                payload = json.loads(data)
            else:
                uploads.append(({
                    "filename": part.filename or part.name or "file",
                    "size": len(data),
                    "content_type": part.headers.get("Content-Type"),
                }, bytes(data)))
        attachments = []
        for upload, data in uploads:
            attachment_id = new_id()
            url = f"{self.base_url()}/attachments/{attachment_id}/{upload['filename']}"
            attachments.append(upload | {"id": str(attachment_id), "url": url, "proxy_url": url})
            self.world.attachment_bytes[attachment_id] = data
        target = payload
        if request.path.endswith("/callback") and isinstance(payload.get("data"), dict):
            target = payload["data"]
        if attachments:
            target["attachments"] = attachments
        return payload, [str(u["filename"]) for u, _ in uploads]

    def _too_large(self, record: RecordedRequest) -> bool:
        """Whether a file of the request is over Discord's attachment size limit."""
        body: JSONObject = record.json if isinstance(record.json, dict) else {}
        inner = body.get("data")
        data: JSONObject = inner if isinstance(inner, dict) else body
        return any(int(a.get("size") or 0) > self.world.attachment_size_limit
                   for a in (data.get("attachments") or []) if isinstance(a, dict))
