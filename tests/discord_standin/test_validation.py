"""Discord's limits on messages and autocomplete choices, as form errors."""

from __future__ import annotations

from discord_standin import check_choices, check_message, nest_errors


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
