"""Local mode's web page: the bot's web server on 127.0.0.1 (the configured port, or any free
one when it is taken), so `dev.py demo` prints a page link that opens in a browser."""

from __future__ import annotations

import socket

from bot.settings import Settings, WebSettings


def _free(host: str, port: int) -> int:
    """`port` if nothing listens on it, else a free one."""
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            probe.bind((host, 0))
        return int(probe.getsockname()[1])


def local_web(settings: Settings) -> WebSettings:
    """`[web]` for local mode: on, on 127.0.0.1, at its own address (no public base URL)."""
    host = "127.0.0.1"
    return WebSettings(enabled=True, host=host, port=_free(host, settings.web.port or 8080))
