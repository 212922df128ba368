"""`[logging] format = "json"`: one JSON object a line with the command's context; text a
member typed is never logged whole."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

from bot.ops.logs import CommandContext, JsonFormatter, clipped, command_context


def _record(message: str, *args: object, exc: BaseException | None = None) -> logging.LogRecord:
    info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.LogRecord("bot.client.tree", logging.ERROR, __file__, 1, message, args, info)


def test_a_line_is_one_json_object_with_time_level_logger_and_message() -> None:
    line = JsonFormatter().format(_record("digest for guild %s failed", 42))
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["level"] == "ERROR" and parsed["logger"] == "bot.client.tree"
    assert parsed["message"] == "digest for guild 42 failed"
    assert parsed["time"].endswith("+00:00")
    assert "command" not in parsed and "error_type" not in parsed


def test_the_command_context_and_the_error_type_are_fields() -> None:
    def handle() -> str:
        command_context(CommandContext(command="paper", server_id=7, shard=1))
        try:
            raise KeyError("boom")
        except KeyError as exc:
            return JsonFormatter().format(_record("command failed", exc=exc))

    import contextvars

    parsed = json.loads(contextvars.copy_context().run(handle))
    assert (parsed["command"], parsed["server_id"], parsed["shard"]) == ("paper", 7, 1)
    assert parsed["error_type"] == "KeyError" and "Traceback" in parsed["traceback"]


def test_typed_text_is_clipped_wherever_it_sits() -> None:
    typed = "x" * 500
    data = {"name": "paper", "options": [{"name": "query", "value": typed}]}
    shown = clipped(data)
    assert typed not in str(shown)
    assert "(500 chars)" in str(shown)
    assert clipped("short") == "short"


def test_json_format_from_the_settings_writes_json_lines_to_stderr() -> None:
    script = ("import logging, os; from bot.settings import load_settings; "
              "from bot.ops.logs import configure_logging; "
              "s = load_settings(None, os.environ); "
              "configure_logging(s.logging.level, s.logging.format); "
              "logging.getLogger('paperclub.check').warning('outbox %s', 3)")
    env = {"PAPERCLUB_LOGGING__FORMAT": "json", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, check=True)
    (line,) = done.stderr.splitlines()
    assert json.loads(line)["message"] == "outbox 3"
    human = subprocess.run([sys.executable, "-c", script], env={"PATH": "/usr/bin:/bin"},
                           capture_output=True, text=True, check=True)
    assert human.stderr == "WARNING paperclub.check: outbox 3\n"
