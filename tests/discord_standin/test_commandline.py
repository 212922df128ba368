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


DIGEST = {"name": "digest", "type": 1, "description": "Digest", "options": [{
    "name": "set", "type": 1, "description": "Set", "options": [
        {"name": "channel", "type": 7, "description": "c", "required": True},
        {"name": "time", "type": 3, "description": "t", "required": True},
        {"name": "timezone", "type": 3, "description": "z", "required": True,
         "autocomplete": True},
        {"name": "days", "type": 4, "description": "d"}]}]}


def test_the_option_a_line_ends_with_is_known() -> None:
    line = parse_slash("/digest set channel:#papers time:09:00 timezone:berl", [DIGEST],
                       channels={"papers": 7})
    assert line.options == {"channel": 7, "time": "09:00", "timezone": "berl"}
    assert line.last == "timezone"
    assert parse_slash("/paper search grok limit:5", [PAPER]).last == "limit"
    assert parse_slash("/paper search grok", [PAPER]).last == "query"
    assert parse_slash("/paper search", [PAPER]).last == "query"
    ends_named = parse_slash("/digest set timezone:", [DIGEST])
    assert ends_named.last == "timezone" and ends_named.options == {"timezone": ""}


def test_channel_names_are_replaced_only_in_channel_options() -> None:
    line = parse_slash("/echo #papers", [ECHO], channels={"papers": 7})
    assert line.options == {"text": "#papers"}
    with pytest.raises(ValueError, match=r"no channel #nowhere.*#papers"):
        parse_slash("/digest set channel:#nowhere time:9 timezone:UTC", [DIGEST],
                    channels={"papers": 7})


def test_bad_numbers_get_a_one_line_hint() -> None:
    with pytest.raises(ValueError, match=r"option 'days' takes a whole number, not 'x'"):
        parse_slash("/digest set channel:7 time:9 timezone:UTC days:x", [DIGEST])
