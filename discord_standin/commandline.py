"""Parse a typed slash command (``/paper grokking year:2022``) against the synced commands."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .interactions import OptionType, OptionValue
from .model import JSONObject

_NAMED = re.compile(r"^([\w-]+):(.*)$", re.DOTALL)
_SNOWFLAKE = re.compile(r"^<[@#]?[!&]?(\d+)>$|^(\d+)$")
_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


@dataclass(frozen=True)
class SlashLine:
    """A parsed line: the command path (``"paper"``, ``"admin feeds add"``) and its options."""

    command: str
    options: dict[str, OptionValue] = field(default_factory=dict)
    last: str | None = None
    """The option the line ends in, else the one free text fills: what autocomplete focuses."""
    schema: tuple[JSONObject, ...] = ()
    """The command's options as registered (names, types, choices, autocomplete)."""

    def option(self, name: str | None) -> JSONObject | None:
        """The registered option called ``name``, if any."""
        return next((o for o in self.schema if o["name"] == name), None)


def parse_slash(line: str, commands: Sequence[JSONObject], *,
                channels: Mapping[str, int] | None = None) -> SlashLine:
    """Parse ``line`` like Discord's command bar.

    ``name:value`` sets an option (the value runs until the next ``name:``); leading free text
    fills the first required (else first) string option. Values are typed from the schema;
    user, channel and role options take ids or mentions, and channel options also ``#name``
    for a name in ``channels``.
    """
    try:
        tokens = shlex.split(line.strip().removeprefix("/"))
    except ValueError:
        tokens = line.strip().removeprefix("/").split()
    if not tokens:
        raise ValueError("empty command")
    head, *rest = tokens
    command = next((c for c in commands if c["name"] == head and c.get("type", 1) == 1), None)
    if command is None:
        known = ", ".join(sorted(f"/{c['name']}" for c in commands if c.get("type", 1) == 1))
        raise LookupError(f"unknown command /{head} (known: {known or 'none'})")
    path, schema = [head], list(command.get("options") or [])
    while rest and any(
        o["type"] in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP) for o in schema
    ):
        sub = next((o for o in schema if o["name"] == rest[0]), None)
        if sub is None:
            names = [o["name"] for o in schema]
            raise LookupError(f"/{' '.join(path)} has no subcommand {rest[0]!r} (has {names})")
        path.append(rest.pop(0))
        schema = list(sub.get("options") or [])
    known_options = {o["name"]: o for o in schema}
    free: list[str] = []
    named: dict[str, list[str]] = {}
    current: list[str] | None = None
    last: str | None = None
    for token in rest:
        match = _NAMED.match(token)
        if match and match.group(1) in known_options:
            last = match.group(1)
            current = named.setdefault(last, [])
            if match.group(2):
                current.append(match.group(2))
        elif current is not None:
            current.append(token)
        else:
            free.append(token)
    target = _free_text_target(schema, named)
    if free:
        if target is None:
            raise ValueError(f"/{' '.join(path)} takes no free text; use name:value")
        named[target] = free
    options = {
        name: _convert(known_options[name], " ".join(words), channels or {})
        for name, words in named.items()
    }
    return SlashLine(" ".join(path), options, last or target, tuple(schema))


def _free_text_target(schema: Sequence[JSONObject], named: dict[str, list[str]]) -> str | None:
    strings = [o for o in schema if o["type"] == OptionType.STRING and o["name"] not in named]
    required = [o for o in strings if o.get("required")]
    chosen = required or strings
    return str(chosen[0]["name"]) if chosen else None


def _convert(option: JSONObject, text: str, channels: Mapping[str, int]) -> OptionValue:
    kind = OptionType(option["type"])
    name = option["name"]
    if kind is OptionType.STRING:
        return text
    if kind in (OptionType.INTEGER, OptionType.NUMBER):
        try:
            return int(text) if kind is OptionType.INTEGER else float(text)
        except ValueError:
            what = "a whole number" if kind is OptionType.INTEGER else "a number"
            raise ValueError(f"option {name!r} takes {what}, not {text!r}") from None
    if kind is OptionType.BOOLEAN:
        if text.lower() in _TRUE | _FALSE:
            return text.lower() in _TRUE
        raise ValueError(f"option {name!r} takes true or false, not {text!r}")
    if kind is OptionType.CHANNEL and text.strip().startswith("#"):
        wanted = text.strip()[1:]
        if wanted in channels:
            return channels[wanted]
        known = ", ".join(f"#{c}" for c in channels) or "none"
        raise ValueError(f"no channel #{wanted} here (channels: {known})")
    match = _SNOWFLAKE.match(text.strip())
    if match is None:
        raise ValueError(f"option {name!r} takes an id or a mention, not {text!r}")
    return int(match.group(1) or match.group(2))
