"""A command that fails unexpectedly, logged as JSON: its command, server id and shard are
fields, and what the member typed is clipped."""

from __future__ import annotations

import json
import logging

import pytest

from bot.client.bot import PaperclubBot
from bot.ops.logs import JsonFormatter
from discord_standin import Guild, StandIn
from tests.group import People


class _Lines(logging.Handler):
    """Formats each record as it is logged (in the command's task, with its context)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


async def test_a_failed_command_logs_its_context_and_not_the_whole_query(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the search broke")

    monkeypatch.setattr(bot.services.search, "search_first", broken)
    lines = _Lines()
    tree_log = logging.getLogger("bot.client.tree")
    tree_log.addHandler(lines)
    typed = "a rather long query about grokking in small transformers " * 3
    try:
        handle = await standin.slash("paper", {"query": typed}, guild=guild, user=people.alice)
        await handle.reply()
    finally:
        tree_log.removeHandler(lines)
    (line,) = [json.loads(text) for text in lines.lines if "failed" in text]
    assert (line["command"], line["server_id"], line["shard"]) == ("paper", guild.id, 0)
    assert line["error_type"] == "RuntimeError"
    assert typed.strip() not in json.dumps(line)
