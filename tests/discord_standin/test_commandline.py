"""Parsing a typed slash command line against registered commands."""

from __future__ import annotations

import pytest

from discord_standin import parse_slash

PAPER = {
    "name": "paper",
    "type": 1,
    "description": "Papers",
    "options": [
        {
            "name": "search",
            "type": 1,
            "description": "Search",
            "options": [
                {"name": "query", "type": 3, "description": "q", "required": True},
                {"name": "limit", "type": 4, "description": "n"},
                {"name": "recent", "type": 5, "description": "r"},
            ],
        },
        {"name": "today", "type": 1, "description": "Paper of the day"},
    ],
}


ECHO = {"name": "echo", "type": 1, "description": "Echo", "options": [{"name": "text", "type": 3}]}


def test_parse_slash_fills_free_text_and_named_options() -> None:
    line = parse_slash("/paper search grokking at scale limit:5 recent:yes", [PAPER, ECHO])
    assert line.command == "paper search"
    assert line.options == {"query": "grokking at scale", "limit": 5, "recent": True}
    assert parse_slash('/echo "hi there"', [PAPER, ECHO]).options == {"text": "hi there"}
    assert parse_slash("/paper today", [PAPER]).options == {}


def test_parse_slash_reports_unknown_commands() -> None:
    with pytest.raises(LookupError, match="known: /echo, /paper"):
        parse_slash("/papr x", [PAPER, ECHO])
    with pytest.raises(LookupError, match="no subcommand 'find'"):
        parse_slash("/paper find x", [PAPER])
