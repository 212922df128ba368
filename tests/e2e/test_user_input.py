"""What people type, as Discord delivers it: every command's options and autocompletes, fuzzed.

Text reaches the bot with lone surrogates, control and invisible characters; the tree cleans it
once, before any cog or service sees it. Every interaction must be answered, and nothing may be
logged as an error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.client.bot import PaperclubBot
from bot.shared.lang import Lang
from bot.shared.messages import t
from discord_standin import CallbackType, Guild, OptionValue, StandIn, User
from tests.group import People

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, NUMBER = 3, 4, 5, 6, 7, 8, 10
SUBCOMMAND, GROUP = 1, 2
LOCALES = ("en-US", "zh-CN", "zh-TW")
UNEXPECTED = [t(lang, "error.unexpected", ref="REF").split("REF")[0] for lang in Lang]
"""How "Something went wrong (error …)" begins, in each language."""

# Text as people (and broken clients) send it: lone surrogates, NUL and other controls,
# zero-width and bidi characters, CJK, emoji, search syntax.
HOSTILE = st.lists(st.one_of(
    st.sampled_from(["\ud800", "\udfff", "\ud83d", "\x00", "\x1b", "\u200b", "\u202e", "\ufeff",
                     " ", "\t", "\n"]),
    st.sampled_from(["gro", "grokking", "蒸馏", "author:", "venue:", "*", '"', "-", "Europe/",
                     "😀", "09:00"]),
    st.characters(exclude_categories=()),  # any code point, lone surrogates included
), max_size=12).map("".join)


def _leaf_commands(schemas: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """`("digest set", options)` for every command and subcommand the bot registered."""
    found = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            found.append((path, options))
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options") or [])

    for schema in schemas:
        if schema.get("type", 1) == 1:  # slash commands; the message command has no options
            walk(schema["name"], schema.get("options") or [])
    return sorted(found, key=lambda item: item[0])


def _value(draw: Callable[..., Any], option: dict[str, Any], guild: Guild,
           people: People) -> Any:
    if option.get("choices"):
        return draw(st.sampled_from([c["value"] for c in option["choices"]]))
    kind = option["type"]
    if kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", 100)
        return draw(HOSTILE.filter(lambda s: low <= len(s) <= high))
    if kind in (INTEGER, NUMBER):
        return draw(st.integers(option.get("min_value", -1000), option.get("max_value", 1000)))
    if kind == BOOLEAN:
        return draw(st.booleans())
    if kind == CHANNEL:  # of the types the option accepts (none here: the option is left out)
        types = option.get("channel_types")
        fitting = [c for c in guild.channels if not types or int(c.type) in types]
        return draw(st.sampled_from(fitting)) if fitting else None
    if kind == USER:
        return draw(st.sampled_from([people.alice, people.bob, people.carol]))
    if kind == ROLE:
        return draw(st.sampled_from([people.admin_role]))
    raise AssertionError(f"no strategy for option type {kind} ({option['name']})")


COMMANDS = ("bookmark", "bookmarks", "calendar link", "calendar off", "calendar rotate",
            "catalog add", "catalog reload", "catalog stats",
            "corrections history", "corrections list", "corrections propose",
            "corrections revert", "corrections show", "group corrections",
            "digest now", "digest off", "digest preview", "digest set", "digest status", "export",
            "feed add", "feed list", "feed remove", "forget-me", "group adding",
            "group organiser-role", "group prep-sheets", "group reminders", "group timezone",
            "group web", "history",
            "paper",
            "present leave", "present skip",
            "present swap", "present volunteer", "queue remove", "queue show", "random-paper",
            "recommend",
            "session cancel", "session done", "session list", "session move", "session schedule",
            "subscribe", "subscriptions", "subscriptions-admin", "suggest", "unsubscribe",
            "vote close", "vote start", "vote status")
AUTOCOMPLETES = (("bookmark", "paper"), ("digest set", "timezone"), ("feed remove", "feed"),
                 ("corrections propose", "paper"), ("corrections history", "paper"),
                 ("group timezone", "timezone"), ("paper", "query"), ("paper", "venue"),
                 ("queue remove", "paper"),
                 ("session cancel", "session"), ("session done", "session"),
                 ("session move", "session"), ("session schedule", "paper"),
                 ("subscribe", "topic"), ("suggest", "paper"), ("unsubscribe", "topic"))
_QUIET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much]
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=_QUIET)
FUZZ_TYPING = settings(max_examples=60, deadline=None, suppress_health_check=_QUIET)


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Records logged while the test runs (by the bot, discord.py or the stand-in)."""
    caplog.set_level(logging.WARNING)
    return caplog.records


def _logged_errors(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if r.levelno >= logging.ERROR]


def _schema(standin: StandIn, command: str) -> list[dict[str, Any]]:
    return dict(_leaf_commands(standin.commands()))[command]


async def test_every_command_is_fuzzed(bot: PaperclubBot, standin: StandIn) -> None:
    registered = {name for name, _ in _leaf_commands(standin.commands())}
    in_tree = {c.qualified_name for c in bot.tree.walk_commands()
               if isinstance(c, app_commands.Command)}
    assert set(COMMANDS) == registered == in_tree
    typed = {(name, o["name"]) for name, schema in _leaf_commands(standin.commands())
             for o in schema if o.get("autocomplete")}
    assert set(AUTOCOMPLETES) == typed


