"""Paper cards and result pages stay within Discord's limits whatever the catalog holds."""

from __future__ import annotations

import dataclasses
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.papers.abstract_text import display_text
from bot.features.papers.card import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    TITLE_LIMIT,
    URL_LIMIT,
    AbstractKind,
    build_card,
    fit,
)
from bot.features.papers.results import CHOICE_NAME_LIMIT, choice_name, option_label, result_page
from bot.shared.lang import Lang
from domain.paper import Affiliation, Links, Paper, Track, Venue

long_text = st.text(min_size=0, max_size=6000)
papers = st.builds(
    Paper,
    links=st.builds(Links, pdf_url=st.text(max_size=700).map("https://example.org/".__add__)),
    title_en=st.text(min_size=1, max_size=3000),
    title_zh=long_text,
    authors=st.lists(st.text(min_size=1, max_size=200), max_size=300).map(tuple),
    affiliations=st.lists(st.builds(Affiliation, st.text(max_size=300), st.text(max_size=300)),
                          max_size=100).map(tuple),
    summary_zh=long_text,
    comments=st.text(max_size=500),
    venue=st.builds(Venue, conference=st.text(max_size=300), year=st.none(),
                    track=st.sampled_from(list(Track)), workshop=st.text(max_size=2000)),
)


@settings(max_examples=150, deadline=None)
@given(paper=papers, lang=st.sampled_from(list(Lang)), note=st.text(max_size=3000))
def test_every_card_is_within_discord_limits(paper: Paper, lang: Lang, note: str) -> None:
    card = build_card(paper, lang, note=note, footer_note="paper of the day 2026-11-30")
    assert len(card.title) <= TITLE_LIMIT
    assert len(card.description) <= DESCRIPTION_LIMIT
    assert len(card.fields) <= 25
    assert all(len(f.name) <= 256 and len(f.value) <= FIELD_VALUE_LIMIT for f in card.fields)
    assert card.total_length() <= EMBED_TOTAL_LIMIT
    assert card.url.startswith("https://arxiv.org/search/?query=")
    assert len(card.url) <= URL_LIMIT and len(card.pdf_url) <= URL_LIMIT


@settings(max_examples=100, deadline=None)
@given(paper=papers, chinese=st.booleans(), lang=st.sampled_from(list(Lang)))
def test_choices_labels_and_pages_are_within_limits(paper: Paper, chinese: bool,
                                                    lang: Lang) -> None:
    assert 0 < len(choice_name(paper, chinese, lang)) <= CHOICE_NAME_LIMIT
    label, description = option_label(paper, lang)
    assert 0 < len(label) <= 100 and len(description) <= 100
    page = result_page([paper] * 5, 1, 12, "q" * 500, lang, lambda s: s)
    assert len(page.body) <= DESCRIPTION_LIMIT and len(page.heading) <= 256
    assert page.footer in {"Page 2 of 3", "第 2/3 页", "第 2/3 頁"}


def test_a_title_of_only_whitespace_still_names_its_choice() -> None:
    paper = Paper(title_en="\r", title_zh="", authors=())
    assert choice_name(paper, False, Lang.EN) == paper.id
    assert option_label(paper, Lang.EN)[0] == paper.id


def test_fit_cuts_at_a_word_boundary_with_an_ellipsis() -> None:
    assert fit("short", 10) == "short"
    assert fit("Stabilizing Native Low-Rank LLM Pretraining", 30) == "Stabilizing Native Low-Rank…"
    assert len(fit("x" * 500, 100)) == 100


def test_long_author_lists_say_how_many_more() -> None:
    paper = Paper(title_en="T", title_zh="", authors=tuple(f"Author Number {n}"
                                                            for n in range(200)))
    (authors,) = [f for f in build_card(paper, Lang.EN).fields if f.name == "Authors"]
    assert authors.value.endswith("more") and len(authors.value) <= FIELD_VALUE_LIMIT
    (chinese,) = [f for f in build_card(paper, Lang.ZH_HANS).fields if f.name == "作者"]
    assert chinese.value.endswith("位")


def _linked(summary_en: str = "", summary_zh: str = "") -> Paper:
    return Paper(title_en="Linked Paper", title_zh="", authors=("A",), summary_en=summary_en,
                 summary_zh=summary_zh, links=Links(arxiv_id="hep-th/9901001"))


def test_known_ids_link_the_abs_page_and_pdf_unknown_ones_search() -> None:
    card = build_card(_linked(), Lang.EN)
    assert (card.url, card.pdf_url) == ("https://arxiv.org/abs/hep-th/9901001",
                                        "https://arxiv.org/pdf/hep-th/9901001")
    plain = build_card(dataclasses.replace(_linked(), links=Links()), Lang.EN)
    assert plain.url.startswith("https://arxiv.org/search/") and plain.pdf_url == ""
    assert plain.link_label == "Find on arXiv" and card.link_label == "arXiv page"


@pytest.mark.parametrize(("lang", "shown", "other"), [
    (Lang.EN, "English words", AbstractKind.ZH), (Lang.ZH_HANS, "中文总结", AbstractKind.EN)])
def test_the_readers_text_first_the_other_a_click_away(lang: Lang, shown: str,
                                                        other: AbstractKind) -> None:
    card = build_card(_linked("English  words\n wrapped", "中文总结"), lang)
    assert shown in card.description and card.other is other
    only_zh = build_card(_linked(summary_zh="中文总结"), Lang.EN)
    assert "中文总结" in only_zh.description and only_zh.other is None


def test_latex_and_wrapping_are_normalised_for_display_only() -> None:
    raw = "Bounds $O(n^2)$ for $\\alpha$\n   at 50% {cost} \\emph{here}"
    assert display_text(raw) == "Bounds O(n^2) for α at 50% cost here"
    assert display_text("unbalanced $x {") == "unbalanced $x"


def test_a_long_abstract_fits_the_embed_total() -> None:
    paper = dataclasses.replace(_linked("word " * 3000), authors=tuple(f"N{i}" for i in range(400)))
    card = build_card(paper, Lang.EN)
    assert card.total_length() <= EMBED_TOTAL_LIMIT and len(card.description) <= 4096


@pytest.mark.parametrize("title", [
    "基于大规模预训练语言模型的多模态知识图谱构建与推理方法研究：以中文科技文献与开放获取预印本为例的实证分析与评估",
    " ".join(["Reinforcement Learning from Human Feedback for Ünïcode-heavy Titles"] * 12)])
def test_a_long_title_is_searched_by_its_first_words_within_the_button_limit(
        title: str) -> None:
    card = build_card(Paper(title_en=title, title_zh="", authors=("A",)), Lang.EN)
    assert len(card.url) <= URL_LIMIT
    query = parse_qs(urlsplit(card.url).query)
    (searched,) = query["query"]
    assert searched and title.startswith(searched) and query["searchtype"] == ["title"]
    if " " in title:
        assert title[len(searched)] == " ", "cut at a word boundary"
