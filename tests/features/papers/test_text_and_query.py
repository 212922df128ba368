"""Normalisation and query parsing."""

from __future__ import annotations

import pytest

from bot.features.papers.query import QueryError, parse_query
from domain.paper import Track
from domain.query import words_of
from domain.text import clean, index_form, title_key


def test_index_form_spells_cjk_as_bigrams_and_separates_scripts() -> None:
    assert index_form("理解Grokking：岭回归") == "理解 Grokking: 岭回 回归"
    assert index_form("单") == "单"


def test_clean_removes_invisible_and_control_characters() -> None:
    assert clean("gro\u200bkking\u202e\x00 ＧＲＯＫ") == "grokking GROK"


def test_title_key_ignores_case_punctuation_and_spacing() -> None:
    assert title_key("To Grok Grokking:  Provable") == title_key("to grok grokking provable!")
    assert title_key("Café") == title_key("cafe")


def test_words_split_scripts_and_fold_case() -> None:
    assert words_of("理解Grokking low-rank") == ("理解", "grokking", "low", "rank")
    assert words_of("' OR 1=1 -- %_ \u200b") == ("or", "1")


def test_inline_filters() -> None:
    query = parse_query('grokking author:"Gal Vardi" venue:workshop honours:spotlight year:2026')
    assert query.words == ("grokking",)
    assert query.filters.author == ("gal", "vardi")
    assert query.filters.track is Track.WORKSHOP
    assert query.filters.honour == "spotlight"
    assert query.filters.year == 2026


def test_unknown_column_syntax_is_plain_words() -> None:
    assert parse_query("title:x").words == ("title", "x")


def test_venue_name_filter_and_keyword_overrides() -> None:
    query = parse_query("agents venue:main", venue="AdaptFM", author="xu")
    assert query.filters.track is None
    assert query.filters.venue == "AdaptFM"
    assert query.filters.author == ("xu",)


@pytest.mark.parametrize("text", ["year:20x6", "honours:best"])
def test_meaningless_filter_values_raise_user_safe_errors(text: str) -> None:
    with pytest.raises(QueryError) as info:
        parse_query(text)
    assert "paper_fts" not in str(info.value)


def test_long_queries_are_capped() -> None:
    assert len(parse_query("word " * 5000).words) <= 12
    assert len(parse_query("x" * 10_000).words[0]) <= 64
