"""Topic matching in memory agrees with SQLite: `matches` finds what `store.search` finds.

`python -m tools.sqlite_tokenizer_tables` prints fresh tokenizer tables for
`domain/index_text.py` when the tokenizer test below says they are stale.
"""

from __future__ import annotations

import dataclasses
import random
import sqlite3
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.search import SearchService
from bot.features.subscriptions.topic_match import CompiledTopic, PaperTerms, TopicIndex
from domain.catalog import LoadSource
from domain.crosslingual import GLOSSARY
from domain.index_text import index_columns, index_tokens
from domain.paper import Affiliation, Links, Paper, Track, Venue
from domain.query import words_of
from domain.text import CJK_RUN, to_traditional
from storage.papers import fts
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.features.subscriptions import topic_cases as unit
from tools.sqlite_tokenizer_tables import code_points, sqlite_tokens
from tools.synthetic_catalog import synthetic_papers

GLOSSARY_FILE = Path(__file__).resolve().parents[2] / "domain" / "data" / GLOSSARY
SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


# --- the tokenizer tables --------------------------------------------------------------------


def test_tokenizer_agrees_with_sqlite_on_every_code_point() -> None:
    """`a<c>b` for every character c: separator, folded, accent dropped — as SQLite does it."""
    codes = code_points()
    chunks = [codes[i : i + 512] for i in range(0, len(codes), 512)]

    def text(chunk: list[int]) -> str:
        return " ".join(f"a{chr(c)}b" for c in chunk)

    expected = sqlite_tokens(enumerate(map(text, chunks)), "remove_diacritics 2")
    suspects = [c for i, chunk in enumerate(chunks)
                if index_tokens(text(chunk)) != expected.get(i, []) for c in chunk]
    one_by_one = sqlite_tokens(((c, f"a{chr(c)}b") for c in suspects), "remove_diacritics 2")
    wrong = [c for c in suspects if index_tokens(f"a{chr(c)}b") != one_by_one.get(c, [])]
    assert not suspects, (
        f"{len(wrong)} code points tokenised unlike SQLite {sqlite3.sqlite_version}, e.g. "
        f"{[hex(c) for c in wrong[:10]]}; regenerate the tables: "
        "python -m tools.sqlite_tokenizer_tables")


# --- the columns -----------------------------------------------------------------------------


def test_columns_and_prefix_rule_are_the_index_rows(bundled_papers: list[Paper]) -> None:
    assert fts.COLUMNS[2] == "authors"
    for paper in [*bundled_papers, *synthetic_papers(300, seed=5), *EXOTIC]:
        assert index_columns(paper) == fts.index_row(paper)


# --- matching against the bundled catalog ----------------------------------------------------

JUNK = st.text(
    alphabet=st.sampled_from(list(
        "abcxyzAZ09 -_:'\"*()%&^~蒸馏岭回归的学习模型アイ・한국ÉéüÜßẞıİǰﬁ２ａΣσςᦰᲐ𐐀"
        "\u0301\u0305\u200b\x00😀")),
    min_size=1, max_size=10,
)
CASES: tuple[Callable[[str], str], ...] = (
    str, str.upper, str.lower, str.title,
    lambda s: unicodedata.normalize("NFKD", s),
    lambda s: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s),  # full width
)


def _vocabulary(papers: list[Paper]) -> tuple[list[str], list[str], list[str], list[str]]:
    """Texts to cut pieces from, whole words, author names and venue names of these papers."""
    texts: list[str] = []
    names: list[str] = []
    venues: list[str] = ["main", "workshop", "any", "ICML", "icml"]
    for paper in papers:
        texts += [paper.title_en, paper.title_zh, paper.summary_zh, paper.summary_en,
                  paper.comments,
                  *(f"{a.en} {a.zh}" for a in paper.affiliations)]
        names += [*paper.authors, *(name.split()[-1] for name in paper.authors if name.split())]
        venues += [v for v in (paper.venue.conference, paper.venue.workshop) if v]
    words = sorted({w for text in texts + names for w in (*text.split(), *words_of(text),
                                                           *CJK_RUN.findall(text))})
    return [t for t in texts if t], words, names, venues


