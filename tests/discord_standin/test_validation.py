"""Discord's limits on messages and autocomplete choices, as form errors."""

from __future__ import annotations

from discord_standin import (
    MessageFlag,
    check_choices,
    check_commands,
    check_message,
    nest_errors,
)


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


def test_allowed_mentions_limits_have_discords_error_shape() -> None:
    users = [str(n) for n in range(101)]
    assert nest_errors(check_message({"content": "x", "allowed_mentions": {"users": users}})) == {
        "allowed_mentions": {"users": {"_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 100 or fewer in length."}]}}}
    assert check_message({"content": "x", "allowed_mentions": {"roles": users}})
    assert not check_message({"content": "x", "allowed_mentions": {"users": users[:100],
                                                                   "roles": users[:100]}})
    assert check_message({"content": "x", "allowed_mentions": {"users": ["1", "1"]}})
    exclusive = check_message({"content": "x",
                               "allowed_mentions": {"parse": ["users"], "users": ["1"]}})
    assert [e.code for e in exclusive] == ["MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"]


def test_other_documented_counts_and_lengths() -> None:
    assert check_message({"content": "x", "embeds": [{"title": "t"}] * 11})
    assert check_message({"content": "x", "sticker_ids": ["1", "2", "3", "4"]})
    assert check_message({"content": "x", "attachments": [{"id": i} for i in range(11)]})
    assert check_message({"embeds": [{"title": "t", "url": "https://x/" + "a" * 2048}]})
    assert check_message({"embeds": [{"title": "t", "image": {"url": "h" * 2049}}]})
    button = {"type": 2, "style": 5, "label": "l", "url": "https://x/" + "a" * 510}
    assert check_message({"content": "x", "components": [{"type": 1, "components": [button]}]})
    empty_id = {"type": 2, "style": 1, "label": "l", "custom_id": ""}
    assert check_message({"content": "x", "components": [{"type": 1, "components": [empty_id]}]})
    rows = [{"type": 10, "content": "t"}] * 41
    assert check_message({"components": rows, "flags": int(MessageFlag.IS_COMPONENTS_V2)})
    assert not check_message({"components": rows[:40],
                              "flags": int(MessageFlag.IS_COMPONENTS_V2)})


def test_message_commands_have_no_description_nor_options_and_at_most_five() -> None:
    menu = {"name": "Add paper to paperclub", "type": 3}
    assert check_commands([menu, {"name": "paper", "description": "Find", "type": 1}]) == []
    (described,) = check_commands([{**menu, "description": "Adds a paper"}])
    assert described.path == (0, "description")
    (with_options,) = check_commands([{**menu, "options": [{"name": "x", "type": 3}]}])
    assert with_options.path == (0, "options")
    (too_long,) = check_commands([{**menu, "name": "A" * 33}])
    assert too_long.code == "APPLICATION_COMMAND_INVALID_NAME"
    five = [{"name": f"Menu {i}", "type": 3} for i in range(5)]
    users = [{"name": f"Menu {i}", "type": 2} for i in range(5)]
    assert check_commands([*five, *users]) == []
    (sixth,) = check_commands([*five, {"name": "Menu 5", "type": 3}])
    assert "Maximum number of message commands" in sixth.message
