"""What every REST handler shares: the request record, routes, calls, and Discord's errors."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from ..interactions import InteractionHandle
from ..model import JSONObject
from ..validation import FormError, nest_errors

API_PREFIX = "/api/v10"


class Dispatch(Protocol):
    """Sends a gateway event to sessions that asked for ``intent``."""

    async def __call__(self, event: str, data: JSONObject, *, intent: int = 0) -> int: ...


@dataclass
class RecordedRequest:
    """One request the stand-in received, in arrival order, and the status it answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    headers: dict[str, str]
    route: str | None = None
    status: int = 0
    files: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


class ApiError(Exception):
    """A Discord JSON error answer."""

    def __init__(
        self, status: int, code: int, message: str, errors: JSONObject | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: JSONObject = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


def form_error(errors: Iterable[FormError]) -> ApiError:
    """400, code 50035 Invalid Form Body, with Discord's nested ``errors``."""
    return ApiError(400, 50035, "Invalid Form Body", nest_errors(errors))


@dataclass
class Call:
    """What a route handler gets: path parameters, JSON body, query, and the record."""

    params: dict[str, str]
    body: Any
    query: Mapping[str, str]
    record: RecordedRequest
    touched: list[InteractionHandle] = field(default_factory=list)
    """Interactions this request changed; their waiters wake once the answer is final."""

    def snowflake(self, name: str) -> int:
        """A path parameter as a snowflake (bad ones are Discord's 404)."""
        try:
            return int(self.params[name])
        except ValueError:
            raise ApiError(404, 0, "404: Not Found") from None

    def query_snowflake(self, name: str) -> int:
        """A query parameter as a snowflake (a bad one is Discord's invalid form body)."""
        raw = self.query.get(name, "")
        if not raw.isdigit():
            error = FormError((name,), "NUMBER_TYPE_COERCE", f"Value \"{raw}\" is not snowflake.")
            raise form_error([error])
        return int(raw)

    @property
    def json(self) -> JSONObject:
        """The body as a JSON object (``{}`` if absent)."""
        return self.body if isinstance(self.body, dict) else {}


Result = JSONObject | list[JSONObject] | None
Handler = Callable[[Call], Awaitable[Result]]


@dataclass(frozen=True)
class Route:
    """A method and path pattern such as ``/channels/{channel_id}/messages``."""

    method: str
    pattern: str
    handler: Handler
    authenticated: bool = True

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """The pattern compiled, one named group per ``{parameter}``."""
        return re.compile(
            "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(self.pattern)) + "$"
        )

    def match(self, method: str, path: str) -> dict[str, str] | None:
        """Path parameters if this route serves the request."""
        if method != self.method:
            return None
        found = self.regex.match(path)
        return None if found is None else found.groupdict()


def json_response(status: int, body: Any, headers: Mapping[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json`` (discord.py uses ==)."""
    extra = dict(headers or {})
    if body is None:
        return web.Response(status=204 if status == 200 else status, headers=extra)
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **extra},
    )
