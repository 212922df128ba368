"""The listing parser over the bundled catalog and over bad input."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.catalog.listing import (
    _AUTHOR_SPLIT,
    ListingParser,
    ParsedPaper,
    RecordError,
    split_affiliations,
    split_authors,
)
from bot.features.catalog.listing_writer import format_listing
from domain.paper import Affiliation, Paper
from domain.text import tidy


def _parse(text: str) -> tuple[ListingParser, list[ParsedPaper | RecordError]]:
    parser = ListingParser()
    return parser, list(parser.parse(enumerate(text.splitlines(), start=1)))


def _non_blank(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def test_bundled_catalog_has_30_papers_and_its_query(catalog_path: Path) -> None:
    parser, items = _parse(catalog_path.read_text(encoding="utf-8"))
    assert parser.query == "ICML"
    assert [i for i in items if isinstance(i, RecordError)] == []
    assert len(items) == 30


def test_every_field_of_every_bundled_paper_reproduces_its_source_line(
    catalog_path: Path, bundled_papers: list[Paper]
) -> None:
    """Writing the parsed papers back gives the file's lines: no field lost or altered."""
    source = catalog_path.read_text(encoding="utf-8")
    rewritten = "".join(format_listing(bundled_papers, "ICML"))
    assert _non_blank(rewritten) == _non_blank(source)


def test_first_record_fields(bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[0]
    assert paper.title_en == "Stabilizing Native Low-Rank LLM Pretraining"
    assert paper.title_zh == "稳定原生低秩大语言模型预训练"
    assert paper.authors == ("Paul Janson", "Edouard Oyallon", "Eugene Belilovsky")
    assert paper.affiliations == (
        Affiliation("Concordia University, Montreal, Canada", "Concordia 大学"),
        Affiliation("Mila Quebec AI Institute, Montreal, Canada", "Quebec AI 研究院"),
        Affiliation("Sorbonne University, CNRS , Paris , France", "Sorbonne 大学"),
    )
    assert paper.summary_zh.startswith("本文提出Spectron方法，")
    assert paper.comments == "Accepted at ICML 2026"
    assert paper.journal_ref == ""


def test_records_without_affiliations_and_with_journal_ref(bundled_papers: list[Paper]) -> None:
    no_affiliations = [p for p in bundled_papers if not p.affiliations]
    assert any(p.title_en.startswith("Skewness-Robust") for p in no_affiliations)
    with_ref = {p.title_en.split(":")[0]: p.journal_ref for p in bundled_papers if p.journal_ref}
    assert len(with_ref) == 3
    assert all(ref for ref in with_ref.values())


def test_affiliation_split_drops_correction_link() -> None:
    assert split_affiliations("A Univ（甲大学） ； B Lab（乙） 纠错") == (
        Affiliation("A Univ", "甲大学"),
        Affiliation("B Lab", "乙"),
    )
    assert split_affiliations("Plain Institute 纠错") == (Affiliation("Plain Institute"),)


GOOD = """ICML

Good Paper One

好论文一

Ann Author, Bob Builder

AI总结 摘要一。

Comments Accepted at ICML 2026
"""


def test_crlf_and_blank_variations_parse_the_same() -> None:
    _, unix = _parse(GOOD)
    _, windows = _parse(GOOD.replace("\n", "\r\n").replace("\r\n", "\n"))
    assert unix == windows
    assert isinstance(unix[0], ParsedPaper)


def test_record_missing_summary_is_reported_with_its_line_and_next_record_loads() -> None:
    text = (
        "ICML\n\nBroken Paper\n\n坏论文\n\nSomeone\n\nComments ICML 2026\n\n"
        "Good Paper\n\n好论文\n\nAnn Author\n\nAI总结 摘要。\n"
    )
    _, items = _parse(text)
    errors = [i for i in items if isinstance(i, RecordError)]
    papers = [i for i in items if isinstance(i, ParsedPaper)]
    assert [p.paper.title_en for p in papers] == ["Good Paper"]
    assert len(errors) == 1
    assert errors[0].line == 3
    assert "AI总结" in errors[0].reason


def test_record_missing_chinese_title_is_reported() -> None:
    text = GOOD + "\nLonely Title\n\nSomebody\n\nAI总结 只有两行。\n\n" + GOOD.split("\n", 1)[1]
    _, items = _parse(text)
    errors = [i for i in items if isinstance(i, RecordError)]
    assert [e.line for e in errors] == [13]
    assert "found 2 line(s)" in errors[0].reason
    assert sum(isinstance(i, ParsedPaper) for i in items) == 2


def test_duplicate_label_and_orphan_label_are_errors() -> None:
    text = "AI总结 孤立的摘要\n\n" + GOOD.split("\n", 1)[1] + "AI总结 又一个\n"
    _, items = _parse(text)
    errors = [i for i in items if isinstance(i, RecordError)]
    # The orphan summary at line 1, and a second summary in the record (line 13).
    assert {e.line for e in errors} == {1, 13}
    dup = GOOD + "Journal ref X\nJournal ref Y\n"
    _, items = _parse(dup)
    assert any(isinstance(i, RecordError) and "duplicate" in i.reason for i in items)


def test_title_starting_with_comments_is_a_title() -> None:
    text = "ICML\n\nComments on Attention\n\n关于注意力的评论\n\nAnn Author\n\nAI总结 摘要。\n"
    _, items = _parse(text)
    assert isinstance(items[0], ParsedPaper)
    assert items[0].paper.title_en == "Comments on Attention"


def test_invalid_utf8_line_rejects_only_its_record() -> None:
    bad = "Bad \udcff Title"
    text = GOOD + f"\n{bad}\n\n坏\n\nX\n\nAI总结 摘要。\n"
    _, items = _parse(text)
    errors = [i for i in items if isinstance(i, RecordError)]
    assert len(errors) == 1
    assert "UTF-8" in errors[0].reason
    assert sum(isinstance(i, ParsedPaper) for i in items) == 1


def test_overlong_title_is_rejected() -> None:
    text = GOOD.replace("Good Paper One", "x" * 5000)
    _, items = _parse(text)
    assert isinstance(items[0], RecordError)
    assert "characters long" in items[0].reason


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.text(max_size=60),
    st.sampled_from(["", "AI总结 摘要", "机构 * A（甲） 纠错", "Comments x", "Journal ref y",
                     "Title", "标题", "A, B"]),
), max_size=40))
def test_parser_never_raises_on_arbitrary_lines(lines: list[str]) -> None:
    parser = ListingParser()
    items = list(parser.parse(enumerate(lines, start=1)))
    for item in items:
        assert isinstance(item, ParsedPaper | RecordError)
        if isinstance(item, RecordError):
            assert 1 <= item.line <= len(lines)


@given(st.text(st.sampled_from("Ab ,，、;；and\u200b\u00a0\t\n李")))
def test_split_authors_is_the_plain_formula(text: str) -> None:
    """Names are tidied one by one only when the line is not tidy already (same names)."""
    plain = tuple(name for name in (tidy(n) for n in _AUTHOR_SPLIT.split(text)) if name)
    assert split_authors(text) == plain
