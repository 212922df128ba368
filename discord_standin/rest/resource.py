"""The base of every REST resource: the world it serves, lookups, validation, announcements."""

from __future__ import annotations

from ..gateway import Intent
from ..messages import Message
from ..model import Channel, JSONObject, Permission
from ..state import World
from ..validation import check_message, is_empty_message
from .routing import ApiError, Call, Dispatch, Route, form_error


class Resource:
    """A group of routes (one Discord resource) that read and change the :class:`World`."""

    def __init__(self, world: World, dispatch: Dispatch) -> None:
        self.world = world
        self.dispatch = dispatch

    def routes(self) -> list[Route]:
        """The routes this resource serves, in matching order."""
        raise NotImplementedError

    def _channel(self, call: Call, *, need: int = 0) -> Channel:
        """The path's channel, if the bot can see it (and has ``need``)."""
        channel = self.world.channels.get(call.snowflake("channel_id"))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        perms = self.world.permissions(self.world.bot_user, channel)
        if not perms & Permission.VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if need and not perms & need:
            raise ApiError(403, 50013, "Missing Permissions")
        return channel

    def _message(self, channel: Channel, message_id: int) -> Message:
        """A live message of ``channel``."""
        message = self.world.messages.get(message_id)
        if message is None or message.deleted or message.channel_id != channel.id:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    @staticmethod
    def _validate(body: JSONObject, *, partial: bool = False) -> None:
        """Discord's message limits; a full (not ``partial``) message may not be empty."""
        errors = check_message(body)
        if errors:
            raise form_error(errors)
        if not partial and is_empty_message(body):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _touch(self, call: Call, message: Message) -> None:
        """Mark every interaction whose messages include ``message`` as changed."""
        for handle in self.world.interactions_by_message.get(message.id, ()):
            if handle not in call.touched:
                call.touched.append(handle)

    async def _announce(self, event: str, message: Message) -> None:
        """Dispatch MESSAGE_CREATE/UPDATE (never for ephemeral messages)."""
        if message.ephemeral:
            return
        await self.dispatch(event, message.payload(), intent=_intent(message))

    async def _announce_delete(self, message: Message) -> None:
        """Dispatch MESSAGE_DELETE (never for ephemeral messages)."""
        if message.ephemeral:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        await self.dispatch("MESSAGE_DELETE", data, intent=_intent(message))


def _intent(message: Message) -> int:
    """The intent a session needs to receive events about ``message``."""
    guild = message.guild_id is not None
    return int(Intent.GUILD_MESSAGES if guild else Intent.DIRECT_MESSAGES)
