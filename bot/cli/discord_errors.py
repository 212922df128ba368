"""Discord failures as the one line the command line prints: which URL, and why."""

from __future__ import annotations

import os
import ssl
from collections.abc import Sequence

import aiohttp
import discord
from yarl import URL

REFUSED_LOGIN = ("Discord refused the token (DISCORD_TOKEN); reset it in the Developer Portal "
                 "and try again")


def _url_for(exc: aiohttp.ClientConnectionError, urls: Sequence[str]) -> str:
    """The configured URL the failed connection was for (the first one when unknown)."""
    host = getattr(exc, "host", None)
    port = getattr(exc, "port", None)
    if host is None:
        return urls[0]
    for candidate in urls:
        url = URL(candidate)
        if url.host == host and (port is None or url.port == port):
            return candidate
    scheme = "https" if getattr(exc, "ssl", True) not in (False, None) else "http"
    return f"{scheme}://{host}:{port}" if port else f"{scheme}://{host}"


def _why(exc: BaseException) -> str:
    """A short human reason: DNS, refused, TLS, timeout, disconnect."""
    if isinstance(exc, aiohttp.ClientConnectorCertificateError):
        cert = exc.certificate_error
        detail = getattr(cert, "verify_message", None) or getattr(cert, "reason", None) or cert
        return f"TLS certificate not accepted ({detail})"
    if isinstance(exc, aiohttp.ClientConnectorSSLError | aiohttp.ClientSSLError):
        error = exc.os_error
        reason = error.reason if isinstance(error, ssl.SSLError) else None
        detail = (reason or str(error)).replace("_", " ").lower()
        return f"TLS handshake failed ({detail})"
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return f"the host name could not be resolved ({exc.os_error.strerror or exc.os_error})"
    if isinstance(exc, aiohttp.ClientConnectorError):
        error = exc.os_error
        if isinstance(error, ssl.SSLError):
            return f"TLS handshake failed ({(error.reason or str(error)).lower()})"
        if error.errno:
            return os.strerror(error.errno).lower()
        return str(error.strerror or error or type(error).__name__)
    if isinstance(exc, aiohttp.ServerTimeoutError | TimeoutError):
        return "timed out"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "the server closed the connection"
    return str(exc) or type(exc).__name__


def cannot_reach(exc: aiohttp.ClientConnectionError | TimeoutError, urls: Sequence[str]) -> str:
    """`cannot reach <url>: <why>` for a connection that failed; `urls` are the configured
    endpoints (REST base first), matched against the failed host."""
    url = _url_for(exc, urls) if isinstance(exc, aiohttp.ClientConnectionError) else urls[0]
    return f"cannot reach {url}: {_why(exc)}"


def refused(exc: discord.HTTPException, api_base: str) -> str:
    """Discord answered, but with an error (after discord.py's own retries)."""
    if isinstance(exc, discord.DiscordServerError):
        return f"cannot reach {api_base}: Discord answered {exc.status} ({exc.text or 'no reason'})"
    return f"Discord refused the request: {exc.status} {exc.text or ''}".strip()


DISCORD_ERRORS = (discord.LoginFailure, discord.HTTPException, aiohttp.ClientConnectionError,
                  TimeoutError)
"""What `describe` turns into a line; anything else is a bug and keeps its traceback."""


def describe(exc: BaseException, urls: Sequence[str]) -> str:
    """The one line for a failure in `DISCORD_ERRORS`."""
    if isinstance(exc, discord.LoginFailure):
        return REFUSED_LOGIN
    if isinstance(exc, discord.HTTPException):
        return refused(exc, urls[0])
    if isinstance(exc, aiohttp.ClientConnectionError | TimeoutError):
        return cannot_reach(exc, urls)
    raise TypeError(f"not a Discord failure: {exc!r}")
