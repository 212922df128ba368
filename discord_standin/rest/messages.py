"""Channel messages, reactions, typing, and threads."""

from __future__ import annotations

from ..gateway import Intent
from ..model import Channel, ChannelType, Permission
from ..validation import FormError
from .resource import Resource
from .routing import ApiError, Call, Result, Route, form_error


class Messages(Resource):
    """``/channels/{channel_id}/...``: what the bot posts, edits and deletes by itself."""

    def routes(self) -> list[Route]:
        """Messages by id, reactions, threads, and the routes that only answer 204."""
        channel = "/channels/{channel_id}"
        message = channel + "/messages/{message_id}"
        return [
            Route("GET", channel + "/messages", self.list_messages),
            Route("POST", channel + "/messages", self.post_message),
            Route("GET", message, self.get_message),
            Route("PATCH", message, self.edit_message),
            Route("DELETE", message, self.delete_message),
            Route("POST", message + "/threads", self.thread_from_message),
            Route("POST", channel + "/threads", self.thread_without_message),
            Route("PUT", message + "/reactions/{emoji}/@me", self.add_reaction),
            Route("POST", channel + "/typing", self.no_content),
            Route("PUT", channel + "/thread-members/@me", self.no_content),
        ]

    async def no_content(self, call: Call) -> Result:
        """Routes that only answer 204 (typing, joining a thread)."""
        self._channel(call)
        return None

    async def list_messages(self, call: Call) -> Result:
        """GET /channels/{id}/messages: at most ``limit`` (1-100, default 50), newest first.

        ``before`` gives the newest messages older than it; ``after`` the oldest ones newer
        than it (still listed newest first), so that a client can page forward from a point.
        """
        channel = self._channel(call, need=Permission.READ_MESSAGE_HISTORY)
        limit = _history_limit(call)
        messages = self.world.visible_messages(channel.id)
        if "before" in call.query:
            messages = [m for m in messages if m.id < call.query_snowflake("before")]
            page = messages[-limit:]
        elif "after" in call.query:
            messages = [m for m in messages if m.id > call.query_snowflake("after")]
            page = messages[:limit]
        else:
            page = messages[-limit:]
        return [m.payload() for m in reversed(page)]

    async def post_message(self, call: Call) -> Result:
        """POST /channels/{id}/messages; with ``enforce_nonce`` a repeated nonce gets the first."""
        channel = self._channel(call)
        perm = (
            Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
        )
        if not self.world.permissions(self.world.bot_user, channel) & perm:
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.is_dm and not all(user.dms_open for user in channel.recipients):
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body = call.json
        if body.get("poll") is not None and not channel.is_dm and not (
                self.world.permissions(self.world.bot_user, channel) & Permission.SEND_POLLS):
            raise ApiError(403, 50013, "Missing Permissions")
        if body.get("enforce_nonce"):
            existing = self.world.nonce_hit(channel, self.world.bot_user, body.get("nonce"))
            if existing is not None:
                return existing.payload()
        self._validate(body)
        message = self.world.create_message(channel, self.world.bot_user, body)
        await self._announce("MESSAGE_CREATE", message)
        return message.payload()

    async def get_message(self, call: Call) -> Result:
        """GET /channels/{id}/messages/{id}."""
        channel = self._channel(call, need=Permission.READ_MESSAGE_HISTORY)
        return self._message(channel, call.snowflake("message_id")).payload()

    async def edit_message(self, call: Call) -> Result:
        """PATCH /channels/{id}/messages/{id}: only the bot's own messages."""
        channel = self._channel(call)
        message = self._message(channel, call.snowflake("message_id"))
        if message.author is not self.world.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if call.json.get("poll") is not None:
            raise ApiError(400, 520003, "Cannot edit a poll message")
        self._validate(call.json, partial=True)
        self.world.edit_message(message, call.json)
        self._touch(call, message)
        await self._announce("MESSAGE_UPDATE", message)
        return message.payload()

    async def delete_message(self, call: Call) -> Result:
        """DELETE /channels/{id}/messages/{id}: own messages, or others' with Manage Messages."""
        channel = self._channel(call)
        message = self._message(channel, call.snowflake("message_id"))
        own = message.author is self.world.bot_user
        if (
            not own
            and not self.world.permissions(self.world.bot_user, channel)
            & Permission.MANAGE_MESSAGES
        ):
            raise ApiError(403, 50013, "Missing Permissions")
        message.deleted = True
        self._touch(call, message)
        await self._announce_delete(message)
        return None

    async def add_reaction(self, call: Call) -> Result:
        """PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me."""
        channel = self._channel(call, need=Permission.ADD_REACTIONS)
        self._message(channel, call.snowflake("message_id")).reactions.append(call.params["emoji"])
        return None

    async def thread_from_message(self, call: Call) -> Result:
        """POST /channels/{id}/messages/{id}/threads: a public thread with the message's id."""
        channel = self._channel(call, need=Permission.CREATE_PUBLIC_THREADS)
        _check_thread_parent(channel)
        message = self._message(channel, call.snowflake("message_id"))
        if message.thread is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        name = _thread_name(call)
        kind = (
            ChannelType.NEWS_THREAD
            if channel.type is ChannelType.NEWS
            else ChannelType.PUBLIC_THREAD
        )
        thread = self.world.create_thread(
            channel, name, owner=self.world.bot_user, kind=kind, from_message=message
        )
        return await self._thread_created(thread)

    async def thread_without_message(self, call: Call) -> Result:
        """POST /channels/{id}/threads: a thread not attached to a message."""
        kind = ChannelType(int(call.json.get("type") or ChannelType.PRIVATE_THREAD))
        need = (
            Permission.CREATE_PRIVATE_THREADS
            if kind is ChannelType.PRIVATE_THREAD
            else Permission.CREATE_PUBLIC_THREADS
        )
        channel = self._channel(call, need=need)
        _check_thread_parent(channel)
        name = _thread_name(call)
        thread = self.world.create_thread(channel, name, owner=self.world.bot_user, kind=kind)
        return await self._thread_created(thread)

    async def _thread_created(self, thread: Channel) -> Result:
        await self.dispatch(
            "THREAD_CREATE", thread.payload() | {"newly_created": True}, intent=int(Intent.GUILDS)
        )
        return thread.payload()


def _check_thread_parent(channel: Channel) -> None:
    """Threads start only in guild channels that are not threads themselves."""
    if channel.is_dm or channel.is_thread:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")


def _history_limit(call: Call) -> int:
    """The history ``limit``: 1 to 100, 50 when absent; anything else is a form error."""
    raw = call.query.get("limit", "50")
    limit = int(raw) if raw.isdigit() else 0
    if not 1 <= limit <= 100:
        error = FormError(("limit",), "NUMBER_TYPE_MAX", "int value should be between 1 and 100.")
        raise form_error([error])
    return limit


def _thread_name(call: Call) -> str:
    """The new thread's ``name``: 1 to 100 characters."""
    name = str(call.json.get("name") or "")
    if not 1 <= len(name) <= 100:
        error = FormError(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        raise form_error([error])
    return name
