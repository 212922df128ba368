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
    assert parse_slash("/echo hi   there ", [PAPER, ECHO]).options == {"text": "hi   there"}
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


def test_quotes_and_backslashes_are_sent_as_typed() -> None:
    """Discord's command bar does not interpret quotes or backslashes: neither does the line."""
    typed = 'see \\cite{x} and "quoted" it\'s'
    line = parse_slash(f"/paper search {typed} limit:5", [PAPER])
    assert line.options == {"query": typed, "limit": 5}
    assert "\\cite" in typed
    assert parse_slash('/echo "hi there"', [ECHO]).options == {"text": '"hi there"'}


ADDING = {"name": "adding", "type": 1, "description": "Who adds", "options": [
    {"name": "who", "type": 3, "description": "w", "required": True, "choices": [
        {"name": "Everyone", "value": "anyone"},
        {"name": "Manage Server only", "value": "managers"}]},
    {"name": "hours", "type": 4, "description": "h", "choices": [
        {"name": "One day", "value": 24}]}]}


def test_a_choice_is_typed_as_its_name_or_its_value() -> None:
    assert parse_slash("/adding who:Everyone", [ADDING]).options == {"who": "anyone"}
    assert parse_slash("/adding who:manage server only hours:one day",
                       [ADDING]).options == {"who": "managers", "hours": 24}
    assert parse_slash("/adding who:anyone hours:24", [ADDING]).options == {
        "who": "anyone", "hours": 24}
    with pytest.raises(ValueError, match=r"'who' takes one of: Everyone, Manage Server only"):
        parse_slash("/adding who:nobody", [ADDING])


def test_the_option_being_completed_is_the_text_typed_so_far() -> None:
    """Discord sends the focused option as a string whatever its type, even empty."""
    assert parse_slash("/digest set days:", [DIGEST], complete=True).options == {"days": ""}
    line = parse_slash("/digest set days:3 timezone:eu", [DIGEST], complete=True)
    assert line.options == {"days": 3, "timezone": "eu"}
    with pytest.raises(ValueError, match="whole number"):
        parse_slash("/digest set days:", [DIGEST])
