"""What a test does as a Discord user: slash and message commands, autocomplete, clicks,
select menus and modal submissions, each injected as an INTERACTION_CREATE to the bot
(part of `StandIn`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence

from .gateway import Gateway
from .interactions import (
    MESSAGE_COMMAND,
    WAIT,
    InteractionHandle,
    InteractionType,
    OptionValue,
    component_data,
    message_command_data,
    modal_data,
)
from .messages import Message
from .model import Channel, ChannelType, Guild, JSONObject, User
from .payloads import base_payload, command_data
from .rest import RestApi
from .state import World


class InteractionInjection:
    """`StandIn`'s interactions: each comes from a member (or a DM) and waits for nothing
    but the bot's session to be live."""

    world: World
    gateway: Gateway
    rest: RestApi

    # -- commands and components ---------------------------------------------------------------

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
        guild, channel, user = self._place(None, self.world.channels[stored.channel_id], user)
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
            self.world.messages, kind=InteractionType.APPLICATION_COMMAND, name=name, user=user,
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
        timeout: float = WAIT,
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
            self.world.messages,
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
        guild, channel, user = self._place(guild, channel, user)
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
            self.world.messages,
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
        guild, channel, user = self._place(None, channel, user)
        handle = InteractionHandle(
            self.world.messages,
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

    def _place(
        self, guild: Guild | None, channel: Channel | None, user: User | None
    ) -> tuple[Guild | None, Channel, User]:
        return place_of(self.world, guild, channel, user, lambda: self.default_user)


def place_of(
    world: World, guild: Guild | None, channel: Channel | None, user: User | None,
    default_user: Callable[[], User],
) -> tuple[Guild | None, Channel, User]:
    """Where an interaction happens: the channel (the guild's first text channel, or a DM with
    the user) and who uses it (a DM's recipient, or the guild's first human member)."""
    if channel is not None:
        if channel.id not in world.channels:
            raise LookupError(f"{channel.name!r} is not a channel of this stand-in")
        if guild is not None and channel.guild_id != guild.id:
            raise ValueError(f"{channel.name!r} is not in {guild!r}")
        guild = world.guild_of(channel)
        if channel.is_dm and user is None:
            user = channel.recipients[0]
    elif guild is not None:
        if guild.id not in world.guilds:
            raise LookupError(f"{guild!r} is not a guild of this stand-in")
        channel = next((c for c in guild.channels if c.type is ChannelType.TEXT), None)
        if channel is None:
            raise LookupError(f"{guild!r} has no text channel")
    else:
        user = user or default_user()
        channel = world.dm_channel(user)
    if user is None:
        assert guild is not None
        human = next((m.user for m in guild.members if not m.user.bot), None)
        if human is None:
            raise LookupError(f"{guild!r} has no human member to act as the user")
        user = human
    return guild, channel, user
