"""The card's `escape` skips discord.py's substitutions only when they would change nothing."""

from __future__ import annotations

from discord.utils import escape_markdown, escape_mentions
from hypothesis import given
from hypothesis import strategies as st

from bot.features.papers.card_view import escape

# markdown, mention and link syntax, the line starts that matter, and ordinary text
_PIECES = st.sampled_from(["_", "\\", "~", "|", "*", "`", "[", "]", "(", ")", "@", "-", ">",
                           "#", " ", "\t", "\n", "a", "Z", "9", "蒸馏", "everyone", "here",
                           "123456789012345678", "https://arxiv.org/abs/2401.01234_v2", ":",
                           "<", "/", "."])


def _discord_escape(text: str) -> str:
    return escape_mentions(escape_markdown(text))


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_escape_agrees_with_discord_py_on_any_text(text: str) -> None:
    assert escape(text) == _discord_escape(text)


@given(st.text(max_size=60))
def test_escape_agrees_with_discord_py_on_arbitrary_unicode(text: str) -> None:
    assert escape(text) == _discord_escape(text)


def test_plain_text_comes_back_unchanged_and_syntax_is_escaped() -> None:
    plain = "Grokking in Two-Layer Networks: 岭回归 (ICML 2026)"
    assert escape(plain) is plain
    assert escape("a_b *c* @everyone [x](http://y)") == _discord_escape(
        "a_b *c* @everyone [x](http://y)") != "a_b *c* @everyone [x](http://y)"
    assert escape("  - item\n> quote\n# head") == _discord_escape("  - item\n> quote\n# head")
