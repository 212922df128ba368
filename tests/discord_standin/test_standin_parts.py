"""Pieces of the stand-in on their own: rendering, command-line parsing, limits, permissions."""

from __future__ import annotations

import pytest

from discord_standin import (
    GlobalRateLimiter,
    Guild,
    Member,
    Overwrite,
    Permission,
    Role,
    User,
    check_choices,
    check_message,
    nest_errors,
    parse_slash,
    render_callback,
    render_message,
    resolve_pings,
)

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


def test_render_message_shows_embeds_and_components() -> None:
    text = render_message(
        {
            "author": {"username": "paperclub"},
            "content": "Top result:",
            "flags": 64,
            "embeds": [
                {
                    "title": "Grokking",
                    "description": "Generalization beyond overfitting",
                    "fields": [{"name": "Year", "value": "2022"}],
                    "footer": {"text": "arXiv 2201.02177"},
                }
            ],
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "Next", "custom_id": "n"},
                        {"type": 2, "style": 5, "label": "Open", "url": "https://arxiv.org"},
                        {
                            "type": 2,
                            "style": 2,
                            "label": "Save",
                            "custom_id": "s",
                            "disabled": True,
                        },
                    ],
                },
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "p",
                            "placeholder": "Pick",
                            "options": [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}],
                        },
                    ],
                },
            ],
        }
    )
    assert text.splitlines() == [
        "paperclub · only you can see this",
        "Top result:",
        "╭───",
        "│ **Grokking**",
        "│ Generalization beyond overfitting",
        "│ Year: 2022",
        "│ — arXiv 2201.02177",
        "╰───",
        "[Next]  [Open ↗ https://arxiv.org]  [Save] (disabled)",
        "[Pick ▾] A, B",
    ]


def test_render_shows_mentions_by_name() -> None:
    data = {"content": "<@1> see <#2>, ping <@&3> and <@4>", "embeds": [{"description": "by <@1>"}]}
    text = render_message(data, names={1: "alice", 2: "papers", 3: "mods"})
    assert text.splitlines() == [
        "@alice see #papers, ping @mods and <@4>",
        "╭───",
        "│ by @alice",
        "╰───",
    ]
    assert render_callback({"type": 4, "data": data}, names={1: "alice"}).startswith(
        "@alice see <#2>"
    )


def test_render_callback_by_type() -> None:
    assert render_callback({"type": 5, "data": {}}, author="paperclub") == "paperclub is thinking…"
    choices = render_callback(
        {"type": 8, "data": {"choices": [{"name": "Grokking", "value": "g"}]}}
    )
    assert choices == "suggestions:\n  Grokking  = 'g'"
    modal = {
        "type": 9,
        "data": {
            "title": "Feedback",
            "custom_id": "f",
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 4, "custom_id": "text", "label": "Your feedback"}],
                }
            ],
        },
    }
    assert render_callback(modal) == "form: Feedback\n  [Your feedback: ____] (text)"


def test_message_limits_produce_discord_form_errors() -> None:
    errors = check_message({"content": "x" * 2001, "embeds": [{"title": "t" * 257}]})
    assert nest_errors(errors) == {
        "content": {
            "_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
            ]
        },
        "embeds": {
            "0": {
                "title": {
                    "_errors": [
                        {
                            "code": "BASE_TYPE_MAX_LENGTH",
                            "message": "Must be 256 or fewer in length.",
                        }
                    ]
                }
            }
        },
    }
    assert check_message({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]})
    assert len(check_choices([{"name": str(i), "value": str(i)} for i in range(26)])) == 1
    assert check_choices([{"name": "n" * 101, "value": "v"}])


def test_allowed_mentions_decide_who_is_pinged() -> None:
    content = "<@1> <@&2> @everyone"
    assert resolve_pings(content, {"parse": []}, default_parse=()).users == frozenset()
    pinged = resolve_pings(content, None, default_parse=("users", "roles", "everyone"))
    assert pinged.users == {1} and pinged.roles == {2} and pinged.everyone
    only_users = resolve_pings(content, None, default_parse=("users",))
    assert only_users.users == {1} and not only_users.roles and not only_users.everyone
    assert resolve_pings(content, {"parse": [], "users": ["1"]}, default_parse=()).users == {1}


def test_permissions_follow_roles_and_overwrites() -> None:
    mods = Role("mods", permissions=Permission.MANAGE_MESSAGES)
    alice, bob = User("alice"), User("bob")
    guild = Guild("g", channels=["general", "rules"], members=[alice, Member(bob, roles=[mods])])
    rules = guild.channel("rules")
    rules.overwrites += [
        Overwrite.for_role(guild.everyone, deny=Permission.SEND_MESSAGES),
        Overwrite.for_role(mods, allow=Permission.SEND_MESSAGES),
    ]
    member_alice, member_bob = guild.member(alice), guild.member(bob)
    assert member_alice is not None and member_bob is not None
    assert guild.permissions_in(member_alice, guild.channel("general")) & Permission.SEND_MESSAGES
    assert not guild.permissions_in(member_alice, rules) & Permission.SEND_MESSAGES
    assert guild.permissions_in(member_bob, rules) & Permission.SEND_MESSAGES


def test_global_rate_limiter_counts_a_rolling_second() -> None:
    limiter = GlobalRateLimiter(per_second=50)
    assert all(limiter.check(0.0 + i / 1000) is None for i in range(50))
    wait = limiter.check(0.5)
    assert wait == pytest.approx(0.5) and limiter.rejected == 1
    assert limiter.check(1.001) is None