@st.composite
def _topic(draw: st.DrawFn, vocabulary: tuple[list[str], list[str], list[str], list[str]]
           ) -> str:
    texts, words, names, venues = vocabulary
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["word", "word", "prefix", "piece", "junk"]))
        if kind == "word":
            part = draw(st.sampled_from(words))
        elif kind == "prefix":
            word = draw(st.sampled_from(words))
            part = word[: draw(st.integers(1, len(word)))]
        elif kind == "piece":
            text = draw(st.sampled_from(texts))
            start = draw(st.integers(0, len(text) - 1))
            part = text[start : start + draw(st.integers(1, 8))]
        else:
            part = draw(JUNK)
        parts.append(draw(st.sampled_from(CASES))(part))
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["author", "venue", "honours", "year"]))
        if kind == "author":
            value = draw(st.sampled_from(names) | JUNK)
        elif kind == "venue":
            venue = draw(st.sampled_from(venues))
            value = venue[: draw(st.integers(1, len(venue)))] if draw(st.booleans()) else venue
            value = draw(st.sampled_from(CASES))(value)
        elif kind == "honours":
            value = draw(st.sampled_from(["spotlight", "oral", "Poster", "posters", "best"]))
        else:
            value = draw(st.sampled_from(["2026", "2025", "2024", "0000", "26"]))
        quoted = " " in value or draw(st.booleans())
        parts.append(f'{kind}:"{value}"' if quoted and '"' not in value else f"{kind}:{value}")
    random.Random(draw(st.integers(0, 1000))).shuffle(parts)
    return " ".join(parts)


async def _assert_same(store: SqlitePaperStore, terms: dict[str, PaperTerms], text: str) -> None:
    try:
        query = parse_query(text)
    except QueryError:
        with pytest.raises(QueryError):
            CompiledTopic.compile(text)
        return
    topic = CompiledTopic.compile(text)
    in_memory = set() if topic is None else {pid for pid, t in terms.items() if topic.matches(t)}
    hits = await store.search(query, limit=1000)
    assert in_memory == {hit.paper.id for hit in hits}, (text, query)


BUNDLED_VOCABULARY: list[tuple[list[str], list[str], list[str], list[str]]] = []


def _bundled_vocabulary(papers: list[Paper]) -> tuple[list[str], list[str], list[str], list[str]]:
    if not BUNDLED_VOCABULARY:
        BUNDLED_VOCABULARY.append(_vocabulary(papers))
    return BUNDLED_VOCABULARY[0]


@SETTINGS
@given(data=st.data())
async def test_topics_match_what_search_finds(store: SqlitePaperStore,
                                              bundled_papers: list[Paper],
                                              data: st.DataObject) -> None:
    terms = {paper.id: PaperTerms.of(paper) for paper in bundled_papers}
    text = data.draw(_topic(_bundled_vocabulary(bundled_papers)), label="topic")
    await _assert_same(store, terms, text)


KNOWN = [
    "grokking", "grok", "gro", "gr", "岭回归", "岭", "回归 grokking", "author:vardi",
    "author:grokking", "venue:workshop interpretability", "grokking venue:workshop",
    "honours:spotlight", "year:2025", "venue:ICMLCN", "venue:icmlcn", "venue:hild",
    "venue:Mechanistic", "low-rank pretraining", "LOW RANK", "知识蒸馏", "蒸馏 author:vardi",
    "venue:main year:2026 honours:spotlight", "ＧＲＯＫＫＩＮＧ", "grok\u200bking", "δ", "ai",
    "ai venue:workshop", "icml", "2026", "spotlight", "the of", "本文", "的", "。", "x" * 70,
]


@pytest.mark.parametrize("text", KNOWN)
async def test_known_topics_match_what_search_finds(store: SqlitePaperStore,
                                                    bundled_papers: list[Paper],
                                                    text: str) -> None:
    terms = {paper.id: PaperTerms.of(paper) for paper in bundled_papers}
    await _assert_same(store, terms, text)


# --- matching against papers written to be awkward -------------------------------------------

