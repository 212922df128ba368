"""Stored JSON columns read back exactly as `json` reads them, whatever the text."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from storage.rows import from_json

ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, categories=None))
"""Every code point, lone surrogates included (hypothesis leaves them out by default)."""


@given(st.lists(ANY_TEXT), st.booleans())
def test_a_column_reads_back_as_json_reads_it(items: list[str], ascii_only: bool) -> None:
    try:
        stored = json.dumps(items, ensure_ascii=ascii_only)
        stored.encode()  # SQLite stores UTF-8: a raw lone surrogate never reaches a column
    except UnicodeEncodeError:
        return
    assert from_json(stored) == json.loads(stored) == items


def test_an_escaped_lone_surrogate_reads_back() -> None:
    assert from_json(json.dumps(["a\ud800b"])) == ["a\ud800b"]
