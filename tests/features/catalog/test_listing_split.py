"""Issue 9: records are split around their `AI总结` line, so titles that begin with a field word
or wrap onto a second line never corrupt a neighbour or load as a fragment."""

from __future__ import annotations

import pytest

from bot.features.catalog.listing import ListingParser, ParsedPaper, RecordError


def _parse(*lines: str) -> list[ParsedPaper | RecordError]:
    return list(ListingParser().parse(enumerate(["ICML", *lines], start=1)))


def _papers(items: list[ParsedPaper | RecordError]) -> list[ParsedPaper]:
    return [i for i in items if isinstance(i, ParsedPaper)]


def _errors(items: list[ParsedPaper | RecordError]) -> list[RecordError]:
    return [i for i in items if isinstance(i, RecordError)]


PLAIN = ["Plain Paper", "普通论文", "Ann Author", "AI总结 摘要。"]
WITH_COMMENTS = [*PLAIN, "Comments Accepted at ICML 2026"]


@pytest.mark.parametrize("title", [
    "Comments on Paper A", "Comments: a Study", "Journal ref Matching at Scale",
    "AI总结 Models Considered", "机构 Design for Labs",
])
@pytest.mark.parametrize("before", [PLAIN, WITH_COMMENTS], ids=["no-comments", "comments"])
def test_title_starting_with_a_field_word_is_a_title(before: list[str], title: str) -> None:
    items = _parse(*before, title, "关于A的论文", "Bob Builder", "AI总结 另一个摘要。")
    assert _errors(items) == []
    first, second = (p.paper for p in _papers(items))
    assert first.comments == ("Accepted at ICML 2026" if before is WITH_COMMENTS else "")
    assert second.title_en == title
    assert second.summary_zh == "另一个摘要。"


def test_chinese_title_starting_with_field_words_is_a_title() -> None:
    items = _parse(*PLAIN, "Paper B", "AI总结：模型综述", "Bob Builder", "AI总结 摘要。",
                   "Paper C", "机构投资者研究", "Cat Carter", "AI总结 摘要。")
    assert _errors(items) == []
    assert [p.paper.title_zh for p in _papers(items)] == ["普通论文", "AI总结：模型综述",
                                                          "机构投资者研究"]


def test_both_trailers_then_a_journal_ref_title() -> None:
    items = _parse(*WITH_COMMENTS, "Journal ref ICML 2026", "Journal ref Titles Considered",
                   "论文", "Bob Builder", "AI总结 摘要。")
    assert _errors(items) == []
    first, second = (p.paper for p in _papers(items))
    assert (first.comments, first.journal_ref) == ("Accepted at ICML 2026", "ICML 2026")
    assert second.title_en == "Journal ref Titles Considered"


def test_wrapped_english_title_is_joined() -> None:
    items = _parse(*WITH_COMMENTS, "A Very Long Title That Wraps", "Onto a Second Line",
                   "很长的标题", "Bob Builder", "AI总结 摘要。")
    assert _errors(items) == []
    assert [p.paper.title_en for p in _papers(items)] == [
        "Plain Paper", "A Very Long Title That Wraps Onto a Second Line"]
    assert _papers(items)[1].line == 7


def test_wrapped_title_of_the_first_record_is_joined() -> None:
    items = _parse("A Title That Wraps", "Onto a Second Line", "标题", "Ann", "AI总结 摘要。")
    assert [p.paper.title_en for p in _papers(items)] == ["A Title That Wraps Onto a Second Line"]


def test_title_on_three_lines_is_rejected_not_loaded_as_a_fragment() -> None:
    items = _parse(*PLAIN, "A Title", "On Three", "Lines", "标题", "Bob", "AI总结 摘要。")
    assert [p.paper.title_en for p in _papers(items)] == ["Plain Paper"]
    assert [e.line for e in _errors(items)] == [6]


def test_title_continuation_after_a_trailer_like_line_is_rejected() -> None:
    items = _parse(*WITH_COMMENTS, "Comments on the", "Theory of Everything", "万物理论", "Bob",
                   "AI总结 摘要。")
    assert [p.paper.title_en for p in _papers(items)] == ["Plain Paper"]
    assert [e.line for e in _errors(items)] == [7]
    assert _papers(items)[0].paper.comments == "Accepted at ICML 2026"


def test_record_without_summary_is_rejected_alone() -> None:
    items = _parse(*PLAIN, "Broken", "坏", "Bob", "Comments x", "Good", "好", "Cat",
                   "AI总结 好。", *PLAIN[:1], "普通二", "Dan", "AI总结 摘要。")
    assert [p.paper.title_en for p in _papers(items)] == ["Plain Paper", "Good", "Plain Paper"]
    assert [e.line for e in _errors(items)] == [6]


def test_long_run_without_summary_is_one_error_and_the_next_record_loads() -> None:
    junk = [f"Junk line {n}" for n in range(40)]
    items = _parse(*PLAIN, *junk, "坏", "Bob", "Good", "好", "Cat", "AI总结 好。")
    assert [p.paper.title_en for p in _papers(items)] == ["Plain Paper", "Good"]
    assert [e.line for e in _errors(items)] == [6]


def test_duplicate_summary_is_reported_and_next_record_loads() -> None:
    items = _parse(*PLAIN, "AI总结 又一个。", "Next", "下一个", "Bob", "AI总结 摘要。")
    assert [p.paper.title_en for p in _papers(items)] == ["Plain Paper", "Next"]
    assert [e.line for e in _errors(items)] == [6]
    assert "AI总结" in _errors(items)[0].reason
