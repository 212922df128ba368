"""Log output: the human format (the default) or one JSON object a line (`[logging] format =
"json"`) for Loki or Elasticsearch, with the time, level, logger, message, and where known the
shard, the server id, the command and the error's type.

The command's context is set for the command's task by the tree (`command_context`), so
every line logged while it runs carries it. Text a member typed is never logged in full:
`clipped` shortens it wherever it is logged, and each JSON field is capped besides."""

from __future__ import annotations

import json
import logging
import sys
import traceback
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

HUMAN_FORMAT = "%(levelname)s %(name)s: %(message)s"
MESSAGE_LIMIT = 2000
"""Characters of a message kept in a JSON line (a traceback is kept whole)."""
TYPED_LIMIT = 40
"""Characters of a member's typed value kept in a log line."""


@dataclass(frozen=True)
class CommandContext:
    """The slash command being handled."""

    command: str | None = None
    server_id: int | None = None
    shard: int | None = None


_CONTEXT: ContextVar[CommandContext | None] = ContextVar("paperclub_log_context", default=None)


def command_context(context: CommandContext) -> None:
    """Tag this task's log lines (and those of tasks it starts) with the command."""
    _CONTEXT.set(context)


def clipped(value: object, limit: int = TYPED_LIMIT) -> object:
    """`value` with every string in it shortened to `limit` characters (and its length)."""
    if isinstance(value, str):
        return value if len(value) <= limit else f"{value[:limit]}… ({len(value)} chars)"
    if isinstance(value, Mapping):
        return {key: clipped(item, limit) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [clipped(item, limit) for item in value]
    return value


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as JSON (never raises on an odd argument)."""
        message = record.getMessage()
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname, "logger": record.name,
            "message": message if len(message) <= MESSAGE_LIMIT
            else f"{message[:MESSAGE_LIMIT]}… ({len(message)} chars)"}
        context = _CONTEXT.get()
        fields = asdict(context) if context is not None else {}
        for key in ("shard", "server_id", "command"):
            value = getattr(record, key, fields.get(key))
            if value is not None:
                line[key] = value
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line["error_type"] = type(error).__name__
            line["traceback"] = "".join(traceback.format_exception(error)).rstrip()
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(level: str, style: str) -> None:
    """The root logger on standard error, in `style` ("human" or "json"); like
    `logging.basicConfig`, nothing changes when the root logger already has a handler."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if style == "json" else logging.Formatter(HUMAN_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
