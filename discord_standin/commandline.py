"""Parse a typed slash command (``/paper grokking year:2022``) against the synced commands."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .interactions import OptionType, OptionValue
from .model import JSONObject

_NAMED = re.compile(r"^([\w-]+):(.*)$", re.DOTALL)
_WORD = re.compile(r"\S+")
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
                channels: Mapping[str, int] | None = None, complete: bool = False) -> SlashLine:
    """Parse ``line`` like Discord's command bar.

    ``name:value`` sets an option (the value runs until the next ``name:``, spacing, quotes and
    backslashes kept as typed, as Discord sends them); leading free text fills the first
    required (else first) string option. Values are typed from the schema; an option with
    choices takes a choice's value or its name (``who:Everyone``); user, channel and role
    options take ids or mentions, and channel options also ``#name`` for a name in
    ``channels``. With ``complete`` the option the line ends in stays the text typed so far
    (what Discord sends the bot to autocomplete, whatever the option's type).
    """
    text = line.strip().removeprefix("/")
    words = list(_WORD.finditer(text))
    if not words:
        raise ValueError("empty command")
    head, *rest = words
    name_of = head.group()
    command = next((c for c in commands if c["name"] == name_of and c.get("type", 1) == 1), None)
    if command is None:
        known = ", ".join(sorted(f"/{c['name']}" for c in commands if c.get("type", 1) == 1))
        raise LookupError(f"unknown command /{name_of} (known: {known or 'none'})")
    path, schema = [name_of], list(command.get("options") or [])
    while rest and any(
        o["type"] in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP) for o in schema
    ):
        sub = next((o for o in schema if o["name"] == rest[0].group()), None)
        if sub is None:
            names = [o["name"] for o in schema]
            raise LookupError(f"/{' '.join(path)} has no subcommand {rest[0].group()!r} "
                              f"(has {names})")
        path.append(rest.pop(0).group())
        schema = list(sub.get("options") or [])
    known_options = {o["name"]: o for o in schema}
    named, free, last = _spans(text, rest, known_options)
    target = _free_text_target(schema, named)
    if free is not None:
        if target is None:
            raise ValueError(f"/{' '.join(path)} takes no free text; use name:value")
        named[target] = free
    focused = (last or target) if complete else None
    options = {
        name: typed if name == focused else _convert(known_options[name], typed, channels or {})
        for name, typed in named.items()
    }
    return SlashLine(" ".join(path), options, last or target, tuple(schema))


def _spans(text: str, words: Sequence[re.Match[str]], known: Mapping[str, JSONObject],
           ) -> tuple[dict[str, str], str | None, str | None]:
    """Each named option's text as typed, the free text before the first one (None when
    there is none), and the name of the last option named."""
    marks = [(found.group(1), word.start(), word.start() + len(found.group(1)) + 1)
             for word in words
             if (found := _NAMED.match(word.group())) and found.group(1) in known]
    ends = [label for _, label, _ in marks[1:]] + [len(text)]  # one more when none is named
    named = {name: text[start:end].strip()
             for (name, _, start), end in zip(marks, ends, strict=False)}
    free_end = marks[0][1] if marks else len(text)
    free = text[words[0].start():free_end].strip() if words else ""
    return named, free or None, marks[-1][0] if marks else None


def _free_text_target(schema: Sequence[JSONObject], named: Mapping[str, str]) -> str | None:
    strings = [o for o in schema if o["type"] == OptionType.STRING and o["name"] not in named]
    required = [o for o in strings if o.get("required")]
    chosen = required or strings
    return str(chosen[0]["name"]) if chosen else None


def _choice_head(name: str) -> str:
    """A choice's name before its explanation (`Curators: Manage Server or …` -> `curators`)."""
    return re.split(r"[:(（：]", name, maxsplit=1)[0].strip().casefold()


def _choice(option: JSONObject, text: str) -> OptionValue:
    """The value of the choice typed as its value or (as Discord lists them) its name, in any
    case, quoted or not; the name's head (before a `:` or `(`) is enough when no other choice
    has it."""
    choices = option["choices"]
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    wanted = text.casefold()
    ranked = ([c for c in choices if text == str(c["value"])]
              + [c for c in choices if wanted == str(c["value"]).casefold()]
              + [c for c in choices if wanted == str(c["name"]).casefold()])
    if ranked:
        return ranked[0]["value"]  # type: ignore[no-any-return]
    heads = [c for c in choices if _choice_head(str(c["name"])) == wanted]
    if len(heads) == 1:
        return heads[0]["value"]  # type: ignore[no-any-return]
    names = ", ".join(str(c["name"]) for c in choices)
    raise ValueError(f"option {option['name']!r} takes one of: {names} (not {text!r})")


def _convert(option: JSONObject, text: str, channels: Mapping[str, int]) -> OptionValue:
    kind = OptionType(option["type"])
    name = option["name"]
    if option.get("choices"):
        return _choice(option, text)
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
