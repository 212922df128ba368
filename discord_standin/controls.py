"""What a test reads and changes around the bot: the world (guilds, channels, messages), the
gateway's connections, and the REST faults and request log (part of `StandIn`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import datetime

from .faults import Fault, FaultRule, Stall
from .gateway import CloseHow, Gateway, GatewayStats, Intent
from .messages import Message
from .model import Channel, Guild, JSONObject, Permission, User
from .rest import RecordedRequest, RestApi
from .state import World


class StandInControls:
    """`StandIn`'s world, gateway and fault controls."""

    world: World
    gateway: Gateway
    rest: RestApi

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

    async def poll_vote(self, message: Message, user: User, *answers: int) -> None:
        """``user`` chooses ``answers`` (answer ids, from 1) in the message's poll, replacing
        their earlier choice (none: they remove their vote); connected bots with the polls
        intent get MESSAGE_POLL_VOTE_ADD/REMOVE. Raises as Discord's client would refuse: an
        ended poll, several answers without multiselect, a user who cannot see the channel."""
        stored = self.world.messages[message.id]
        channel = self.world.channels[stored.channel_id]
        if not self.world.permissions(self.world.add_user(user), channel) & Permission.VIEW_CHANNEL:
            raise PermissionError(f"{user.name} cannot see #{channel.name}")
        await self.rest.polls.finish_due()
        await self.rest.polls.vote(stored, user.id, list(answers))

    async def end_due_polls(self) -> None:
        """End every poll whose expiry has come now (they also end before any request)."""
        await self.rest.polls.finish_due()

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
