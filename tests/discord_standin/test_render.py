"""Rendering messages and interaction callbacks as text."""

from __future__ import annotations

from discord_standin import render_callback, render_message


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
