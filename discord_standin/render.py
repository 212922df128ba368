"""Render messages and interaction callbacks as plain terminal text (used by local mode)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, tzinfo
from typing import Any, NamedTuple

from .interactions import Callback, CallbackType
from .messages import Message, MessageFlag

_BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
_SELECT_KINDS = {5: "user", 6: "role", 7: "user or role", 8: "channel"}
_MENTION = re.compile(r"<(@!?|@&|#)(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d{1,13})(?::([tTdDfFR]))?>")
_UNITS = (("year", 365 * 86_400), ("month", 30 * 86_400), ("day", 86_400), ("hour", 3_600),
          ("minute", 60))


class _Chinese(NamedTuple):
    """How Discord's Chinese clients word a relative time."""

    units: tuple[str, ...]
    """`_UNITS`, in order."""
    space: str
    later: str
    ago: str
    now: str


_CHINESE = {"zh-CN": _Chinese(("年", "个月", "天", "小时", "分钟"), "", "后", "前", "现在"),
            "zh-TW": _Chinese(("年", "個月", "天", "小時", "分鐘"), " ", "後", "前", "現在")}


def render_message(
    message: Message | Mapping[str, Any],
    *,
    author: str | None = None,
    names: Mapping[int, str] | None = None,
    now: float | None = None,
    zone: tzinfo | None = None,
    locale: str = "en-US",
) -> str:
    """Render a message (or a callback's ``data``): header, content, embeds, components.

    ``names`` maps user, role and channel ids to names, to show ``<@id>`` as ``@name``;
    ``<t:…>`` timestamps show as time in ``zone`` (default: the computer's), named, and how far
    they are from ``now`` (default: the current time, in seconds since the epoch), worded as
    Discord words it for ``locale`` (``in 3 hours``, ``3小时后``, ``3 小時後``).
    """
    data: Mapping[str, Any] = message.payload() if isinstance(message, Message) else message
    mentions = _mentions(names or {})
    moment = time.time() if now is None else now

    def text(value: str) -> str:
        return _timestamps(mentions(value), moment, zone, locale)

    lines: list[str] = []
    name = author or (data.get("author") or {}).get("username")
    flags = int(data.get("flags") or 0)
    notes = []
    if flags & MessageFlag.EPHEMERAL:
        notes.append("only you can see this")
    if data.get("edited_timestamp"):
        notes.append("edited")
    if name or notes:
        lines.append(" · ".join([str(name or "")] * bool(name) + notes))
    if flags & MessageFlag.LOADING:
        lines.append("… thinking")
    if data.get("content"):
        lines.extend(text(str(data["content"])).splitlines())
    for embed in data.get("embeds") or []:
        lines.extend(text(line) for line in _embed(embed))
    for attachment in data.get("attachments") or []:
        lines.append(f"📎 {attachment.get('filename', 'file')}")
    if isinstance(data.get("poll"), Mapping):
        lines.extend(_poll(data["poll"], zone))
    lines.extend(_components(data.get("components") or []))
    return "\n".join(lines)


def _poll(poll: Mapping[str, Any], zone: tzinfo | None = None) -> list[str]:
    """A poll: its question, then each answer with its votes (final once Discord counted);
    its end in ``zone``, named, as a Discord client shows it."""
    results = poll.get("results") or {}
    counts = {int(c["id"]): int(c["count"]) for c in results.get("answer_counts") or []}
    state = "final" if results.get("is_finalized") else f"ends {_moment(poll.get('expiry'), zone)}"
    lines = [f"📊 {(poll.get('question') or {}).get('text', '')} ({state})"]
    for answer in poll.get("answers") or []:
        answer_id = int(answer.get("answer_id") or 0)
        text = (answer.get("poll_media") or {}).get("text", "")
        lines.append(f"  {answer_id}. {text} — {counts.get(answer_id, 0)}")
    return lines


def _moment(iso: Any, zone: tzinfo | None) -> str:
    """An ISO 8601 instant as `2026-12-07 23:14 Europe/Berlin` ('?' when there is none)."""
    try:
        local = datetime.fromisoformat(str(iso)).astimezone(zone)
    except ValueError:
        return "?"
    return f"{local:%Y-%m-%d %H:%M} {getattr(zone, 'key', None) or local.tzname()}"


def render_callback(
    callback: Callback | Mapping[str, Any],
    *,
    author: str | None = None,
    names: Mapping[int, str] | None = None,
) -> str:
    """Render an interaction callback (``{"type": ..., "data": {...}}``) the way a user sees it."""
    raw: Mapping[str, Any] = callback.raw if isinstance(callback, Callback) else callback
    kind, data = int(raw.get("type", 0)), raw.get("data") or {}
    if kind == CallbackType.CHANNEL_MESSAGE:
        return render_message(data, author=author, names=names)
    if kind == CallbackType.UPDATE_MESSAGE:
        return "(message updated)\n" + render_message(data, author=author, names=names)
    if kind == CallbackType.DEFERRED_CHANNEL_MESSAGE:
        who = author or "the bot"
        private = (
            " (only you can see this)"
            if int(data.get("flags") or 0) & MessageFlag.EPHEMERAL
            else ""
        )
        return f"{who} is thinking…{private}"
    if kind == CallbackType.DEFERRED_UPDATE_MESSAGE:
        return "(acknowledged)"
    if kind == CallbackType.AUTOCOMPLETE_RESULT:
        choices = data.get("choices") or []
        if not choices:
            return "(no suggestions)"
        return "\n".join(
            ["suggestions:"] + [f"  {c.get('name')}  = {c.get('value')!r}" for c in choices]
        )
    if kind == CallbackType.MODAL:
        lines = [f"form: {data.get('title', '')}"]
        for item in _walk(data.get("components") or []):
            if item.get("type") == 4:
                label = item.get("label") or item.get("placeholder") or item.get("custom_id")
                lines.append(f"  [{label}: ____] ({item.get('custom_id')})")
        return "\n".join(lines)
    return f"(callback type {kind})"


