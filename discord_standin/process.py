"""The stand-in in a process of its own: Discord on one port, a small JSON control API on another.

``python -m discord_standin --guild "Reading Group" --channel general --member reader`` starts
it and prints one JSON line (the REST base and gateway URL to point discord.py at, the control
URL, and the ids of the guilds, channels and members); it serves until ``POST /stop`` or
SIGTERM. A driver in another process (the interactions bench) runs batches of slash commands
through ``POST /interactions``: the stand-in injects each one, waits for the bot's first
callback and times it here, so the figures hold none of the driver's own work.

Control API (JSON in, JSON out, on 127.0.0.1):

- ``POST /interactions`` ``{"command", "options": [{...}, ...], "guild", "user", "in_flight",
  "keep", "timeout"}``: each options object is one interaction of ``command``; ``in_flight`` of
  them at once (default 1, each after ``settle``); then all but ``keep`` interactions are
  forgotten (when given). Answers ``{"results": [{"type", "inject_ms", "answer_ms"}],
  "seconds", "cpu_seconds"}``: ``inject_ms`` from the call until INTERACTION_CREATE was sent,
  ``answer_ms`` from then until the first callback (``type`` null: none within ``timeout``);
  ``seen_ms`` until what the member sees (the callback, or the followup after a deferral; the
  batch answers once every one has it); the batch's wall time (until the last first callback)
  and the stand-in process's CPU time.
- ``GET /problems``: the stand-in's internal errors and requests it did not know.
- ``POST /stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
import time
from collections.abc import Sequence
from typing import Any

from aiohttp import web

from .interactions import InteractionHandle
from .model import Guild, JSONObject, User
from .server import StandIn

JSON_TYPE = "application/json"


def _reply(data: object) -> web.Response:
    return web.Response(text=json.dumps(data), content_type=JSON_TYPE)


class ControlApi:
    """The control routes over one running stand-in."""

    def __init__(self, standin: StandIn, guilds: Sequence[Guild], users: Sequence[User]) -> None:
        self.standin = standin
        self.guilds = {g.id: g for g in guilds}
        self.users = {u.id: u for u in users}
        self.stopped = asyncio.Event()

    def app(self) -> web.Application:
        """The aiohttp application serving the control routes."""
        app = web.Application()
        app.router.add_post("/interactions", self.interactions)
        app.router.add_get("/problems", self.problems)
        app.router.add_post("/stop", self.stop)
        return app

    async def interactions(self, request: web.Request) -> web.Response:
        """Run a batch of slash commands and time each one's first callback."""
        body = await request.json()
        try:
            guild = self.guilds[int(body["guild"])] if body.get("guild") else None
            user = self.users[int(body["user"])]
            batch = [dict(options) for options in body["options"]]
            in_flight, timeout = int(body.get("in_flight", 1)), float(body.get("timeout", 30))
        except (KeyError, TypeError, ValueError) as exc:
            raise web.HTTPBadRequest(text=f"bad batch: {exc!r}") from None
        if in_flight < 1:
            raise web.HTTPBadRequest(text="in_flight must be at least 1")
        results: list[JSONObject] = [{} for _ in batch]
        queue = iter(range(len(batch)))
        answers: list[asyncio.Task[None]] = []

        async def worker() -> None:
            for index in queue:
                if in_flight == 1:
                    await self.standin.settle()  # the previous answer's trailing requests
                handle, sent = await self._first(str(body["command"]), batch[index], guild,
                                                 user, timeout, results[index])
                answers.append(asyncio.create_task(
                    self._seen(handle, sent, timeout, results[index])))

        started, cpu = time.perf_counter(), time.process_time()
        async with asyncio.TaskGroup() as group:
            for _ in range(min(in_flight, len(batch))):
                group.create_task(worker())
        seconds = time.perf_counter() - started
        await asyncio.gather(*answers)  # no lookup's work spills into the next batch
        cpu = time.process_time() - cpu
        if body.get("keep") is not None:
            await self.standin.settle()
            self.standin.forget_history(keep=int(body["keep"]))
        return _reply({"results": results, "seconds": seconds, "cpu_seconds": cpu})

    async def _first(self, command: str, options: JSONObject, guild: Guild | None, user: User,
                     timeout: float, into: JSONObject) -> tuple[InteractionHandle, float]:
        """Inject one interaction and wait for its first callback."""
        called = time.perf_counter()
        handle = await self.standin.slash(command, options, guild=guild, user=user)
        sent = time.perf_counter()
        into["type"] = None
        with contextlib.suppress(TimeoutError):
            into["type"] = int((await handle.response(timeout=timeout)).type)
        into["inject_ms"] = (sent - called) * 1000
        into["answer_ms"] = (time.perf_counter() - sent) * 1000
        return handle, sent

    async def _seen(self, handle: InteractionHandle, sent: float, timeout: float,
                    into: JSONObject) -> None:
        """Wait for what the member sees (the callback, or the followup after a deferral)."""
        into["seen_ms"] = None
        with contextlib.suppress(TimeoutError):
            await handle.reply(timeout=timeout)
            into["seen_ms"] = (time.perf_counter() - sent) * 1000

    async def problems(self, _: web.Request) -> web.Response:
        """What went wrong inside the stand-in, as text."""
        return _reply({"internal_errors": [repr(e) for e in self.standin.internal_errors],
                       "unknown_requests": [str(r) for r in self.standin.unknown_requests]})

    async def stop(self, _: web.Request) -> web.Response:
        """Stop serving (after this answer)."""
        self.stopped.set()
        return _reply({})


def describe(standin: StandIn, control_url: str, guilds: Sequence[Guild],
             users: Sequence[User]) -> dict[str, Any]:
    """The line a driver reads first: where everything is, and the ids it addresses."""
    return {
        "rest_base": standin.rest_base, "gateway_url": standin.gateway_url,
        "control": control_url, "application_id": str(standin.application_id),
        "guilds": [{"id": str(g.id), "name": g.name,
                    "channels": {c.name: str(c.id) for c in g.channels}} for g in guilds],
        "users": {u.name: str(u.id) for u in users},
    }


async def serve(guilds: Sequence[Guild], users: Sequence[User], *, port: int = 0,
                control_port: int = 0) -> None:
    """Run the stand-in and its control API until told to stop."""
    async with StandIn(guilds=guilds, port=port) as standin:
        control = ControlApi(standin, guilds, users)
        runner = web.AppRunner(control.app(), handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, standin.host, control_port).start()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, control.stopped.set)
        try:
            control_url = f"http://{standin.host}:{runner.addresses[0][1]}"
            print(json.dumps(describe(standin, control_url, guilds, users)), flush=True)
            await control.stopped.wait()
        finally:
            await runner.cleanup()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m discord_standin``: one guild with the given channels and members."""
    parser = argparse.ArgumentParser(prog="python -m discord_standin", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--guild", default="Reading Group", help="the guild's name")
    parser.add_argument("--channel", action="append", help="a text channel (repeatable)")
    parser.add_argument("--member", action="append", help="a member's name (repeatable)")
    parser.add_argument("--port", type=int, default=0, help="Discord's port (default: any)")
    parser.add_argument("--control-port", type=int, default=0, help="the control API's port")
    args = parser.parse_args(argv)
    users = [User(name) for name in args.member or ["member"]]
    guild = Guild(args.guild, channels=args.channel or ["general"], members=users)
    try:
        asyncio.run(serve([guild], users, port=args.port, control_port=args.control_port))
    except OSError as exc:
        print(f"python -m discord_standin: {exc}", file=sys.stderr)
        return 2
    return 0
