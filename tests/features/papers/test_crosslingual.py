"""Search across languages: Chinese queries over English-only papers (real arXiv metadata),
English queries over Chinese-only text, mixed queries, and what the result line says."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from bot.features.papers.results import result_page
from bot.features.papers.search import SearchService, Strategy
from bot.shared.lang import Lang
from domain.crosslingual import GLOSSARY, Translation, cross_queries, default_glossary
from domain.paper import Paper
from domain.text import has_cjk
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tools.realworld import realworld

SAMPLE = realworld("arxiv-metadata", "arxiv-sample.jsonl")
PAPERS_FROM_SAMPLE = 2500
needs_sample = pytest.mark.skipif(not SAMPLE.exists(),
                                  reason=f"the real arXiv sample is not at {SAMPLE}")
GLOSSARY_FILE = Path(__file__).resolve().parents[3] / "domain" / "data" / GLOSSARY


def _text(paper: Paper) -> str:
    return f"{paper.title_en} {paper.summary_en}".casefold()


@pytest.fixture
async def english_only(db: Database, tmp_path: Path) -> SearchService:
    """The first papers of the real arXiv sample: English only."""
    path = tmp_path / "arxiv.jsonl"
    with SAMPLE.open(encoding="utf-8") as handle:
        path.write_text("".join(next(handle) for _ in range(PAPERS_FROM_SAMPLE)),
                        encoding="utf-8")
    store = SqlitePaperStore(db)
    await load_catalog(store, path)
    return SearchService(store)


@pytest.fixture
async def chinese_only(db: Database, bundled_papers: list[Paper]) -> SearchService:
    """The bundled listing with its English hidden: the Chinese title stands in for the
    English one (it is the identity), no English abstract, comments or affiliations."""
    store = SqlitePaperStore(db)
    await store.add_papers([hidden_english(p) for p in bundled_papers])
    return SearchService(store)


def hidden_english(paper: Paper) -> Paper:
    return Paper(title_en=paper.title_zh, title_zh="", authors=paper.authors,
                 summary_zh=paper.summary_zh)


def test_the_glossary_is_several_hundred_terms_with_its_source_and_licence() -> None:
    lines = GLOSSARY_FILE.read_text(encoding="utf-8").splitlines()
    header = " ".join(line for line in lines if line.startswith("#"))
    assert "written by the paperclub project" in header and "MIT" in header
    entries = [line for line in lines if line and not line.startswith("#")]
    assert all(len(line.split("\t")) == 2 for line in entries)
    assert len(entries) >= 300 and len(default_glossary()) >= 300


@pytest.mark.parametrize(("text", "term"), [
    ("扩散模型", "diffusion model"), ("擴散模型", "diffusion model"),
    ("知识蒸馏", "knowledge distillation"), ("知識蒸餾", "knowledge distillation"),
    ("目标检测", "object detection"), ("目標檢測", "object detection"),
    ("大语言模型", "language model"), ("大型語言模型", "language model"),
    ("影像生成", "image generation"), ("資料增強", "data augmentation"),  # Taiwan's words
])
@needs_sample
async def test_a_chinese_query_finds_english_only_papers(
        english_only: SearchService, text: str, term: str) -> None:
    """Simplified and Traditional alike; before cross-language search: nothing at all."""
    outcome = await english_only.search(parse_query(text), limit=10)
    assert outcome.strategy is Strategy.CROSS_LANGUAGE
    assert len(outcome.hits) == 10
    relevant = [hit for hit in outcome.hits if term.split()[0] in _text(hit.paper)]
    assert len(relevant) >= 9, [h.paper.title_en for h in outcome.hits]
    assert set(outcome.crossed) == {hit.id for hit in outcome.hits}
    [first] = outcome.crossed[outcome.hits[0].id]
    assert first.source == re.sub(r"\s", "", parse_query(text).words[0])
    assert first.target.startswith(term.split()[-1]) or term in first.target


@needs_sample
async def test_todays_lexical_search_finds_nothing_there(english_only: SearchService) -> None:
    """The benchmark's baseline: the query's own language only."""
    lexical = SearchService(english_only._store, cross_language=False)
    assert (await lexical.search(parse_query("扩散模型"), limit=10)).hits == []


@needs_sample
async def test_a_mixed_language_query_reads_its_chinese_words(english_only: SearchService) -> None:
    outcome = await english_only.search(parse_query("diffusion 蒸馏"), limit=10)
    assert outcome.hits
    for hit in outcome.hits:
        assert "diffusion" in _text(hit.paper) and "distill" in _text(hit.paper)
        assert outcome.crossed[hit.id] == (Translation("蒸馏", "distillation"),)


@needs_sample
async def test_english_hits_rank_before_cross_language_ones(
        english_only: SearchService, bundled_papers: list[Paper]) -> None:
    """A paper the query's own words find ranks above every paper found through the other
    language: `知识蒸馏` finds the bundled paper by its Chinese title first."""
    listed = next(p for p in bundled_papers if "知识蒸馏" in p.title_zh)
    await english_only.paper(listed.id)
    store = english_only._store  # the same catalog, with one bilingual paper added
    await store.add_papers([listed])
    outcome = await english_only.search(parse_query("知识蒸馏"), limit=10)
    assert outcome.strategy is Strategy.EXACT
    assert outcome.hits[0].id == listed.id and listed.id not in outcome.crossed
    assert len(outcome.crossed) == 9
    paged = await english_only.search(parse_query("知识蒸馏"), limit=5, offset=5)
    assert [h.id for h in paged.hits] == [h.id for h in outcome.hits[5:]]


@pytest.mark.parametrize(("text", "chinese"), [
    ("knowledge distillation", "知识蒸馏"), ("ridge regression", "岭回归"),
    ("large language models", "大语言模型"), ("LLM", "大语言模型"),
])
async def test_an_english_query_finds_chinese_only_text(chinese_only: SearchService,
                                                        bundled_papers: list[Paper],
                                                        text: str, chinese: str) -> None:
    outcome = await chinese_only.search(parse_query(text), limit=30)
    expected = {hidden_english(p).id for p in bundled_papers
                if chinese in p.title_zh + p.summary_zh}
    assert expected and expected <= {hit.id for hit in outcome.hits}
    assert outcome.crossed  # the Chinese-only papers are found through the glossary
    assert all(has_cjk(t.target) for terms in outcome.crossed.values() for t in terms)


def test_the_glossary_cuts_the_longest_term_and_leaves_function_words_out() -> None:
    [first, *_] = cross_queries(parse_query("基于扩散模型的图像生成"))
    assert first.query.words == ("diffusion", "model", "image", "generation")
    assert [str(t) for t in first.translations] == ["扩散模型 → diffusion model",
                                                    "图像生成 → image generation"]
    assert cross_queries(parse_query("grokking author:vardi"))[0].query.filters.author == (
        "vardi",)
    assert cross_queries(parse_query("Stabilizing Native")) == []


@pytest.mark.parametrize(("lang", "line"), [
    (Lang.EN, "matched 扩散模型 → diffusion model"),
    (Lang.ZH_HANS, "跨语言匹配：扩散模型 → diffusion model"),
    (Lang.ZH_HANT, "跨語言匹配：擴散模型 → diffusion model"),
])
def test_the_result_line_says_which_terms_were_read(bundled_papers: list[Paper], lang: Lang,
                                                    line: str) -> None:
    paper = bundled_papers[0]
    other = dataclasses.replace(bundled_papers[1])
    page = result_page([paper, other], 0, 2, "扩散模型", lang, lambda s: s,
                       matched={paper.id: (Translation("扩散模型", "diffusion model"),)})
    first, second = page.body.split("\n\n")
    assert first.endswith(f"*{line}*")
    assert "→" not in second


def test_json_lines_of_the_sample_are_english_only() -> None:
    """The premise of the Chinese-query tests: the sample has no Chinese at all."""
    if not SAMPLE.exists():
        pytest.skip(f"the real arXiv sample is not at {SAMPLE}")
    with SAMPLE.open(encoding="utf-8") as handle:
        first = [json.loads(next(handle)) for _ in range(PAPERS_FROM_SAMPLE)]
    assert not any(re.search("[\u4e00-\u9fff]", r["title"] + r["abstract"]) for r in first)
