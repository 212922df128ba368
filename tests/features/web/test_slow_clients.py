"""Slow clients hold sockets, never the event loop: while many connections trickle their
headers a byte at a time (slowloris), other members' pages are answered; a connection that sends
nothing is closed after the idle timeout."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.features.web import web as web_module
from bot.features.web.web import GatewayDirectory, WebPages, WebServer
from bot.settings import WebSettings
from tests.features.web.conftest import BASE, GUILD, Site

SLOW_CLIENTS = 50
ANSWER_BOUND = 10.0
"""Seconds a page may take under the slow clients before the test calls the loop held (a
liveness bound, far above a normal answer, never a measurement)."""


@pytest.fixture
async def server(site: Site, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[WebServer]:
    monkeypatch.setattr(web_module, "IDLE_SECONDS", 0.5)
    pages = WebPages(GatewayDirectory(site.client), site.pages)  # type: ignore[arg-type]
    running = WebServer(WebSettings(host="127.0.0.1", port=0), [pages.add_routes])
    await running.start()
    yield running
    await running.stop()


async def _trickle(port: int, path: str, stop: asyncio.Event) -> None:
    """A slowloris client: the request line, then one header byte at a time, forever."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
        while not stop.is_set():
            writer.write(b"X")
            await writer.drain()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.05)
    except ConnectionError:
        pass
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_pages_are_answered_while_slow_clients_trickle(server: WebServer,
                                                             site: Site) -> None:
    url = await site.pages.link(GUILD)
    assert url is not None
    path = url.removeprefix(BASE)
    stop = asyncio.Event()
    slow = [asyncio.create_task(_trickle(server.port, path, stop)) for _ in range(SLOW_CLIENTS)]
    try:
        await asyncio.sleep(0.3)  # every slow client connected and trickling
        async with aiohttp.ClientSession() as http:
            for _ in range(10):
                async with asyncio.timeout(ANSWER_BOUND):
                    async with http.get(f"http://127.0.0.1:{server.port}{path}") as response:
                        assert response.status == 200
                        assert "Reading Club" in await response.text()
        assert not any(task.done() for task in slow)  # still connected: only they wait
    finally:
        stop.set()
        await asyncio.gather(*slow)


async def test_a_silent_connection_is_closed(server: WebServer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        async with asyncio.timeout(ANSWER_BOUND):
            assert await reader.read() == b""  # closed by the server, nothing sent
    finally:
        writer.close()
