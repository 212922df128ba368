"""Injected failures (429, 5xx, 403, 404) and an optional global rate limiter."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import math
from collections import deque
from dataclasses import dataclass, field

from aiohttp import web

from .model import JSONObject


@dataclass(frozen=True)
class Fault:
    """One canned error answer: status, JSON body and extra headers."""

    status: int
    body: JSONObject
    headers: dict[str, str] = field(default_factory=dict)

    def response(self) -> web.Response:
        """This fault as an aiohttp response (JSON, or empty when there is no body)."""
        headers = dict(self.headers)
        if not self.body:
            return web.Response(status=self.status, headers=headers)
        headers["Content-Type"] = "application/json"
        return web.Response(
            status=self.status, body=json.dumps(self.body).encode(), headers=headers
        )

    @classmethod
    def rate_limited(cls, retry_after: float = 0.05, *, is_global: bool = False) -> Fault:
        """A proper Discord 429 (``Via`` header, JSON ``retry_after``) that clients retry."""
        return cls(
            429,
            rate_limit_body(retry_after, is_global=is_global),
            rate_limit_headers(retry_after, is_global=is_global),
        )

    @classmethod
    def cloudflare_ban(cls) -> Fault:
        """A 429 without ``Via`` or JSON, which discord.py raises at once."""
        return cls(429, {}, {"Retry-After": "10"})

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        """A 5xx answer (500, 502, 504 and 524 are retried by discord.py)."""
        return cls(status, {"message": f"{status}: Internal Server Error", "code": 0})

    @classmethod
    def error(cls, status: int, code: int, message: str) -> Fault:
        """Any Discord JSON error."""
        return cls(status, {"message": message, "code": code})

    @classmethod
    def cannot_dm(cls) -> Fault:
        """403, code 50007: the user has DMs closed."""
        return cls.error(403, 50007, "Cannot send messages to this user")

    @classmethod
    def missing_permissions(cls) -> Fault:
        """403, code 50013."""
        return cls.error(403, 50013, "Missing Permissions")

    @classmethod
    def missing_access(cls) -> Fault:
        """403, code 50001."""
        return cls.error(403, 50001, "Missing Access")

    @classmethod
    def unknown_channel(cls) -> Fault:
        """404, code 10003."""
        return cls.error(404, 10003, "Unknown Channel")


def rate_limit_body(retry_after: float, *, is_global: bool) -> JSONObject:
    """Discord's 429 JSON body."""
    return {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
        "code": 0,
    }


def rate_limit_headers(retry_after: float, *, is_global: bool) -> dict[str, str]:
    """Discord's 429 headers (``Via`` tells discord.py this is not a Cloudflare ban)."""
    headers = {
        "Via": "1.1 google",
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    else:
        headers |= {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        }
    return headers


@dataclass
class FaultRule:
    """Answer the next ``remaining`` requests matching ``method`` and ``path`` with ``fault``.

    ``path`` is a glob over the route path without the API prefix, e.g.
    ``/interactions/*/callback`` (``*`` also matches ``/``). With ``after_processing`` the
    request takes effect first and only its answer is lost, as when a connection drops.
    """

    method: str
    path: str
    fault: Fault
    remaining: int = 1
    after_processing: bool = False
    hits: int = 0

    def take(self, method: str, path: str) -> bool:
        """Consume one use if this rule matches the request."""
        if self.remaining <= 0 or not matches(self.method, self.path, method, path):
            return False
        self.remaining -= 1
        self.hits += 1
        return True


def matches(rule_method: str, rule_path: str, method: str, path: str) -> bool:
    """Whether a request is one a rule (method, glob path) names."""
    return method.upper() == rule_method.upper() and fnmatch.fnmatchcase(path, rule_path)


@dataclass
class Stall:
    """Hold back the answers of the next ``remaining`` requests matching ``method`` and glob
    ``path`` until ``release()``: each is carried out at once, its answer arrives late (a slow
    network or a slow Discord). ``reached`` is set when the first is held."""

    method: str
    path: str
    remaining: int = 1
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def take(self, method: str, path: str) -> bool:
        """Consume one use if this stall matches the request."""
        if self.remaining <= 0 or not matches(self.method, self.path, method, path):
            return False
        self.remaining -= 1
        return True

    async def hold(self) -> None:
        """Wait, as one held answer, until released."""
        self.reached.set()
        await self.released.wait()

    def release(self) -> None:
        """Let every held answer (and later ones) go."""
        self.released.set()


class GlobalRateLimiter:
    """Discord's global limit: ``per_second`` requests in any rolling second, else a global 429."""

    def __init__(self, per_second: int = 50) -> None:
        self.per_second = per_second
        self.rejected = 0
        self._recent: deque[float] = deque()

    def check(self, now: float) -> float | None:
        """Admit a request at ``now`` (seconds), or return how long the client must wait."""
        while self._recent and now - self._recent[0] >= 1.0:
            self._recent.popleft()
        if len(self._recent) < self.per_second:
            self._recent.append(now)
            return None
        self.rejected += 1
        return max(0.001, 1.0 - (now - self._recent[0]))
