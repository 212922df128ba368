"""The text above the cards after adding papers: one line per id, capped, and arXiv's trouble."""

from __future__ import annotations

from bot.features.adding.answer import LINE_KEYS, PROBLEM_KEYS, SHOWN_LINES, report_text
from bot.shared.lang import Lang
from domain.adding import AddedItem, AddedStatus, AddReport, ArxivTrouble
from domain.arxiv_ids import IdProblem
from domain.paper import Paper


def test_every_status_and_problem_has_words() -> None:
    assert set(LINE_KEYS) == set(AddedStatus) - {AddedStatus.MALFORMED}
    assert set(PROBLEM_KEYS) == set(IdProblem)


def test_many_ids_are_cut_and_trouble_is_said_last() -> None:
    paper = Paper(title_en="A *starred* title", title_zh="", authors=("A",))
    items = tuple(AddedItem(f"2401.{10000 + i}", AddedStatus.ADDED, paper) for i in range(14))
    text = report_text(AddReport(items, ArxivTrouble.BUSY), Lang.EN)
    lines = text.splitlines()
    assert len(lines) == SHOWN_LINES + 2
    assert lines[0] == "Added `2401.10000`: A \\*starred\\* title"
    assert lines[-2:] == ["… and 4 more.", "arXiv is busy, try in a minute."]
    rejected = report_text(AddReport((), ArxivTrouble.REJECTED, "bad id <@1>"), Lang.ZH_HANT)
    assert rejected == "arXiv 拒絕了請求：bad id <@1>"
    assert report_text(AddReport(), Lang.EN).startswith("No arXiv link or id found")
