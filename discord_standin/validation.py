"""Discord's documented limits, checked the way the API checks them (400, code 50035)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .messages import MessageFlag, walk_components
from .model import JSONObject
from .polls import ANSWER_LIMIT, EMOJI_NAME_LIMIT, MAX_ANSWERS, MAX_HOURS, QUESTION_LIMIT

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class FormError:
    """One invalid field: where it is, Discord's error code and message."""

    path: Path
    code: str
    message: str


def too_long(path: Path, limit: int) -> FormError:
    """The error for a string over ``limit`` code points."""
    return FormError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def too_many(path: Path, limit: int) -> FormError:
    """The error for a list over ``limit`` items."""
    return FormError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def nest_errors(errors: Iterable[FormError]) -> JSONObject:
    """Build Discord's nested ``errors`` object (``{"content": {"_errors": [...]}}``)."""
    root: JSONObject = {}
    for error in errors:
        node = root
        for part in error.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return root


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_embeds(embeds: Sequence[JSONObject]) -> list[FormError]:
    """Check embed counts and the per-field and 6000-total character limits."""
    errors: list[FormError] = []
    if len(embeds) > 10:
        errors.append(too_many(("embeds",), 10))
    total = 0
    for i, embed in enumerate(embeds):
        where: Path = ("embeds", i)
        for key, limit in (("title", 256), ("description", 4096)):
            total += _length(embed.get(key))
            if _length(embed.get(key)) > limit:
                errors.append(too_long((*where, key), limit))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.append(too_many((*where, "fields"), 25))
        for j, fld in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                total += _length(fld.get(key))
                if _length(fld.get(key)) > limit:
                    errors.append(too_long((*where, "fields", j, key), limit))
                if not fld.get(key):
                    errors.append(
                        FormError(
                            (*where, "fields", j, key),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        )
                    )
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            part = embed.get(key) or {}
            total += _length(part.get(sub))
            if _length(part.get(sub)) > limit:
                errors.append(too_long((*where, key, sub), limit))
        errors += _check_urls(embed, where)
    if total > 6000:
        errors.append(
            FormError(
                ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
            )
        )
    return errors


_URL_LIMIT = 2048
_EMBED_URLS = ((), ("author",), ("footer",), ("image",), ("thumbnail",))


def _check_urls(embed: JSONObject, where: Path) -> list[FormError]:
    """Embed links and images: at most 2,048 characters each."""
    errors: list[FormError] = []
    for part in _EMBED_URLS:
        node = embed
        for key in part:
            node = node.get(key) or {}
        for key in ("url", "icon_url", "proxy_icon_url"):
            if _length(node.get(key)) > _URL_LIMIT:
                errors.append(too_long((*where, *part, key), _URL_LIMIT))
    return errors


