"""The INTERACTION_CREATE payloads the stand-in injects: the fields every interaction carries,
and a slash command's options checked against the registered schema and resolved against the
world (users, roles, channels)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .interactions import InteractionHandle, OptionType, OptionValue
from .model import Channel, JSONObject, Role, User
from .state import World


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