EXOTIC = [
    Paper(
        title_en="Straße über Éclair: naïve ΣΊΣΥΦΟΣ façade ǅemal Ǡbc q\u0305r x\u0301y İstanbul",
        title_zh="岭・回归ア・イの한국어 研究",
        authors=("José Müller-Lüdenscheidt", "Ǆuro Đoković", "Ἀθηνᾶ Σοφία", "Łukasz Żółw"),
        affiliations=(Affiliation("Université Paris-Saclay", "巴黎萨克雷大学"),),
        summary_zh="本文 a 岭 b 回归，ǰ ﬁnance ＡＢＣ x² ς 𐐀𐐁 ᲐᲑᲒ ꭰꭱ \ue000\ue001 😀",
        comments="Ünïcode & Tokens WS @ NeurIPS 2025 (Oral)",
        venue=Venue(conference="NeurIPS", year=2025, track=Track.WORKSHOP,
                    workshop="Ünïcode & Tokens WS", honours=("oral",)),
        summary_en="We show $\\mathcal{O}(n^2)$ bounds for\n  Σίσυφος-style Régression;"
                   " 岭回归 is\tridge regression (arXiv:2401.01234v2, \"quoted\").",
        links=Links(arxiv_id="2401.01234", arxiv_version=2, categories=("cs.LG",)),
    ),
    Paper(
        title_en="New Tai Lue abᦰcd ᦰᦱ and Ꭰꭰ with e\u0301\u0301 marks",
        title_zh="单字 岭 回 的",
        authors=("ᦰ Nobody", "Ana  O'Neil", "Jean-Luc Picard"),
        summary_zh="超长 " + "q" * 100 + " token " + "学" * 30,
        comments="Preprint",
        venue=Venue(conference=None, year=None, track=Track.UNKNOWN),
    ),
    Paper(
        title_en="Plain Main Track Paper on Workshop Methods",
        title_zh="主会论文",
        authors=("Wei Wang", "Anna Smith"),
        summary_zh="本文研究workshop方法与main track的关系。",
        summary_en="Workshop methods meet the main track: mathcal matters.",
        comments="ICML 2026 Spotlight",
        venue=Venue(conference="ICML", year=2026, track=Track.MAIN, honours=("spotlight",)),
    ),
    Paper(
        title_en="Percent 100% and under_score and \"quotes\"",
        title_zh="百分之百",
        authors=("Q",),
        comments="Workshop on 100%_Sure @ ICML 2026",
        venue=Venue(conference="ICML", year=2026, track=Track.WORKSHOP,
                    workshop="100%_Sure \\ Things", honours=("poster", "oral")),
    ),
]


@pytest.fixture
async def exotic_store(db: Database) -> SqlitePaperStore:
    store = SqlitePaperStore(db)
    await store.load(enumerate(EXOTIC, start=1), source=LoadSource(name="exotic"))
    return store


EXOTIC_VOCABULARY = _vocabulary(EXOTIC)
EXOTIC_KNOWN = [
    "strasse", "straße", "STRASSE", "ẞ", "uber", "über", "ÜBER", "eclair", "naive", "σίσυφος",
    "σισυφος", "ǆemal", "dzemal", "ǡbc", "abc", "qr", "q", "xy", "istanbul", "i̇stanbul",
    "岭", "回归", "ア", "イの", "한국어", "국어", "研究", "ǰ", "j", "finance", "ﬁnance", "abc",
    "x2", "x²", "σ", "ς", "𐐨", "𐐀", "ა", "Ა", "ꭰ", "Ꭰ", "\ue000", "abᦰcd", "ab", "cd", "ᦰ",
    "e", "ee", "单字", "字", "岭 回", "q" * 64, "q" * 70, "学" * 20, "author:muller",
    "author:lüdenscheidt", "author:đoković", "author:djokovic", "author:dokovic", "author:σοφια",
    "author:nobody", "author:o'neil", "author:neil", "author:jean-luc", "author:q",
    "venue:neurips", "venue:NEURIPS", "venue:ünïcode", "venue:ÜNÏCODE", "venue:unicode",
    "venue:\"tokens ws\"", "venue:100%", "venue:%", "venue:_", "venue:\\", "venue:\"100%_sure \\\"",
    "honours:oral", "honours:poster venue:workshop", "year:2025", "venue:main workshop",
    "venue:workshop main", "track:main spotlight", "the", "and", "percent 100", "under score",
    "quotes", "preprint year:2026", "ᦰ quotes", "ab ᦰ cd",
    "mathcal", "mathc", "n 2", "regression", "régression", "REGRESSION", "ridge", "岭回归 ridge",
    "sisyphos", "σίσυφος-style", "2401.01234v2", "2401", "arxiv", "quoted", "bounds venue:oral",
    "matters track:main", "mathcal author:q", "tridge",
]


@pytest.mark.parametrize("text", EXOTIC_KNOWN)
async def test_awkward_topics_match_what_search_finds(exotic_store: SqlitePaperStore,
                                                      text: str) -> None:
    terms = {paper.id: PaperTerms.of(paper) for paper in EXOTIC}
    await _assert_same(exotic_store, terms, text)


@SETTINGS
@given(data=st.data())
async def test_random_topics_on_awkward_papers(exotic_store: SqlitePaperStore,
                                               data: st.DataObject) -> None:
    terms = {paper.id: PaperTerms.of(paper) for paper in EXOTIC}
    text = data.draw(_topic(EXOTIC_VOCABULARY), label="topic")
    await _assert_same(exotic_store, terms, text)


@pytest.fixture
async def unit_store(db: Database) -> SqlitePaperStore:
    store = SqlitePaperStore(db)
    await store.load(enumerate(unit.PAPERS.values(), start=1), source=LoadSource(name="unit"))
    return store


