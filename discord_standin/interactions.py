"""Injected interactions: the gateway payloads and the handle a test awaits for the bot's answer."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from .model import Channel, Guild, JSONObject, Message, MessageFlag, Role, User, new_id

if TYPE_CHECKING:
    from .state import World



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
        world: World,
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
        self._world = world
        self._changed = asyncio.Event()

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.type.name} {self.name!r} id={self.id}>"

    @property
    def message(self) -> Message | None:
        """The current state of the original response message (or the clicked one, once updated)."""
        return None if self.original_id is None else self._world.messages.get(self.original_id)

    @property
    def followups(self) -> list[Message]:
        """Followup messages, in the order they were sent (current state)."""
        return [self._world.messages[i] for i in self.followup_ids]

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
        timeout: float = 5.0,
        what: str = "change",
    ) -> None:
        """Wait until ``predicate(self)`` holds; ``TimeoutError`` names ``what`` was missing."""
        try:
            async with asyncio.timeout(timeout):
                while not predicate(self):
                    await self._changed.wait()
        except TimeoutError:
            raise TimeoutError(f"{self!r}: no {what} within {timeout}s") from None

    async def response(self, *, timeout: float = 5.0) -> Callback:
        """Wait for the bot's callback and return it."""
        await self.wait_until(lambda h: h.callback is not None, timeout=timeout, what="callback")
        assert self.callback is not None
        return self.callback

    async def reply(self, *, timeout: float = 5.0) -> Callback | Message:
        """The bot's answer as the member sees it: the callback, or, when the bot deferred
        (callback type 5), the followup that carries the answer."""
        callback = await self.response(timeout=timeout)
        if callback.type != CallbackType.DEFERRED_CHANNEL_MESSAGE:
            return callback
        return await self.followup(timeout=timeout)

    async def followup(self, index: int = 0, *, timeout: float = 5.0) -> Message:
        """Wait for followup number ``index`` (0 = first) and return it."""
        await self.wait_until(
            lambda h: len(h.followup_ids) > index, timeout=timeout, what=f"followup #{index}"
        )
        return self._world.messages[self.followup_ids[index]]

    async def choices(self, *, timeout: float = 5.0) -> list[JSONObject]:
        """Wait for an autocomplete result and return its choices."""
        callback = await self.response(timeout=timeout)
        if callback.type != CallbackType.AUTOCOMPLETE_RESULT:
            raise AssertionError(
                f"expected an autocomplete result, got callback type {callback.type}"
            )
        return callback.choices

    async def edited(self, *, edits: int = 1, timeout: float = 5.0) -> Message:
        """Wait until the original response message has been edited ``edits`` times."""

        def done(h: InteractionHandle) -> bool:
            return h.message is not None and h.message.edits >= edits

        await self.wait_until(done, timeout=timeout, what=f"edit #{edits}")
        assert self.message is not None
        return self.message


# -- payload building ---------------------------------------------------------------------------


def base_payload(
    handle: InteractionHandle, world: World, *, locale: str, permissions: int | None
) -> JSONObject:
    """The fields every INTERACTION_CREATE carries, for a guild or a DM."""
    channel, guild, user = handle.channel, handle.guild, handle.user
    data: JSONObject = {
        "id": str(handle.id),
        "application_id": str(world.application_id),
        "type": int(handle.type),
        "token": handle.token,
        "version": 1,
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": world.attachment_size_limit,
        "app_permissions": str(world.permissions(world.bot_user, channel)),
        "channel_id": str(channel.id),
        "channel": channel.payload(),
    }
    if guild is None:
        data |= {"user": user.payload(), "context": 1, "authorizing_integration_owners": {"0": "0"}}
        return data
    member = guild.member(user)
    if member is None:
        raise ValueError(f"{user.name} is not a member of {guild!r}")
    perms = world.permissions(user, channel) if permissions is None else permissions
    data |= {
        "guild_id": str(guild.id),
        "guild_locale": guild.locale,
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "member": member.payload(permissions=perms),
        "context": 0,
        "authorizing_integration_owners": {"0": str(guild.id)},
    }
    return data


OptionValue = str | int | float | bool | User | Role | Channel


