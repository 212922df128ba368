"""Injected interactions: the gateway payloads and the handle a test awaits for the bot's answer."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum

from .messages import Message, MessageFlag
from .model import Channel, Guild, JSONObject, Role, User, new_id

WAIT = 20.0
"""Seconds a test waits for the bot's answer by default: generous, since a busy machine slows
the bot (a wait only ends early when the answer comes; a test expecting none gives its own)."""


class InteractionType(IntEnum):
    """Discord interaction types."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    """Interaction callback (response) types."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class OptionType(IntEnum):
    """Application command option types."""

    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


@dataclass(frozen=True)
class Callback:
    """The bot's interaction callback: ``raw`` is the JSON body it POSTed."""

    type: int
    data: JSONObject
    message_id: int | None
    raw: JSONObject

    @property
    def content(self) -> str:
        """The message content, or ``""``."""
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[JSONObject]:
        """The embeds sent with the response."""
        return list(self.data.get("embeds") or [])

    @property
    def attachments(self) -> list[JSONObject]:
        """The files sent with the response (as the stand-in stored them)."""
        return list(self.data.get("attachments") or [])

    @property
    def ephemeral(self) -> bool:
        """Whether the response is visible to the invoking user only."""
        return bool(int(self.data.get("flags") or 0) & MessageFlag.EPHEMERAL)

    @property
    def choices(self) -> list[JSONObject]:
        """Autocomplete choices (callback type 8)."""
        return list(self.data.get("choices") or [])


