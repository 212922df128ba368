"""Feed queries: canonical forms, refusals, and never anything arXiv-like syntax would choke on."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from arxiv_standin import compile_query
from bot.features.feeds.query import MAX_QUERY_LENGTH, MAX_TERMS, canonical_query
from bot.shared.lang import Lang
from bot.shared.messages import Refusal


@pytest.mark.parametrize(("typed", "canonical"), [
    ("cat:cs.LG", "cat:cs.LG"),
    ("  cat:cs.LG   AND\tabs:grokking ", "cat:cs.LG AND abs:grokking"),
    ('TI:"ridge regression" ANDNOT au:vardi', 'ti:"ridge regression" ANDNOT au:vardi'),
    ("( cat:cs.LG OR cat:stat.ML ) AND abs:grok*", "(cat:cs.LG OR cat:stat.ML) AND abs:grok*"),
    ("grokking transformers", "grokking transformers"),
    ("id:hep-th/9901001", "id:hep-th/9901001"),
    ("abs:grokking (cat:cs.LG OR cat:cs.AI)", "abs:grokking (cat:cs.LG OR cat:cs.AI)"),
])
def test_queries_have_one_canonical_form(typed: str, canonical: str) -> None:
    assert canonical_query(typed) == canonical
    assert canonical_query(canonical) == canonical


@pytest.mark.parametrize(("typed", "key"), [
    ("   ", "feed.query.empty"),
    ("x" * (MAX_QUERY_LENGTH + 1), "feed.query.length"),
    ("cat:cs.LG & abs:x", "feed.query.character"),
    ("abs:x`", "feed.query.character"),
    ("abs:grokking; DROP TABLE feeds", "feed.query.character"),
    ('ti:"ridge regression', "feed.query.quotes"),
    ("(cat:cs.LG OR cat:stat.ML", "feed.query.parentheses"),
    ("cat:cs.LG)", "feed.query.parentheses"),
    ("AND cat:cs.LG", "feed.query.operator"),
    ("cat:cs.LG AND", "feed.query.operator"),
    ("cat:cs.LG AND OR abs:x", "feed.query.operator"),
    ("()", "feed.query.operator"),
    ("title:grokking", "feed.query.field"),
    ("0:0", "feed.query.field"),  # a word before a colon is a prefix to arXiv
    ("OR:", "feed.query.field"),
    ("ti:", "feed.query.empty_term"),
    ('ti:""', "feed.query.empty_term"),
    ("'", "feed.query.empty_term"),
    ('abs:* AND grokking', "feed.query.empty_term"),
    (" ".join(["a"] * (MAX_TERMS + 1)), "feed.query.terms"),
])
def test_nonsense_is_refused_with_a_reason(typed: str, key: str) -> None:
    with pytest.raises(Refusal) as refused:
        canonical_query(typed)
    assert refused.value.key == key
    for lang in Lang:
        assert refused.value.text(lang)


@given(st.text(max_size=120))
@example("0:0").via("found by hypothesis")
@example("OR:").via("found by hypothesis")
@example("OR.").via("found by hypothesis")
def test_any_text_is_refused_or_canonical_and_readable(typed: str) -> None:
    try:
        canonical = canonical_query(typed)
    except Refusal:
        return
    assert canonical_query(canonical) == canonical
    assert len(canonical) <= MAX_QUERY_LENGTH and "`" not in canonical
    compile_query(canonical)  # the arXiv stand-in's parser reads every accepted query
