"""The stand-in server: lifecycle, discord.py wiring, and the API tests and local mode use."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import ClassVar

import discord
from aiohttp import web

from .endpoints import discord_pointed_at
from .faults import Fault, FaultRule, GlobalRateLimiter, Stall
from .gateway import CloseHow, Gateway, GatewayStats, Intent
from .interactions import (
    MESSAGE_COMMAND,
    InteractionHandle,
    InteractionType,
    OptionValue,
    base_payload,
    command_data,
    component_data,
    message_command_data,
    modal_data,
)
from .model import DEFAULT_BOT_PERMISSIONS, Channel, ChannelType, Guild, JSONObject, Message, User
from .rest import API_PREFIX, RecordedRequest, RestApi
from .sharding import SESSION_STARTS_PER_DAY, Sharding
from .state import NONCE_WINDOW_SECONDS, World


class StandIn:
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
        self._bots: dict[discord.Client, asyncio.Task[None]] = {}

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
        for bot in list(self._bots):
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
        task = asyncio.create_task(bot.start(token), name=f"standin-bot-{self.bot_user.name}")
        self._bots[bot] = task
        try:
            async with asyncio.timeout(timeout):
                while not bot.is_ready():
                    if task.done():
                        task.result()
                        raise RuntimeError("the bot stopped before it was ready")
                    await asyncio.sleep(0.005)
        except BaseException:
            with contextlib.suppress(Exception):
                await self.stop_bot(bot)
            raise

    async def stop_bot(self, bot: discord.Client) -> None:
        """Close ``bot`` and wait for its task; re-raises what the task raised."""
        task = self._bots.pop(bot, None)
        await bot.close()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- the world ----------------------------------------------------------------------------

    async def add_guild(self, guild: Guild) -> Guild:
        """Add a guild; connected bots get a GUILD_CREATE."""
        self.world.add_guild(guild)
        await self.gateway.dispatch("GUILD_CREATE", guild.payload(), intent=int(Intent.GUILDS))
        return guild

    async def say(self, channel: Channel, user: User, content: str) -> Message:
        """A member's message in ``channel`` (chatter in the history the bot may page through)."""
        author = self.world.add_user(user)
        message = self.world.create_message(channel, author, {"content": content})
        await self.gateway.dispatch(
            "MESSAGE_CREATE", message.payload(), intent=int(Intent.GUILD_MESSAGES)
        )
        return message

    def scheduled_events(self, guild: Guild) -> list[JSONObject]:
        """The guild's scheduled events, as Discord returns them."""
        return [e for e in self.world.scheduled_events.values() if e["guild_id"] == str(guild.id)]

    def set_clock(self, clock: Callable[[], datetime]) -> None:
        """The instant the stand-in checks times against (default: the real clock)."""
        self.world.now = clock

    async def delete_channel(self, channel: Channel) -> None:
        """Delete a channel or thread as a moderator would; bots get CHANNEL/THREAD_DELETE."""
        self.world.delete_channel(channel)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        data = {"id": str(channel.id), "guild_id": str(channel.guild_id), "type": int(channel.type),
                "parent_id": None if channel.parent_id is None else str(channel.parent_id)}
        await self.gateway.dispatch(event, data, intent=int(Intent.GUILDS))

    def messages(self, channel: Channel, *, ephemeral: bool = False) -> list[Message]:
        """Messages everyone sees in ``channel``, oldest first; ``ephemeral`` adds private ones."""
        return [m for m in self.world.visible_messages(channel.id) if ephemeral or not m.ephemeral]

    def message(self, message_id: int) -> Message:
        """A stored message by id."""
        return self.world.messages[message_id]

    def attachment_data(self, attachment: JSONObject) -> bytes:
        """The bytes the bot uploaded for an attachment of a message or callback."""
        return self.world.attachment_bytes[int(attachment["id"])]

    @property
    def attachment_size_limit(self) -> int:
        """Largest file (bytes) the stand-in takes; interactions announce it to the bot."""
        return self.world.attachment_size_limit

    @attachment_size_limit.setter
    def attachment_size_limit(self, limit: int) -> None:
        self.world.attachment_size_limit = limit

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user`` (created on first use)."""
        return self.world.dm_channel(user)

    def names(self) -> dict[int, str]:
        """Ids of users, roles and channels mapped to names, for ``render_message(names=...)``."""
        found = {user.id: user.name for user in self.world.users.values()}
        for guild in self.world.guilds.values():
            found |= {role.id: role.name.removeprefix("@") for role in guild.roles}
        return found | {c.id: c.name for c in self.world.channels.values() if not c.is_dm}

    def commands(self, guild: Guild | None = None) -> list[JSONObject]:
        """Commands the bot registered globally, or in ``guild``."""
        return list(self.world.commands.get(None if guild is None else guild.id, []))

    # -- injecting interactions ---------------------------------------------------------------

    async def slash(
        self,
        command: str,
        options: Mapping[str, OptionValue] | None = None,
        *,
        guild: Guild | None = None,
        channel: Channel | None = None,
        user: User | None = None,
        permissions: int | None = None,
        locale: str = "en-US",
    ) -> InteractionHandle:
        """Invoke ``/command`` (``"group sub"`` for subcommands); a DM when no guild or channel."""
        handle, payload = self._command_interaction(
            command,
            InteractionType.APPLICATION_COMMAND,
            options,
            guild=guild,
            channel=channel,
            user=user,
            permissions=permissions,
            locale=locale,
        )
        return await self._inject(handle, payload)

    async def message_command(
        self,
        name: str,
        message: Message,
        *,
        user: User | None = None,
        permissions: int | None = None,
        locale: str = "en-US",
    ) -> InteractionHandle:
        """Apps -> ``name`` on ``message``, as a member of its channel (a message command: type 3;
        the message, content included, arrives in ``data.resolved.messages`` whatever the
        bot's intents, as Discord sends it)."""
        stored = self.world.messages.get(message.id)
        if stored is None or stored.deleted:
            raise LookupError(f"message {message.id} is not (or no longer) in the stand-in")
        guild, channel, user = self._where(None, self.world.channels[stored.channel_id], user)
        schema = self.world.find_command(
            name, None if guild is None else guild.id, kind=MESSAGE_COMMAND)
        if schema is None:
            raise LookupError(f"no message command {name!r} is registered (did the bot sync?)")
        if guild is None and (
            schema.get("dm_permission") is False
            or (schema.get("contexts") is not None and 1 not in schema["contexts"])
        ):
            raise ValueError(f"{name!r} is guild-only: Discord does not offer it in DMs")
        handle = InteractionHandle(
            self.world, kind=InteractionType.APPLICATION_COMMAND, name=name, user=user,
            channel=channel, guild=guild)
        payload = base_payload(handle, self.world, locale=locale, permissions=permissions)
        payload["data"] = message_command_data(schema, stored)
        return await self._inject(handle, payload)

    async def autocomplete(
        self,
        command: str,
        options: Mapping[str, OptionValue],
        *,
        focused: str,
        guild: Guild | None = None,
        channel: Channel | None = None,
        user: User | None = None,
        locale: str = "en-US",
        timeout: float = 5.0,
    ) -> list[JSONObject]:
        """Type into option ``focused`` of ``/command`` and return the bot's choices."""
        handle, payload = self._command_interaction(
            command,
            InteractionType.AUTOCOMPLETE,
            options,
            guild=guild,
            channel=channel,
            user=user,
            locale=locale,
            focused=focused,
        )
        await self._inject(handle, payload)
        return await handle.choices(timeout=timeout)

    async def click(
        self, message: Message, custom_id: str, *, user: User | None = None,
        locale: str = "en-US",
    ) -> InteractionHandle:
        """Click the button ``custom_id`` on ``message`` (as a user of Discord in ``locale``)."""
        return await self._component(message, custom_id, None, user, locale)

    async def select(
        self, message: Message, custom_id: str, values: Sequence[str], *, user: User | None = None
    ) -> InteractionHandle:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``."""
        return await self._component(message, custom_id, values, user)

    async def submit_modal(
        self, opened_by: InteractionHandle, values: Mapping[str, str | Sequence[str]]
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"{opened_by!r} was not answered with a modal")
        handle = InteractionHandle(
            self.world,
            kind=InteractionType.MODAL_SUBMIT,
            name=str(modal["custom_id"]),
            user=opened_by.user,
            channel=opened_by.channel,
            guild=opened_by.guild,
            source=opened_by.source,
        )
        payload = base_payload(
            handle, self.world, locale=opened_by.payload.get("locale", "en-US"), permissions=None
        )
        payload["data"] = modal_data(modal, values)
        if handle.source is not None:
            payload["message"] = handle.source.payload()
        return await self._inject(handle, payload)

    async def settle(self) -> None:
        """Let a bot on this event loop finish handling answers already sent to it."""
        for _ in range(3):
            while self.rest.in_flight:
                await asyncio.sleep(0.001)
            for _ in range(10):
                await asyncio.sleep(0)

    def _command_interaction(
        self,
        command: str,
        kind: InteractionType,
        options: Mapping[str, OptionValue] | None,
        *,
        guild: Guild | None,
        channel: Channel | None,
        user: User | None,
        locale: str,
        permissions: int | None = None,
        focused: str | None = None,
    ) -> tuple[InteractionHandle, JSONObject]:
        name, *path = command.removeprefix("/").split()
        guild, channel, user = self._where(guild, channel, user)
        schema = self.world.find_command(name, None if guild is None else guild.id)
        if schema is None:
            known = sorted({c["name"] for scope in self.world.commands.values() for c in scope})
            where = "in DMs" if guild is None else f"in {guild!r}"
            raise LookupError(
                f"/{name} is not registered {where} (registered: {known}; did the bot sync?)"
            )
        if guild is None and (
            schema.get("dm_permission") is False
            or (schema.get("contexts") is not None and 1 not in schema["contexts"])
        ):
            raise ValueError(f"/{name} is guild-only: Discord does not offer it in DMs")
        handle = InteractionHandle(
            self.world,
            kind=kind,
            name=command.removeprefix("/"),
            user=user,
            channel=channel,
            guild=guild,
        )
        payload = base_payload(handle, self.world, locale=locale, permissions=permissions)
        payload["data"] = command_data(
            self.world, schema, path, options or {}, handle=handle, focused=focused
        )
        return handle, payload

    async def _component(
        self,
        message: Message,
        custom_id: str,
        values: Sequence[str] | None,
        user: User | None,
        locale: str = "en-US",
    ) -> InteractionHandle:
        stored = self.world.messages.get(message.id)
        if stored is None or stored.deleted:
            raise LookupError(f"message {message.id} is not (or no longer) in the stand-in")
        channel = self.world.channels[stored.channel_id]
        if user is None and stored.interaction_metadata is not None:
            user = self.world.users.get(int(stored.interaction_metadata["user"]["id"]))
        guild, channel, user = self._where(None, channel, user)
        handle = InteractionHandle(
            self.world,
            kind=InteractionType.MESSAGE_COMPONENT,
            name=custom_id,
            user=user,
            channel=channel,
            guild=guild,
            source=stored,
        )
        payload = base_payload(handle, self.world, locale=locale, permissions=None)
        payload["data"] = component_data(stored, custom_id, values)
        payload["message"] = stored.payload()
        return await self._inject(handle, payload)

    def _where(
        self, guild: Guild | None, channel: Channel | None, user: User | None
    ) -> tuple[Guild | None, Channel, User]:
        if channel is not None:
            if channel.id not in self.world.channels:
                raise LookupError(f"{channel.name!r} is not a channel of this stand-in")
            if guild is not None and channel.guild_id != guild.id:
                raise ValueError(f"{channel.name!r} is not in {guild!r}")
            guild = self.world.guild_of(channel)
            if channel.is_dm and user is None:
                user = channel.recipients[0]
        elif guild is not None:
            if guild.id not in self.world.guilds:
                raise LookupError(f"{guild!r} is not a guild of this stand-in")
            channel = next((c for c in guild.channels if c.type is ChannelType.TEXT), None)
            if channel is None:
                raise LookupError(f"{guild!r} has no text channel")
        else:
            user = user or self.default_user
            channel = self.world.dm_channel(user)
        if user is None:
            assert guild is not None
            human = next((m.user for m in guild.members if not m.user.bot), None)
            if human is None:
                raise LookupError(f"{guild!r} has no human member to act as the user")
            user = human
        return guild, channel, user

    @property
    def default_user(self) -> User:
        """The user interactions come from when none is given: the first human guild member."""
        for guild in self.world.guilds.values():
            for member in guild.members:
                if not member.user.bot:
                    return member.user
        return self.world.add_user(User("tester"))

    async def _inject(self, handle: InteractionHandle, payload: JSONObject) -> InteractionHandle:
        if not self.gateway.live_sessions:
            raise RuntimeError("no bot session to deliver the interaction to (start a bot first)")
        await self.settle()
        handle.payload = payload
        self.world.add_interaction(handle)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return handle

    # -- gateway control ----------------------------------------------------------------------

    @property
    def gateway_stats(self) -> GatewayStats:
        """Connections, IDENTIFYs, RESUMEs and replayed events so far."""
        return self.gateway.stats

    async def reconnect(self, how: CloseHow = "op7", *, timeout: float = 10.0) -> None:
        """Force a reconnect (op 7, or the server closes the socket) and wait for the RESUME."""
        async with self.disconnected(how, timeout=timeout):
            pass

    @contextlib.asynccontextmanager
    async def disconnected(
        self, how: CloseHow = "drop", *, timeout: float = 10.0
    ) -> AsyncIterator[None]:
        """Cut the bot off inside the block (events are buffered); after it, wait for RESUME."""
        stats = self.gateway.stats
        before = stats.resumes
        self.gateway.hold()
        try:
            await self.gateway.request_reconnect(how)
            await self.gateway.wait_until(
                lambda: not self.gateway.connected, timeout=timeout, what="disconnect"
            )
            yield
        finally:
            self.gateway.release()
        await self.gateway.wait_until(
            lambda: stats.resumes > before and self.gateway.connected,
            timeout=timeout,
            what="RESUME",
        )

    async def invalidate_session(self, *, timeout: float = 10.0) -> None:
        """Send op 9 (not resumable) and wait for the client's new IDENTIFY."""
        before = self.gateway.stats.identifies
        await self.gateway.invalidate()
        await self.gateway.wait_until(
            lambda: self.gateway.stats.identifies > before, timeout=timeout, what="IDENTIFY"
        )

    # -- faults and records -------------------------------------------------------------------

    def fail(
        self,
        method: str,
        path: str,
        fault: Fault,
        *,
        times: int = 1,
        after_processing: bool = False,
    ) -> FaultRule:
        """Answer the next ``times`` requests matching ``method`` and glob ``path`` with ``fault``.

        With ``after_processing`` the request still takes effect; only its answer is the fault.
        """
        rule = FaultRule(method, path, fault, remaining=times, after_processing=after_processing)
        self.rest.faults.append(rule)
        return rule

    def stall(self, method: str, path: str, *, times: int = 1) -> Stall:
        """Hold back the answers of the next ``times`` requests matching ``method`` and glob
        ``path`` until the returned stall's ``release()`` (the requests take effect at once);
        closing the stand-in releases them."""
        stall = Stall(method, path, remaining=times)
        self.rest.stalls.append(stall)
        return stall

    @property
    def rate_limited(self) -> int:
        """How many 429 answers were sent (faults and the global limiter)."""
        return self.rest.rate_limited

    def requests(
        self,
        method: str | None = None,
        path_contains: str | None = None,
        *,
        route: str | None = None,
    ) -> list[RecordedRequest]:
        """Recorded REST requests in order, filtered by method, path substring or route pattern."""
        return [
            r
            for r in self.rest.log
            if (method is None or r.method == method.upper())
            and (path_contains is None or path_contains in r.path)
            and (route is None or r.route == route)
        ]

    def forget_history(self, keep: int) -> None:
        """Forget all but the last ``keep`` interactions (with their messages) and gateway events,
        and the request log.

        The stand-in keeps everything for tests to inspect; a long run (a memory benchmark)
        calls this now and then so that it measures the bot, not the stand-in's records."""
        world = self.world
        handles = list(world.interactions.values())
        for handle in handles[: max(0, len(handles) - keep)]:
            del world.interactions[handle.id]
            world.interactions_by_token.pop(handle.token, None)
            for message_id in (handle.original_id, *handle.followup_ids):
                if message_id is not None:
                    world.messages.pop(message_id, None)
                    world.interactions_by_message.pop(message_id, None)
        self.rest.log.clear()
        for session in self.gateway.sessions.values():  # RESUME replays at most `keep` events
            del session.events[: max(0, len(session.events) - keep)]

    @property
    def internal_errors(self) -> list[Exception]:
        """Exceptions the stand-in itself raised while answering (each was answered with a 500)."""
        return self.rest.internal_errors

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        """Requests to routes the stand-in does not implement (answered 404)."""
        return [r for r in self.rest.log if r.route is None]