@pytest.mark.parametrize("command", COMMANDS)
@FUZZ
@given(data=st.data())
async def test_every_command_answers_fuzzed_options(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        errors: list[logging.LogRecord], command: str, data: st.DataObject) -> None:
    schema = _schema(standin, command)
    drawn = {o["name"]: _value(data.draw, o, guild, people) for o in schema
             if o.get("required") or data.draw(st.booleans(), label=o["name"])}
    options: dict[str, OptionValue] = {k: v for k, v in drawn.items() if v is not None}
    locale = data.draw(st.sampled_from(LOCALES), label="locale")
    handle = await standin.slash(command, options, guild=guild, user=people.bob, locale=locale)
    answer = await handle.response(timeout=10)
    if answer.type == CallbackType.DEFERRED_CHANNEL_MESSAGE:  # the answer is a followup
        text = (await handle.followup(timeout=10)).content
    else:
        text = answer.content
    assert not any(prefix in text for prefix in UNEXPECTED), text
    await standin.settle()
    assert _logged_errors(errors) == []


@pytest.mark.parametrize(("command", "typed"), AUTOCOMPLETES)
@FUZZ_TYPING
@given(data=st.data())
async def test_every_autocomplete_answers_fuzzed_input(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        errors: list[logging.LogRecord], command: str, typed: str, data: st.DataObject) -> None:
    schema = _schema(standin, command)
    drawn = {o["name"]: _value(data.draw, o, guild, people)
             for o in schema if o["name"] != typed and o.get("required")}
    options: dict[str, OptionValue] = {k: v for k, v in drawn.items() if v is not None}
    options[typed] = data.draw(HOSTILE, label=typed)
    locale = data.draw(st.sampled_from(LOCALES), label="locale")
    choices = await standin.autocomplete(command, options, focused=typed, guild=guild,
                                         user=people.bob, locale=locale)
    assert len(choices) <= 25
    await standin.settle()
    assert _logged_errors(errors) == []


@FUZZ
@given(data=st.data())
async def test_the_message_command_answers_any_message(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        errors: list[logging.LogRecord], data: st.DataObject) -> None:
    content = data.draw(HOSTILE.filter(lambda s: s.strip()), label="content")
    posted = await standin.say(guild.channels[0], people.alice, content)
    locale = data.draw(st.sampled_from(LOCALES), label="locale")
    handle = await standin.message_command("Add paper to paperclub", posted, user=people.bob,
                                           locale=locale)
    answer = await handle.response(timeout=10)
    if answer.type == CallbackType.DEFERRED_CHANNEL_MESSAGE:
        text = (await handle.followup(timeout=10)).content
    else:
        text = answer.content
    assert text and not any(prefix in text for prefix in UNEXPECTED), text
    await standin.settle()
    assert _logged_errors(errors) == []


async def test_lone_surrogate_in_topic_autocomplete_is_answered(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        errors: list[logging.LogRecord]) -> None:
    choices = await standin.autocomplete("subscribe", {"topic": "grok\ud800"}, focused="topic",
                                         guild=guild, user=people.alice)
    assert "grokking" in [c["value"] for c in choices]
    assert _logged_errors(errors) == []


async def test_lone_surrogate_and_controls_in_a_topic_are_cleaned(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        errors: list[logging.LogRecord]) -> None:
    handle = await standin.slash("subscribe", {"topic": "grok\ud800king\x00 "}, guild=guild,
                                 user=people.alice)
    assert "Subscribed to **grok king**" in (await handle.reply()).content
    assert _logged_errors(errors) == []


@pytest.mark.parametrize(("locale", "says"), [
    ("en-US", "not in this server"), ("zh-CN", "不在本服务器"), ("zh-TW", "不在這個伺服器")])
async def test_a_channel_of_another_server_is_refused_by_name(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        errors: list[logging.LogRecord], locale: str, says: str) -> None:
    other = await standin.add_guild(Guild("Elsewhere", channels=["news"]))
    handle = await standin.slash(
        "digest set", {"channel": other.channels[0], "time": "09:00",
                       "timezone": "Europe/Berlin"}, guild=guild, user=people.bob, locale=locale)
    answer = await handle.reply()
    assert answer.ephemeral
    assert says in answer.content
    assert _logged_errors(errors) == []


@pytest.mark.parametrize(("locale", "says"), [
    ("en-US", "not in this server"), ("zh-CN", "不在本服务器"), ("zh-TW", "不在這個伺服器")])
@pytest.mark.parametrize(("command", "options"), [
    ("present swap", {}), ("session schedule", {"paper": "grokking", "when": "2030-01-01 18:00"})])
async def test_a_member_of_another_server_is_refused_by_name(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        errors: list[logging.LogRecord], locale: str, says: str, command: str,
        options: dict[str, str]) -> None:
    stranger = User("stranger")
    await standin.add_guild(Guild("Elsewhere", channels=["news"], members=[stranger]))
    option = "member" if command == "present swap" else "presenter"
    handle = await standin.slash(command, {**options, option: stranger}, guild=guild,
                                 user=people.bob, locale=locale)
    answer = await handle.reply()
    assert answer.ephemeral
    assert says in answer.content
    assert _logged_errors(errors) == []
