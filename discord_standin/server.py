"""The stand-in server: lifecycle and discord.py wiring; what tests and local mode do with it is
`injection` (interactions as a user) and `controls` (the world, the gateway, faults)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import ClassVar

import discord
from aiohttp import web

from .bot_runs import BotRuns
from .controls import StandInControls
from .endpoints import discord_pointed_at
from .faults import GlobalRateLimiter
from .gateway import Gateway
from .injection import InteractionInjection
from .model import DEFAULT_BOT_PERMISSIONS, Guild, User
from .rest import API_PREFIX, RestApi
from .sharding import SESSION_STARTS_PER_DAY, Sharding
from .state import NONCE_WINDOW_SECONDS, World


class StandIn(InteractionInjection, StandInControls):
    """A local Discord (REST + gateway on 127.0.0.1) that an unmodified discord.py client uses.

    ``async with StandIn(guilds=[...]) as standin:`` starts it and points discord.py at it;
    leaving the block closes started bots, stops the server and restores discord.py.
    """

    _active: ClassVar[StandIn | None] = None

    def __init__(
        self,
        *,
        guilds: Iterable[Guild] = (),
        bot_user: User | None = None,
        token: str | None = None,
        heartbeat_interval: float = 41.25,
        rate_limit: int | None = None,
        compress: bool = False,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        host: str = "127.0.0.1",
        port: int = 0,
        nonce_window: float = NONCE_WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        shards: int | None = None,
        max_concurrency: int = 1,
        session_starts: int = SESSION_STARTS_PER_DAY,
    ) -> None:
        """``token=None`` accepts any token; ``rate_limit`` enables the global requests/s limit
        (per token, shared by every connection and process using it).

        A nonce sent with ``enforce_nonce`` is remembered for ``nonce_window`` seconds of
        ``clock`` (a test may pass a clock it moves on to let the window pass at once); the
        global rate limit and the IDENTIFY spacing are timed by the same clock.
        ``GET /gateway/bot`` recommends ``shards`` (default: one per 1,000 guilds); IDENTIFYs
        of one ``shard_id % max_concurrency`` bucket are 5 s of ``clock`` apart, at most
        ``session_starts`` in all."""
        self.bot_user = bot_user or User("paperclub", bot=True)
        self.world = World(
            self.bot_user, bot_permissions=bot_permissions, nonce_window=nonce_window, clock=clock
        )
        for guild in guilds:
            self.world.add_guild(guild)
        self.host, self._port = host, port
        self.gateway = Gateway(
            bot_user=self.bot_user,
            application_flags=0,
            ready_guilds=lambda: [g.payload() for g in self.world.guilds.values()],
            resume_url=lambda: self.url.replace("http", "ws", 1) + "/gateway/resume",
            heartbeat_interval=heartbeat_interval,
            token=token,
            compress=compress,
            sharding=Sharding(recommended_shards=shards, max_concurrency=max_concurrency,
                              session_starts=session_starts, clock=clock),
        )
        self.rest = RestApi(
            self.world, self.gateway.dispatch, token=token, base_url=lambda: self.url,
            gateway_bot=lambda: self.gateway.sharding.gateway_bot(
                self.gateway_url, len(self.world.guilds)),
        )
        if rate_limit is not None:
            self.rest.new_limiter = lambda: GlobalRateLimiter(rate_limit)
        self._runner: web.AppRunner | None = None
        self._endpoints: contextlib.ExitStack | None = None
        self._bots = BotRuns()

    # -- lifecycle ----------------------------------------------------------------------------

    async def __aenter__(self) -> StandIn:
        self._claim_discord()
        try:
            await self.start()
        except BaseException:
            StandIn._active = None
            raise
        self._endpoints = contextlib.ExitStack()
        self._endpoints.enter_context(discord_pointed_at(self.rest_base, self.gateway_url))
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        """Start serving on ``host`` (a free port unless one was given)."""
        app = web.Application()
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/resume", self.gateway.handle)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        await site.start()
        self._port = int(self._runner.addresses[0][1])

    def _claim_discord(self) -> None:
        """discord.py's endpoints are process-wide: only one stand-in may own them at a time."""
        if StandIn._active is not None:
            raise RuntimeError(
                "another StandIn already owns discord.py's endpoints in this process"
            )
        StandIn._active = self

    async def close(self) -> None:
        """Close started bots, stop the server and restore discord.py's endpoints."""
        for stall in self.rest.stalls:
            stall.release()
        failures = []
        for bot in self._bots:
            try:
                await self.stop_bot(bot)
            except Exception as error:
                failures.append(error)
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._endpoints is not None:
            self._endpoints.close()
            self._endpoints = None
        if StandIn._active is self:
            StandIn._active = None
        if failures:
            raise failures[0]

    @property
    def url(self) -> str:
        """``http://host:port`` of the running server."""
        return f"http://{self.host}:{self._port}"

    @property
    def rest_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The value for ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return self.url.replace("http", "ws", 1) + "/gateway"

    @property
    def application_id(self) -> int:
        """The application id (equal to the bot user's id)."""
        return self.world.application_id

    # -- bots ---------------------------------------------------------------------------------

    async def start_bot(
        self,
        bot: discord.Client,
        *,
        token: str = "standin-token",  # noqa: S107 - not a secret
        timeout: float = 10.0,
    ) -> None:
        """Run ``bot.start(token)`` in a task and return once the bot is ready."""
        await self._bots.start(bot, token, timeout=timeout,
                               name=f"standin-bot-{self.bot_user.name}")

    async def stop_bot(self, bot: discord.Client) -> None:
        """Close ``bot`` and wait for its task; re-raises what the task raised."""
        await self._bots.stop(bot)