def command_data(
    world: World,
    command: JSONObject,
    path: Sequence[str],
    options: Mapping[str, OptionValue],
    *,
    handle: InteractionHandle,
    focused: str | None = None,
) -> JSONObject:
    """Build ``data`` for a slash or autocomplete interaction, typed by the synced schema."""
    schema: list[JSONObject] = command.get("options") or []
    data: JSONObject = {"id": command["id"], "name": command["name"], "type": 1}
    if command.get("guild_id") is not None:
        data["guild_id"] = command["guild_id"]
    resolved: dict[str, dict[str, JSONObject]] = {}
    leaf_parent = data
    for name in path:
        node = next((o for o in schema if o["name"] == name and o["type"] in (1, 2)), None)
        if node is None:
            raise LookupError(f"/{command['name']} has no subcommand or group {name!r}")
        child: JSONObject = {"name": name, "type": node["type"], "options": []}
        leaf_parent["options"] = [child]
        leaf_parent, schema = child, node.get("options") or []
    if any(o["type"] in (1, 2) for o in schema):
        subs = [o["name"] for o in schema]
        raise LookupError(
            f"/{' '.join([command['name'], *path])} needs a subcommand: one of {subs}"
        )
    built = []
    known = {o["name"]: o for o in schema}
    for name, value in options.items():
        if name not in known:
            raise LookupError(f"/{command['name']} has no option {name!r} (has {sorted(known)})")
        opt = known[name]
        item: JSONObject = {"name": name, "type": opt["type"]}
        if name == focused:
            item |= {"value": str(value), "focused": True}
        else:
            item["value"] = _option_value(world, opt, value, handle, resolved)
        built.append(item)
    if focused is None:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
        if missing:
            raise ValueError(f"/{command['name']} is missing required options {missing}")
    elif focused not in options:
        raise ValueError(f"the focused option {focused!r} needs a (possibly empty) value")
    leaf_parent["options"] = built
    if resolved:
        data["resolved"] = resolved
    return data


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


def _option_value(
    world: World,
    opt: JSONObject,
    value: OptionValue,
    handle: InteractionHandle,
    resolved: dict[str, dict[str, JSONObject]],
) -> Any:
    kind = OptionType(opt["type"])
    name = opt["name"]
    if kind is OptionType.STRING:
        if not isinstance(value, str):
            raise TypeError(f"option {name!r} takes a str")
        if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
            raise ValueError(f"option {name!r}: length out of bounds")
        _check_choices(opt, value)
        return value
    if kind in (OptionType.INTEGER, OptionType.NUMBER):
        wanted = int if kind is OptionType.INTEGER else int | float
        if isinstance(value, bool) or not isinstance(value, wanted):
            raise TypeError(
                f"option {name!r} takes an {'int' if wanted is int else 'int or float'}"
            )
        low, high = opt.get("min_value"), opt.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {name!r}: {value} is out of [{low}, {high}]")
        _check_choices(opt, value)
        return value
    if kind is OptionType.BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"option {name!r} takes a bool")
        return value
    if isinstance(value, int) and not isinstance(value, bool) and kind in _ENTITY_TYPES:
        value = _lookup(world, handle, kind, value)
    if isinstance(value, User) and kind in (OptionType.USER, OptionType.MENTIONABLE):
        world.add_user(value)
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        member = handle.guild.member(value) if handle.guild is not None else None
        if member is not None and handle.guild is not None:
            perms = handle.guild.permissions_in(member, handle.channel)
            resolved.setdefault("members", {})[str(value.id)] = member.payload(
                permissions=perms, with_user=False
            )
        return str(value.id)
    if isinstance(value, Role) and kind in (OptionType.ROLE, OptionType.MENTIONABLE):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if isinstance(value, Channel) and kind is OptionType.CHANNEL:
        allowed = opt.get("channel_types")
        if allowed and int(value.type) not in allowed:
            raise ValueError(
                f"option {name!r} accepts channel types {allowed}, not {value.type.name}"
            )
        data = value.payload()
        data["permissions"] = str(world.permissions(handle.user, value))
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    raise TypeError(f"option {name!r} ({kind.name}) cannot take {value!r}")


_ENTITY_TYPES = (OptionType.USER, OptionType.CHANNEL, OptionType.ROLE, OptionType.MENTIONABLE)


def _lookup(
    world: World, handle: InteractionHandle, kind: OptionType, entity_id: int
) -> OptionValue:
    """Find the user, role or channel an id-valued option names."""
    roles = handle.guild.roles if handle.guild is not None else []
    found: OptionValue | None = None
    if kind in (OptionType.USER, OptionType.MENTIONABLE):
        found = world.users.get(entity_id)
    if found is None and kind in (OptionType.ROLE, OptionType.MENTIONABLE):
        found = next((r for r in roles if r.id == entity_id), None)
    if found is None and kind is OptionType.CHANNEL:
        found = world.channels.get(entity_id)
    if found is None:
        raise LookupError(f"no {kind.name.lower()} with id {entity_id}")
    return found


def _check_choices(opt: JSONObject, value: Any) -> None:
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {opt['name']!r}: {value!r} is not one of the choices")


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