def _mentions(names: Mapping[int, str]) -> Callable[[str], str]:
    def replace(found: re.Match[str]) -> str:
        sigil, entity = found.group(1), int(found.group(2))
        prefix = "#" if sigil == "#" else "@"
        return prefix + names[entity] if entity in names else found.group(0)

    return lambda value: _MENTION.sub(replace, value)


def _timestamps(value: str, now: float, zone: tzinfo | None, locale: str) -> str:
    def replace(found: re.Match[str]) -> str:
        stamp = int(found.group(1))
        try:
            local = datetime.fromtimestamp(stamp, zone).astimezone(zone)
        except (OverflowError, OSError, ValueError):
            return found.group(0)
        shown = f"{local:%Y-%m-%d %H:%M} {getattr(zone, 'key', None) or local.tzname()}"
        if found.group(2) in ("t", "T", "d", "D", "f", "F"):  # a moment: no "in 4 days"
            return shown
        return f"{shown}, {_relative(stamp - now, locale)}"  # relative or bare

    return _TIMESTAMP.sub(replace, value)


def _relative(seconds: float, locale: str = "en-US") -> str:
    """``in 2 hours``, ``1 minute ago``, ``now``, as Discord shows ``<t:…:R>`` (in Chinese
    for a ``zh-CN`` or ``zh-TW`` reader: ``2小时后``, ``1 分鐘前``, ``現在``)."""
    chinese = _CHINESE.get(locale)
    span = abs(seconds)
    for n, (unit, size) in enumerate(_UNITS):
        if span >= size:
            count = int(span // size)
            if chinese is not None:
                amount = f"{count}{chinese.space}{chinese.units[n]}"
                return amount + (chinese.later if seconds > 0 else chinese.ago)
            amount = f"{count} {unit}{'s' if count != 1 else ''}"
            return f"in {amount}" if seconds > 0 else f"{amount} ago"
    return chinese.now if chinese is not None else "now"


def _embed(embed: Mapping[str, Any]) -> list[str]:
    body: list[str] = []
    author = (embed.get("author") or {}).get("name")
    if author:
        body.append(str(author))
    if embed.get("title"):
        body.append(f"**{embed['title']}**")
    if embed.get("url"):
        body.append(str(embed["url"]))
    if embed.get("description"):
        body.extend(str(embed["description"]).splitlines())
    for fld in embed.get("fields") or []:
        value = str(fld.get("value"))
        if "\n" in value:
            body.append(f"{fld.get('name')}:")
            body.extend(f"  {line}" for line in value.splitlines())
        else:
            body.append(f"{fld.get('name')}: {value}")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        body.append(f"— {footer}")
    if not body:
        return []
    lines = [line for entry in body for line in entry.splitlines()]
    return ["╭" + "─" * 3] + [f"│ {line}" for line in lines] + ["╰" + "─" * 3]


def _walk(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for item in components:
        yield item
        yield from _walk(item.get("components") or [])
        for key in ("component", "accessory"):
            if isinstance(item.get(key), Mapping):
                yield from _walk([item[key]])


def _components(components: Iterable[Mapping[str, Any]], indent: str = "") -> list[str]:
    lines: list[str] = []
    for item in components:
        kind = item.get("type")
        if kind == 1:
            parts = [_control(c) for c in item.get("components") or []]
            lines.append(indent + "  ".join(p for p in parts if p))
        elif kind == 17:
            lines.append(indent + "┌" + "─" * 3)
            lines.extend(_components(item.get("components") or [], indent + "│ "))
            lines.append(indent + "└" + "─" * 3)
        elif kind == 9:
            lines.extend(_components(item.get("components") or [], indent))
            accessory = item.get("accessory")
            if isinstance(accessory, Mapping):
                lines.extend(_components([accessory], indent + "  "))
        elif kind == 10:
            lines.extend(indent + line for line in str(item.get("content", "")).splitlines())
        elif kind == 14:
            lines.append(indent + "─" * 20)
        elif kind in (11, 12, 13):
            lines.append(indent + {11: "[thumbnail]", 12: "[images]", 13: "[file]"}[kind])
        else:
            control = _control(item)
            if control:
                lines.append(indent + control)
    return lines


def _control(item: Mapping[str, Any]) -> str:
    kind = item.get("type")
    disabled = " (disabled)" if item.get("disabled") else ""
    if kind == 2:
        emoji = (item.get("emoji") or {}).get("name")
        label = " ".join(str(x) for x in (emoji, item.get("label")) if x) or "button"
        if item.get("style") == 5:
            return f"[{label} ↗ {item.get('url')}]{disabled}"
        return f"[{label}]{disabled}"
    if kind == 3:
        options = item.get("options") or []
        picked = [o["label"] for o in options if o.get("default")]
        head = f"[{item.get('placeholder') or 'choose'} ▾]{disabled}"
        shown = ", ".join(str(o.get("label")) for o in options)
        return f"{head} {shown}" + (f" (selected: {', '.join(picked)})" if picked else "")
    if kind in _SELECT_KINDS:
        return f"[{item.get('placeholder') or 'choose'} ▾ ({_SELECT_KINDS[int(kind)]})]{disabled}"
    if kind == 4:
        return f"[{item.get('label') or item.get('custom_id')}: ____]"
    return ""
