"""Rendering messages and interaction callbacks as text."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

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


def test_multi_line_fields_and_descriptions_keep_the_border() -> None:
    text = render_message({"embeds": [{"description": "one\ntwo", "fields": [
        {"name": "Recent", "value": "2026-11-30 posted\n2026-11-29 skipped"}]}]})
    assert text.splitlines() == [
        "╭───",
        "│ one",
        "│ two",
        "│ Recent:",
        "│   2026-11-30 posted",
        "│   2026-11-29 skipped",
        "╰───",
    ]


def test_timestamps_show_local_time_and_how_far_away() -> None:
    moment = 1_796_025_600  # 2026-11-30 08:00 UTC
    data = {"content": f"next <t:{moment}:R>, then <t:{moment + 86_400}:F> and <t:{moment}>",
            "embeds": [{"fields": [{"name": "Next", "value": f"<t:{moment}:R>"}]}]}
    text = render_message(data, now=moment - 7_200, zone=UTC)
    assert text.splitlines()[0] == ("next 2026-11-30 08:00 UTC, in 2 hours, then 2026-12-01 "
                                    "08:00 UTC and 2026-11-30 08:00 UTC, in 2 hours")
    assert "│ Next: 2026-11-30 08:00 UTC, in 2 hours" in text
    ago = render_message({"content": f"<t:{moment}:R>"}, now=moment + 90, zone=UTC)
    assert ago == "2026-11-30 08:00 UTC, 1 minute ago"


def test_timestamps_show_in_the_zone_given_with_its_name() -> None:
    """A client in Asia/Shanghai reads 18:00 for 10:00 UTC; the zone is named, not implied."""
    moment = 1_796_032_800  # 2026-11-30 10:00 UTC
    shanghai = render_message({"content": f"When: <t:{moment}:F>"}, zone=ZoneInfo("Asia/Shanghai"))
    assert shanghai == "When: 2026-11-30 18:00 Asia/Shanghai"
    assert render_message({"content": f"<t:{moment}:t>"}).endswith(
        datetime.fromtimestamp(moment).astimezone().strftime("%H:%M %Z"))


@pytest.mark.parametrize(("locale", "later", "ago", "now"), [
    ("en-US", "in 3 hours", "2 days ago", "now"),
    ("zh-CN", "3小时后", "2天前", "现在"),
    ("zh-TW", "3 小時後", "2 天前", "現在")])
def test_relative_times_are_worded_as_the_readers_discord_words_them(
        locale: str, later: str, ago: str, now: str) -> None:
    moment = int(datetime(2026, 11, 30, 8, 0, tzinfo=UTC).timestamp())
    content = {"content": f"<t:{moment}:R>"}
    assert render_message(content, now=moment - 3 * 3600, zone=UTC, locale=locale).endswith(
        f", {later}")
    assert render_message(content, now=moment + 2 * 86_400, zone=UTC,
                          locale=locale).endswith(f", {ago}")
    assert render_message(content, now=moment + 10, zone=UTC, locale=locale).endswith(
        f", {now}")