UNIT_CASES = unit.LATIN_CASES + unit.CJK_CASES + unit.AUTHOR_CASES + unit.VENUE_CASES


@pytest.mark.parametrize(("text", "expected"), UNIT_CASES)
async def test_unit_expectations_are_what_search_finds(unit_store: SqlitePaperStore, text: str,
                                                       expected: set[str]) -> None:
    """The hand-written expectations of
    tests/features/subscriptions/test_topic_match.py hold in SQLite too."""
    ids = {paper.id: name for name, paper in unit.PAPERS.items()}
    hits = await unit_store.search(parse_query(text), limit=10)
    assert {ids[hit.paper.id] for hit in hits} == expected



# --- across languages ------------------------------------------------------------------------


def _one_language(papers: list[Paper]) -> list[Paper]:
    """Each paper twice more: Chinese only (the Chinese title as its identity, no English) and
    English only (no Chinese title or summary), so a topic can only reach them across."""
    chinese = [Paper(title_en=p.title_zh, title_zh="", authors=p.authors,
                     summary_zh=p.summary_zh) for p in papers if p.title_zh]
    english = [dataclasses.replace(p, title_en=f"{p.title_en} English only", title_zh="",
                                   summary_zh="", affiliations=()) for p in papers]
    return chinese + english


@pytest.fixture
async def bilingual_store(db: Database, bundled_papers: list[Paper]) -> SqlitePaperStore:
    store = SqlitePaperStore(db)
    papers = [*bundled_papers, *_one_language(bundled_papers)]
    await store.load(enumerate(papers, start=1), source=LoadSource(name="one-language"))
    return store


def _glossary_forms() -> list[str]:
    """Every form in the glossary, Chinese also in Traditional characters."""
    forms: list[str] = []
    for line in GLOSSARY_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            zh, en = line.split("\t")
            forms += [*zh.split("|"), *(to_traditional(z) for z in zh.split("|")), *en.split("|")]
    return sorted(set(forms))


GLOSSARY_FORMS = _glossary_forms()


async def _assert_same_across(search: SearchService, terms: dict[str, PaperTerms],
                              text: str) -> None:
    """A topic's index (its spellings in both languages) matches what the search finds."""
    index = TopicIndex([text])
    in_memory = {pid for pid, t in terms.items() if index.matching(t)}
    try:
        query = parse_query(text)
    except QueryError:
        assert in_memory == set()
        return
    hits, _ = await search.exact(query, limit=1000)
    assert in_memory == {hit.paper.id for hit in hits}, (text, query)


CROSS_KNOWN = ["知识蒸馏", "知識蒸餾", "knowledge distillation", "diffusion 蒸馏", "大模型",
               "LLM", "large language models", "岭回归", "ridge regression", "grokking",
               "顿悟 author:vardi", "岭回归中的顿悟", "蒸馏 venue:workshop", "低秩 pretraining",
               "推理模型 year:2026", "reasoning", "目標檢測"]


@pytest.mark.parametrize("text", CROSS_KNOWN)
async def test_known_topics_match_across_languages_what_search_finds(
        bilingual_store: SqlitePaperStore, bundled_papers: list[Paper], text: str) -> None:
    papers = [*bundled_papers, *_one_language(bundled_papers)]
    terms = {paper.id: PaperTerms.of(paper) for paper in papers}
    search = SearchService(bilingual_store)
    await _assert_same_across(search, terms, text)
    if text in CROSS_KNOWN[:3]:  # these reach papers in the other language only
        _, crossed = await search.exact(parse_query(text), limit=1000)
        assert crossed


@SETTINGS
@given(data=st.data())
async def test_random_topics_match_across_languages_what_search_finds(
        bilingual_store: SqlitePaperStore, bundled_papers: list[Paper],
        data: st.DataObject) -> None:
    """Glossary terms (Simplified, Traditional, English), cut or cased, with words of the
    catalog and filters: the in-memory matcher and the search agree."""
    papers = [*bundled_papers, *_one_language(bundled_papers)]
    terms = {paper.id: PaperTerms.of(paper) for paper in papers}
    parts = [data.draw(st.sampled_from(CASES))(data.draw(st.sampled_from(GLOSSARY_FORMS)))
             for _ in range(data.draw(st.integers(1, 2)))]
    extra = data.draw(_topic(_bundled_vocabulary(bundled_papers)), label="more")
    if data.draw(st.booleans()):
        parts.append(extra)
    random.Random(data.draw(st.integers(0, 1000))).shuffle(parts)
    await _assert_same_across(SearchService(bilingual_store), terms, " ".join(parts))
