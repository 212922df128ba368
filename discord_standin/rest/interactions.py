"""Answers to interactions: the callback, followups, and the original response."""

from __future__ import annotations

from ..interactions import Callback, CallbackType, InteractionHandle, InteractionType
from ..messages import Message, MessageFlag
from ..model import JSONObject
from ..polls import Poll
from ..validation import check_choices
from .resource import Resource
from .routing import ApiError, Call, Result, Route, form_error

ALLOWED_CALLBACKS = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}
"""Callback types Discord accepts for each interaction type."""


class Interactions(Resource):
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{app_id}/{token}/...``.

    These routes are authenticated by the interaction token in the path, not the bot token.
    """

    def routes(self) -> list[Route]:
        """The callback, then the interaction webhook's followups and messages."""
        hook = "/webhooks/{app_id}/{token}"
        return [
            Route(
                "POST", "/interactions/{interaction_id}/{token}/callback", self.callback, False
            ),
            Route("POST", hook, self.post_followup, False),
            Route("GET", hook + "/messages/{message_id}", self.get_webhook_message, False),
            Route("PATCH", hook + "/messages/{message_id}", self.edit_webhook_message, False),
            Route("DELETE", hook + "/messages/{message_id}", self.delete_webhook_message, False),
        ]

    async def callback(self, call: Call) -> Result:
        """POST /interactions/{id}/{token}/callback: the bot's first answer to an interaction."""
        handle = self.world.interactions.get(call.snowflake("interaction_id"))
        if handle is None or handle.token != call.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if handle.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = call.json
        kind, data = body.get("type"), body.get("data") or {}
        allowed = ALLOWED_CALLBACKS[handle.type]
        if kind in (6, 7) and handle.source is None:
            allowed = allowed - {6, 7}
        if kind not in allowed:
            raise ApiError(
                400, 50035, f"Interaction callback type {kind} is invalid for a {handle.type.name}"
            )
        message, event = self._apply_callback(handle, int(kind), data)
        handle.callback = Callback(int(kind), data, None if message is None else message.id, body)
        if message is not None:
            handle.original_id = message.id
            self.world.link_message(handle, message.id)
            self._touch(call, message)
        call.touched.append(handle)
        if message is not None and event is not None:
            await self._announce(event, message)
        reply: JSONObject = {
            "interaction": {
                "id": str(handle.id),
                "type": int(handle.type),
                "response_message_id": None if message is None else str(message.id),
                "response_message_loading": kind == CallbackType.DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": message is not None and message.ephemeral,
            }
        }
        if message is not None and kind in (4, 5, 7):
            reply["resource"] = {"type": kind, "message": message.payload()}
        return reply

    def _apply_callback(
        self, handle: InteractionHandle, kind: int, data: JSONObject
    ) -> tuple[Message | None, str | None]:
        """The message the callback created or changed, and the event that announces it."""
        bot = self.world.bot_user
        if kind == CallbackType.CHANNEL_MESSAGE:
            self._validate(data)
            return self.world.create_message(
                handle.channel, bot, data, interaction=handle
            ), "MESSAGE_CREATE"
        if kind == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = {"flags": int(data.get("flags") or 0) & MessageFlag.EPHEMERAL}
            message = self.world.create_message(
                handle.channel, bot, flags, interaction=handle, extra_flags=int(MessageFlag.LOADING)
            )
            return message, "MESSAGE_CREATE"
        if kind == CallbackType.UPDATE_MESSAGE:
            assert handle.source is not None
            self._validate(data, partial=True)
            return self.world.edit_message(handle.source, data), "MESSAGE_UPDATE"
        if kind == CallbackType.DEFERRED_UPDATE_MESSAGE:
            return handle.source, None
        if kind == CallbackType.AUTOCOMPLETE_RESULT:
            errors = check_choices(data.get("choices") or [])
            if errors:
                raise form_error(errors)
            return None, None
        if not data.get("custom_id") or not data.get("title") or not data.get("components"):
            raise ApiError(400, 50035, "A modal needs custom_id, title and components")
        return None, None

    def _handle_for(self, call: Call) -> InteractionHandle:
        """The interaction whose webhook (application id and token) the path names."""
        handle = self.world.interactions_by_token.get(call.params["token"])
        if handle is None or call.params["app_id"] != str(self.world.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        return handle

    async def post_followup(self, call: Call) -> Result:
        """POST /webhooks/{app}/{token}: a followup; the first after a defer fills the original
        (unless the bot deleted it: the followup is then a message of its own)."""
        handle = self._handle_for(call)
        if handle.callback is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        body = call.json
        self._validate(body)
        original = handle.message
        if original is not None and original.loading and not original.deleted:
            # it fills the placeholder, whose visibility it keeps whatever its own flags say;
            # a poll comes with it (the message's first content, not an edit of its poll)
            message = self.world.edit_message(original, body)
            if isinstance(body.get("poll"), dict):
                message.poll = Poll.create(body["poll"], self.world.now())
            event = "MESSAGE_UPDATE"
        else:
            message = self.world.create_message(
                handle.channel, self.world.bot_user, body, interaction=handle
            )
            event = "MESSAGE_CREATE"
        handle.followup_ids.append(message.id)
        self.world.link_message(handle, message.id)
        self._touch(call, message)
        await self._announce(event, message)
        return message.payload() if call.query.get("wait") in ("1", "true", "True") else None

    def _webhook_message(self, call: Call) -> Message:
        """The original response (``@original``) or one of the interaction's followups."""
        handle = self._handle_for(call)
        wanted = call.params["message_id"]
        message_id = (
            handle.original_id
            if wanted == "@original"
            else int(wanted)
            if wanted.isdigit()
            else None
        )
        if message_id is None or (
            message_id != handle.original_id and message_id not in handle.followup_ids
        ):
            raise ApiError(404, 10008, "Unknown Message")
        message = self.world.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def get_webhook_message(self, call: Call) -> Result:
        """GET /webhooks/{app}/{token}/messages/{id|@original}."""
        return self._webhook_message(call).payload()

    async def edit_webhook_message(self, call: Call) -> Result:
        """PATCH /webhooks/{app}/{token}/messages/{id|@original}."""
        message = self._webhook_message(call)
        self._validate(call.json, partial=True)
        self.world.edit_message(message, call.json)
        self._touch(call, message)
        await self._announce("MESSAGE_UPDATE", message)
        return message.payload()

    async def delete_webhook_message(self, call: Call) -> Result:
        """DELETE /webhooks/{app}/{token}/messages/{id|@original}."""
        message = self._webhook_message(call)
        message.deleted = True
        self._touch(call, message)
        await self._announce_delete(message)
        return None
