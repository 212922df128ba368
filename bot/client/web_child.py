"""`[web] process = "own"`: the bot starts `paperclub web` as a child process with its own
configuration and watches it. A child that exits on its own is started again after a back-off
(1 s, doubling to `MAX_BACKOFF`; back to 1 s once a child has run `STEADY_SECONDS`); the bot's
close terminates it (SIGTERM, then SIGKILL after `STOP_SECONDS`). The child is told the bot's
process id and stops by itself if the bot dies first."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable, Mapping

from bot.settings import ENV_PREFIX, TOKEN_ENV, Settings

log = logging.getLogger(__name__)
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
STEADY_SECONDS = 60.0
"""A child that ran this long counts as healthy: the next restart waits `FIRST_BACKOFF`."""
STOP_SECONDS = 10.0


def settings_env(settings: Settings, *, api_base: str) -> dict[str, str]:
    """The settings as `PAPERCLUB_SECTION__KEY` variables (each value a TOML literal), so
    `load_settings` in the child reads exactly them; Discord's REST API at `api_base` (where the
    bot reaches it)."""
    env: dict[str, str] = {}
    data = settings.model_dump(mode="json", exclude_none=True)
    data["discord"]["api_base"] = api_base
    for section, values in data.items():
        for key, value in values.items():
            env[f"{ENV_PREFIX}{section.upper()}__{key.upper()}"] = json.dumps(
                value, ensure_ascii=False)
    return env


def child_env(settings: Settings, *, api_base: str, token: str,
              inherited: Mapping[str, str]) -> dict[str, str]:
    """The child's environment: the bot's, with every paperclub variable replaced by the
    settings the bot runs with, and the token it logged in with."""
    env = {name: value for name, value in inherited.items()
           if not name.upper().startswith(ENV_PREFIX) and name != TOKEN_ENV}
    return env | settings_env(settings, api_base=api_base) | {TOKEN_ENV: token}


def web_command() -> list[str]:
    """`paperclub web` as this interpreter runs it, told the bot's process id."""
    return [sys.executable, "-m", "bot", "web", "--parent-pid", str(os.getpid())]


class WebChild:
    """The `paperclub web` child process, restarted when it exits unexpectedly."""

    def __init__(self, env: Mapping[str, str], *, command: list[str] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.env = dict(env)
        self.command = command or web_command()
        self.sleep = sleep
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._watch: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def pid(self) -> int | None:
        """The running child's process id."""
        return self.process.pid if self.process is not None else None

    def start(self) -> None:
        """Start the child and watch it (in the background)."""
        self._watch = asyncio.create_task(self._run(), name="paperclub web child")

    async def _spawn(self) -> asyncio.subprocess.Process:
        process = await asyncio.create_subprocess_exec(*self.command, env=self.env,
                                                       stdin=asyncio.subprocess.DEVNULL)
        self.process, self.starts = process, self.starts + 1
        log.info("web pages: started `paperclub web` (pid %s)", process.pid)
        return process

    async def _run(self) -> None:
        backoff = FIRST_BACKOFF
        while not self._stopping:
            started = time.monotonic()
            try:
                process = await self._spawn()
            except OSError as exc:
                log.error("web pages: cannot start `paperclub web`: %s", exc)
                code: int | str = "an error"
            else:
                code = await process.wait()  # stop() cancels this wait before terminating it
            if time.monotonic() - started >= STEADY_SECONDS:
                backoff = FIRST_BACKOFF
            log.error("web pages: `paperclub web` exited with %s; starting it again in %g s",
                      code, backoff)
            await self.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF)

    async def stop(self) -> None:
        """Stop watching, then terminate the child (SIGKILL after `STOP_SECONDS`)."""
        self._stopping = True
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        log.info("web pages: `paperclub web` (pid %s) stopped", process.pid)
