"""Topic matching in memory: the rules of the exact search, normalisation and the topic index.

Agreement with SQLite itself is checked in tests/storage/test_topic_match_equivalence.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.papers.query import QueryError, parse_query
from bot.features.subscriptions.topic_match import (
    CompiledTopic,
    PaperTerms,
    TopicIndex,
    cross_topics,
    normalise_topic,
)
from domain.index_text import index_tokens
from domain.paper import Paper, Venue
from domain.query import words_of
from tests.features.subscriptions.topic_cases import (
    AUTHOR_CASES,
    CJK_CASES,
    LATIN_CASES,
    PAPERS,
    VENUE_CASES,
)

TERMS = {name: PaperTerms.of(paper) for name, paper in PAPERS.items()}


def found(topic: str) -> set[str]:
    """Names of the papers the topic matches."""
    compiled = CompiledTopic.compile(topic)
    assert compiled is not None, topic
    return {name for name, terms in TERMS.items() if compiled.matches(terms)}


# --- words -----------------------------------------------------------------------------------




@pytest.mark.parametrize(("topic", "expected"), LATIN_CASES)
def test_latin_words(topic: str, expected: set[str]) -> None:
    assert found(topic) == expected




@pytest.mark.parametrize(("topic", "expected"), CJK_CASES)
def test_cjk_words(topic: str, expected: set[str]) -> None:
    assert found(topic) == expected


def test_every_word_is_required() -> None:
    assert found("grokking ridge") == {"grok"}
    assert found("grokking interpretability") == set()
    assert found("低秩 interpretability") == {"workshop"}
    assert found("低秩 grokking") == set()


# --- filters ---------------------------------------------------------------------------------




@pytest.mark.parametrize(("topic", "expected"), AUTHOR_CASES)
def test_author_filter(topic: str, expected: set[str]) -> None:
    assert found(topic) == expected




@pytest.mark.parametrize(("topic", "expected"), VENUE_CASES)
def test_venue_filters(topic: str, expected: set[str]) -> None:
    assert found(topic) == expected


def test_filters_need_venue_facts() -> None:
    bare = PaperTerms.of(Paper(title_en="Grokking", title_zh="", authors=()))
    for topic in ("grokking venue:main", "grokking venue:icml", "grokking year:2026",
                  "grokking honours:oral"):
        compiled = CompiledTopic.compile(topic)
        assert compiled is not None
        assert not compiled.matches(bare), topic
    compiled = CompiledTopic.compile("grokking")
    assert compiled is not None
    assert compiled.matches(bare)


# --- compiling -------------------------------------------------------------------------------


def test_empty_topics_compile_to_none() -> None:
    for text in ("", "   ", "%%% ---", "venue:any", '""', "\u200b"):
        assert CompiledTopic.compile(text) is None, text


def test_bad_filter_values_raise() -> None:
    for text in ("grokking year:abc", "honours:best"):
        with pytest.raises(QueryError):
            CompiledTopic.compile(text)
        with pytest.raises(QueryError):
            normalise_topic(text)


def test_a_word_fts5_cannot_index_matches_nothing() -> None:
    # U+19B0 is a letter to Python but a separator to SQLite 3.40's tokenizer.
    compiled = CompiledTopic.compile("grokking \u19b0")
    assert compiled is not None
    assert not compiled.can_match()
    assert not any(compiled.matches(terms) for terms in TERMS.values())


def test_tokens_follow_sqlite_not_python() -> None:
    assert index_tokens("Straße ÉCOLE naïve Ǆ ΆΣ") == ["straße", "ecole", "naive", "ǆ", "άσ"]
    assert index_tokens("a\u0301b under_score 100%") == ["ab", "under", "score", "100"]


HOSTILE = st.text(
    alphabet=st.sampled_from(list(
        '"\'*()-:^%_&|+~!@#$ ANDORNTEAgrokking蒸馏岭回归\u200b\x00\u202e😀ᦰ\u0301ß'
        "author:venue:year:honours:")),
    max_size=80,
)


@settings(max_examples=300, deadline=None)
@given(text=HOSTILE | st.text(max_size=40))
def test_hostile_topics_never_raise_anything_but_query_error(text: str) -> None:
    try:
        compiled = CompiledTopic.compile(text)
    except QueryError:
        return
    if compiled is not None:
        for terms in TERMS.values():
            assert compiled.matches(terms) in (True, False)
    PaperTerms.of(Paper(title_en=text, title_zh=text, authors=(text,), summary_zh=text,
                        comments=text, venue=Venue(workshop=text, conference=text)))


# --- normalising -----------------------------------------------------------------------------


@pytest.mark.parametrize("pair", [
    ("Grokking", "grokking "),
    ("Grokking", "ＧＲＯＫＫＩＮＧ"),
    ("grok\u200bking", "grokking"),
    ("ridge grokking", "grokking  Ridge"),
    ("grokking grokking", "grokking"),
    ("grokking venue:Main", "track:main grokking"),
    ("venue:HiLD", "venue:hild"),
    ('author:"Gal Vardi"', 'author:"vardi gal"'),
    ("low-rank", "rank low"),
    ("年份 year:2026", "year:2026 年份"),
])
def test_equivalent_topics_normalise_alike(pair: tuple[str, str]) -> None:
    first, second = pair
    assert normalise_topic(first) == normalise_topic(second)


@pytest.mark.parametrize("pair", [
    ("grokking", "grok"),
    ("grokking", "grokking venue:main"),
    ("grokking year:2026", "grokking year:2025"),
    ("venue:Ünïcode", "venue:ünïcode"),  # SQLite's LIKE folds ASCII letters only
    ("author:vardi", "vardi"),
])
def test_different_topics_normalise_apart(pair: tuple[str, str]) -> None:
    first, second = pair
    assert normalise_topic(first) != normalise_topic(second)


def test_normalised_form_reads_well() -> None:
    assert normalise_topic(' Ridge  GROKKING author:"Gal Vardi" venue:"Mech Interp" '
                           "honours:Spotlights year:2026") == (
        'grokking ridge author:"gal vardi" venue:"mech interp" honours:spotlight year:2026')
    assert normalise_topic("venue:any") == ""


TOPIC_TEXT = st.lists(
    st.sampled_from(["Grokking", "ridge", "岭回归", "low-rank", "author:Vardi",
                     'author:"gal vardi"', "venue:workshop", "venue:main", "venue:HiLD",
                     'venue:"Mech Interp"', 'venue:a"b', "honours:oral", "year:2026",
                     "year:0000", "ß", "ǰ", "ﬁ", "x²"]) | st.text(max_size=12),
    max_size=5,
).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(text=TOPIC_TEXT)
def test_normalising_is_stable_and_keeps_the_meaning(text: str) -> None:
    try:
        normal = normalise_topic(text)
    except QueryError:
        return
    assert normalise_topic(normal) == normal
    original, again = parse_query(text), parse_query(normal)
    assert set(again.words) == set(original.words)
    assert set(again.filters.author) == set(original.filters.author)
    assert again.filters.track == original.filters.track
    assert again.filters.honour == original.filters.honour
    assert again.filters.year == original.filters.year
    assert (again.filters.venue or "").lower() == (original.filters.venue or "").lower()


# --- many topics -----------------------------------------------------------------------------


def test_index_deduplicates_and_returns_every_text_given() -> None:
    index = TopicIndex(["Grokking", "grokking ", "grokking", "低秩", "author:vardi",
                        "venue:workshop", "year:abc", "", "venue:any", "grokking \u19b0"])
    assert len(index) == 5
    assert set(index.skipped) == {"year:abc", "", "venue:any"}
    assert index.matching(TERMS["grok"]) == {"Grokking", "grokking ", "grokking", "author:vardi"}
    assert index.matching(TERMS["workshop"]) == {"低秩", "venue:workshop"}


def test_index_of_nothing_matches_nothing() -> None:
    assert TopicIndex([]).matching(TERMS["grok"]) == set()


def _vocabulary(papers: list[Paper]) -> list[str]:
    words: set[str] = set()
    for paper in papers:
        for text in (paper.title_en, paper.title_zh, paper.summary_zh, *paper.authors):
            for word in words_of(text):
                words.update({word, word[:3], word[:2], word[:1]})
    return sorted(words)


def test_index_finds_what_each_topic_finds(bundled_papers: list[Paper]) -> None:
    rng = random.Random(7)
    words = _vocabulary(bundled_papers)
    surnames = sorted({name.split()[-1] for p in bundled_papers for name in p.authors})
    filters = ["venue:workshop", "venue:main", "honours:spotlight", "year:2026", "year:2025",
               "venue:icml", "venue:mechanistic", ""]
    topics = []
    for _ in range(3000):
        parts = rng.sample(words, rng.choice((1, 1, 1, 2, 3)))
        if rng.random() < 0.2:
            parts.append(f"author:{rng.choice(surnames)}")
        if rng.random() < 0.2:
            parts = parts[:1] if rng.random() < 0.5 else []
        parts.append(rng.choice(filters) if rng.random() < 0.3 else "")
        topics.append(" ".join(parts).upper() if rng.random() < 0.1 else " ".join(parts))
    index = TopicIndex(topics)
    compiled = {text: CompiledTopic.compile(text) for text in topics}
    spellings = {text: (topic, *cross_topics(topic)) for text, topic in compiled.items() if topic}
    total = 0
    for paper in bundled_papers:
        terms = PaperTerms.of(paper)
        expected = {text for text, each in spellings.items()
                    if any(topic.matches(terms) for topic in each)}
        assert index.matching(terms) == expected
        total += len(expected)
    assert total > 500  # the topics were not all misses