def check_components(components: Sequence[JSONObject], *, v2: bool) -> list[FormError]:
    """Check action-row layout, custom ids, labels and select options."""
    errors: list[FormError] = []
    if not v2 and len(components) > 5:
        errors.append(too_many(("components",), 5))
    for i, row in enumerate(components):
        children = row.get("components") or []
        if not v2 and row.get("type") == 1:
            if len(children) > 5:
                errors.append(too_many(("components", i, "components"), 5))
            if any(c.get("type") != 2 for c in children) and len(children) > 1:
                errors.append(
                    FormError(
                        ("components", i, "components"),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "The specified component exceeds the maximum width",
                    )
                )
    seen: set[str] = set()
    items = list(walk_components(components))
    if v2 and len(items) > 40:
        errors.append(too_many(("components",), 40))
    for item in items:
        custom_id = item.get("custom_id")
        if isinstance(custom_id, str):
            if not 1 <= len(custom_id) <= 100:
                errors.append(FormError(("components", "custom_id"), "BASE_TYPE_BAD_LENGTH",
                                        "Must be between 1 and 100 in length."))
            if custom_id in seen:
                errors.append(
                    FormError(
                        ("components", "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        f"Component custom id cannot be duplicated: {custom_id}",
                    )
                )
            seen.add(custom_id)
        if _length(item.get("label")) > 80:
            errors.append(too_long(("components", "label"), 80))
        if item.get("type") == 2 and _length(item.get("url")) > 512:
            errors.append(too_long(("components", "url"), 512))
        options = item.get("options")
        if isinstance(options, list):
            if len(options) > 25:
                errors.append(too_many(("components", "options"), 25))
            for option in options:
                for key in ("label", "value"):
                    if _length(option.get(key)) > 100:
                        errors.append(too_long(("components", "options", key), 100))
    return errors


def check_message(body: JSONObject) -> list[FormError]:
    """Check a create or edit message body against Discord's limits."""
    errors: list[FormError] = []
    content = body.get("content")
    flags = body.get("flags") or 0
    if _length(content) > 2000:
        errors.append(too_long(("content",), 2000))
    errors += check_embeds(body.get("embeds") or [])
    errors += check_components(
        body.get("components") or [], v2=bool(flags & MessageFlag.IS_COMPONENTS_V2)
    )
    nonce = body.get("nonce")
    if isinstance(nonce, str) and len(nonce) > 25:
        errors.append(too_long(("nonce",), 25))
    for key, limit in (("sticker_ids", 3), ("attachments", 10)):
        if len(body.get(key) or ()) > limit:
            errors.append(too_many((key,), limit))
    errors += check_allowed_mentions(body.get("allowed_mentions"))
    errors += check_poll(body.get("poll"))
    return errors


def _bad_length(path: Path, low: int, high: int) -> FormError:
    return FormError(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _required(path: Path) -> FormError:
    return FormError(path, "BASE_TYPE_REQUIRED", "This field is required")


def _check_media(media: Any, path: Path, limit: int) -> list[FormError]:
    if not isinstance(media, dict):
        return [_required(path)]
    errors: list[FormError] = []
    text = media.get("text")
    if not isinstance(text, str) or not 1 <= len(text) <= limit:
        errors.append(_bad_length((*path, "text"), 1, limit))
    emoji = media.get("emoji")
    if isinstance(emoji, dict):
        name = emoji.get("name")
        if isinstance(name, str) and len(name) > EMOJI_NAME_LIMIT:
            errors.append(FormError((*path, "emoji", "name"), "BASE_TYPE_MAX_LENGTH",
                                    f"Must be {EMOJI_NAME_LIMIT} or fewer in length."))
    return errors


def _check_duration(raw: Any) -> list[FormError]:
    """Whole hours, 1 to 768 (discord.py sends a float such as 24.0: an integral number is an
    integer to Discord; 1.5 is not)."""
    where: Path = ("poll", "duration")
    if raw is None:
        return []
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw != int(raw):
        return [FormError(where, "NUMBER_TYPE_COERCE", f'Value "{raw}" is not int.')]
    if raw < 1:
        return [FormError(where, "NUMBER_TYPE_MIN",
                          "int value should be greater than or equal to 1.")]
    if raw > MAX_HOURS:
        return [FormError(where, "NUMBER_TYPE_MAX",
                          f"int value should be less than or equal to {MAX_HOURS}.")]
    return []


def check_poll(poll: Any) -> list[FormError]:
    """A create-message body's ``poll``: question 1-300 characters, 1-10 answers of 1-55
    characters, whole hours 1-768, the default layout, a boolean multiselect."""
    if poll is None:
        return []
    if not isinstance(poll, dict):
        return [FormError(("poll",), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a "
                          "ModelType")]
    errors = _check_media(poll.get("question"), ("poll", "question"), QUESTION_LIMIT)
    answers = poll.get("answers")
    if not isinstance(answers, list) or not answers:
        errors.append(_required(("poll", "answers")))
        answers = []
    elif len(answers) > MAX_ANSWERS:
        errors.append(too_many(("poll", "answers"), MAX_ANSWERS))
    for i, answer in enumerate(answers):
        media = answer.get("poll_media") if isinstance(answer, dict) else None
        errors += _check_media(media, ("poll", "answers", i, "poll_media"), ANSWER_LIMIT)
    errors += _check_duration(poll.get("duration"))
    if poll.get("layout_type") not in (None, 1):
        errors.append(FormError(("poll", "layout_type"), "ENUM_TYPE_COERCE",
                                f"Value \"{poll.get('layout_type')}\" is not a valid enum "
                                "value."))
    multiselect = poll.get("allow_multiselect")
    if multiselect is not None and not isinstance(multiselect, bool):
        errors.append(FormError(("poll", "allow_multiselect"), "BOOLEAN_TYPE_CONVERT",
                                "Must be either true or false."))
    return errors


def check_allowed_mentions(allowed: Any) -> list[FormError]:
    """At most 100 distinct user ids and 100 role ids; ``parse`` may not name a kind whose
    ids are also listed. Any of these refuses the whole message."""
    if not isinstance(allowed, dict):
        return []
    errors: list[FormError] = []
    parse = set(allowed.get("parse") or ())
    for key in ("users", "roles"):
        ids = allowed.get(key)
        if ids is None:
            continue
        where: Path = ("allowed_mentions", key)
        if len(ids) > 100:
            errors.append(too_many(where, 100))
        if len({str(i) for i in ids}) != len(ids):
            errors.append(FormError(where, "SET_TYPE_ALREADY_CONTAINS_VALUE",
                                    "The set already contains this value."))
        if key in parse and ids:
            errors.append(FormError(
                ("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{key}"] and {key}: [ids] are mutually exclusive.'))
    return errors


def is_empty_message(body: JSONObject) -> bool:
    """Whether a new message would have nothing to show (Discord answers 50006)."""
    return not any(
        body.get(key)
        for key in ("content", "embeds", "components", "attachments", "sticker_ids", "poll")
    )


def check_choices(choices: Sequence[JSONObject]) -> list[FormError]:
    """Check an autocomplete result: at most 25 choices, names of 1 to 100 characters."""
    errors: list[FormError] = []
    if len(choices) > 25:
        errors.append(too_many(("data", "choices"), 25))
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.append(
                FormError(
                    ("data", "choices", i, "name"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            )
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            errors.append(too_long(("data", "choices", i, "value"), 100))
    return errors


def check_commands(commands: Sequence[JSONObject]) -> list[FormError]:
    """Check application command names, descriptions and option counts."""
    errors: list[FormError] = []
    names: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        name = str(command.get("name", ""))
        kind = int(command.get("type", 1))
        if (name, kind) in names:
            errors.append(
                FormError(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {name}",
                )
            )
        names.add((name, kind))
        if kind == 1:
            errors += _check_command_node(command, (i,), chat_input=True)
        else:
            errors += _check_context_menu(command, (i,))
    for kind, label in ((2, "user"), (3, "message")):
        if sum(1 for c in commands if int(c.get("type", 1)) == kind) > CONTEXT_MENUS_PER_TYPE:
            errors.append(FormError(
                (), "APPLICATION_COMMANDS_TOO_MANY_CONTEXT_MENUS",
                f"Maximum number of {label} commands reached ({CONTEXT_MENUS_PER_TYPE})"))
    return errors


CONTEXT_MENUS_PER_TYPE = 5
"""User commands and message commands an application may have, each, per scope."""


def _check_context_menu(command: JSONObject, where: Path) -> list[FormError]:
    """User and message commands: a name of 1 to 32 characters (any case, spaces allowed), an
    empty description, no options."""
    errors = _check_command_node({"name": command.get("name", "")}, where, chat_input=False)
    if command.get("description"):
        errors.append(FormError((*where, "description"), "APPLICATION_COMMAND_INVALID_DESCRIPTION",
                                "Context menu commands cannot have a description"))
    if command.get("options"):
        errors.append(FormError((*where, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID",
                                "Context menu commands cannot have options"))
    return errors


def _check_command_node(node: JSONObject, where: Path, *, chat_input: bool) -> list[FormError]:
    errors: list[FormError] = []
    name = str(node.get("name", ""))
    if not 1 <= len(name) <= 32 or (chat_input and (name != name.lower() or " " in name)):
        errors.append(
            FormError(
                (*where, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r}",
            )
        )
    if chat_input and not 1 <= len(str(node.get("description", ""))) <= 100:
        errors.append(
            FormError(
                (*where, "description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        )
    options = node.get("options") or []
    if len(options) > 25:
        errors.append(too_many((*where, "options"), 25))
    seen_optional = False
    for j, option in enumerate(options):
        if option.get("type") in (1, 2):
            errors += _check_command_node(option, (*where, "options", j), chat_input=True)
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(
                    FormError(
                        (*where, "options", j),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        errors += _check_command_node(option, (*where, "options", j), chat_input=True)
        if len(option.get("choices") or []) > 25:
            errors.append(too_many((*where, "options", j, "choices"), 25))
    return errors