class InteractionHandle:
    """One injected interaction; await its callback, followups and message edits."""

    def __init__(
        self,
        messages: Mapping[int, Message],
        *,
        kind: InteractionType,
        name: str,
        user: User,
        channel: Channel,
        guild: Guild | None,
        source: Message | None = None,
    ) -> None:
        self.id = new_id()
        self.token = secrets.token_urlsafe(32)
        self.type = kind
        self.name = name
        self.user = user
        self.channel = channel
        self.guild = guild
        self.source = source
        """The message whose component was used (component and modal interactions)."""
        self.payload: JSONObject = {}
        self.callback: Callback | None = None
        self.original_id: int | None = None
        self.followup_ids: list[int] = []
        self._messages = messages
        self._changed = asyncio.Event()

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.type.name} {self.name!r} id={self.id}>"

    @property
    def message(self) -> Message | None:
        """The current state of the original response message (or the clicked one, once updated)."""
        return None if self.original_id is None else self._messages.get(self.original_id)

    @property
    def followups(self) -> list[Message]:
        """Followup messages, in the order they were sent (current state)."""
        return [self._messages[i] for i in self.followup_ids]

    @property
    def modal(self) -> JSONObject | None:
        """The modal the bot opened (callback type 9), if any."""
        cb = self.callback
        return cb.data if cb is not None and cb.type == CallbackType.MODAL else None

    def metadata(self) -> JSONObject:
        """The ``interaction_metadata`` Discord attaches to response messages."""
        data: JSONObject = {
            "id": str(self.id),
            "type": int(self.type),
            "user": self.user.payload(),
            "authorizing_integration_owners": self.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if self.type == InteractionType.APPLICATION_COMMAND:
            data["name"] = self.name
        if self.source is not None:
            data["interacted_message_id"] = str(self.source.id)
        return data

    def changed(self) -> None:
        """Wake everyone waiting on this interaction (called by the REST layer)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(
        self,
        predicate: Callable[[InteractionHandle], bool],
        *,
        timeout: float = WAIT,
        what: str = "change",
    ) -> None:
        """Wait until ``predicate(self)`` holds; ``TimeoutError`` names ``what`` was missing."""
        try:
            async with asyncio.timeout(timeout):
                while not predicate(self):
                    await self._changed.wait()
        except TimeoutError:
            raise TimeoutError(f"{self!r}: no {what} within {timeout}s") from None

    async def response(self, *, timeout: float = WAIT) -> Callback:
        """Wait for the bot's callback and return it."""
        await self.wait_until(lambda h: h.callback is not None, timeout=timeout, what="callback")
        assert self.callback is not None
        return self.callback

    async def reply(self, *, timeout: float = WAIT) -> Callback | Message:
        """The bot's answer as the member sees it: the callback, or, when the bot deferred
        (callback type 5), the followup that carries the answer."""
        callback = await self.response(timeout=timeout)
        if callback.type != CallbackType.DEFERRED_CHANNEL_MESSAGE:
            return callback
        return await self.followup(timeout=timeout)

    async def answer(self, *, timeout: float = WAIT) -> Message:
        """The message that carries the bot's answer: the original response, or, when the bot
        deferred, its first followup (the placeholder filled, or a message of its own when the
        bot removed the placeholder)."""
        callback = await self.response(timeout=timeout)
        if callback.type == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            return await self.followup(timeout=timeout)
        if self.message is None:
            raise AssertionError(f"callback type {callback.type} carries no message")
        return self.message

    async def followup(self, index: int = 0, *, timeout: float = WAIT) -> Message:
        """Wait for followup number ``index`` (0 = first) and return it."""
        await self.wait_until(
            lambda h: len(h.followup_ids) > index, timeout=timeout, what=f"followup #{index}"
        )
        return self._messages[self.followup_ids[index]]

    async def choices(self, *, timeout: float = WAIT) -> list[JSONObject]:
        """Wait for an autocomplete result and return its choices."""
        callback = await self.response(timeout=timeout)
        if callback.type != CallbackType.AUTOCOMPLETE_RESULT:
            raise AssertionError(
                f"expected an autocomplete result, got callback type {callback.type}"
            )
        return callback.choices

    async def edited(self, *, edits: int = 1, timeout: float = WAIT) -> Message:
        """Wait until the original response message has been edited ``edits`` times."""

        def done(h: InteractionHandle) -> bool:
            return h.message is not None and h.message.edits >= edits

        await self.wait_until(done, timeout=timeout, what=f"edit #{edits}")
        assert self.message is not None
        return self.message


# -- option values and interactions' data (`payloads` builds the rest) --------------------------

OptionValue = str | int | float | bool | User | Role | Channel


MESSAGE_COMMAND = 3
"""The application command type of a message context-menu command."""


def message_command_data(command: JSONObject, message: Message) -> JSONObject:
    """``data`` of a message command on ``message``: no options; the target, content and all,
    in ``resolved.messages`` (no Message Content intent needed)."""
    data: JSONObject = {
        "id": command["id"],
        "name": command["name"],
        "type": MESSAGE_COMMAND,
        "target_id": str(message.id),
        "resolved": {"messages": {str(message.id): message.payload()}},
    }
    if command.get("guild_id") is not None:
        data["guild_id"] = command["guild_id"]
    return data


def component_data(message: Message, custom_id: str, values: Sequence[str] | None) -> JSONObject:
    """Build ``data`` for a button click (``values`` is None) or a select choice."""
    component = message.component(custom_id)
    if component.get("disabled"):
        raise ValueError(f"component {custom_id!r} is disabled")
    kind = int(component["type"])
    if values is None:
        if kind != 2:
            raise ValueError(f"component {custom_id!r} is not a button")
        return {"custom_id": custom_id, "component_type": 2}
    if kind == 2:
        raise ValueError(f"component {custom_id!r} is a button, not a select menu")
    if kind == 3:
        offered = [o["value"] for o in component.get("options") or []]
        unknown = [v for v in values if v not in offered]
        if unknown:
            raise ValueError(f"select {custom_id!r} does not offer {unknown} (offers {offered})")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
    return {"custom_id": custom_id, "component_type": kind, "values": list(values)}


def modal_data(modal: JSONObject, values: Mapping[str, str | Sequence[str]]) -> JSONObject:
    """Build ``data`` for submitting ``modal`` with text (or select) ``values`` by custom id."""
    used: set[str] = set()

    def answer(component: JSONObject) -> JSONObject:
        custom_id = component.get("custom_id", "")
        value = values.get(custom_id)
        if value is not None:
            used.add(custom_id)
        if component.get("type") == 4:
            if value is None and component.get("required", True):
                raise ValueError(f"modal field {custom_id!r} is required")
            return {"type": 4, "custom_id": custom_id, "value": "" if value is None else str(value)}
        picked = [value] if isinstance(value, str) else list(value or [])
        return {"type": component.get("type"), "custom_id": custom_id, "values": picked}

    rows = []
    for row in modal.get("components") or []:
        if row.get("type") == 18:
            rows.append({"type": 18, "component": answer(row["component"])})
        elif row.get("type") == 1:
            rows.append({"type": 1, "components": [answer(c) for c in row.get("components") or []]})
    unknown = set(values) - used
    if unknown:
        raise LookupError(f"modal {modal.get('custom_id')!r} has no fields {sorted(unknown)}")
    return {"custom_id": modal.get("custom_id"), "components": rows}
