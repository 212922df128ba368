"""`paperclub show` rendering stays bounded however long a field is (issue 9, item 4)."""

from __future__ import annotations

import io

from rich.console import Console

from bot.cli.render import FIELD_PREVIEW_CHARS, print_paper
from domain.paper import Affiliation, Paper


def _render(paper: Paper) -> str:
    buffer = io.StringIO()
    print_paper(Console(file=buffer, width=100, color_system=None), paper)
    return buffer.getvalue()


def test_huge_summary_is_cut_with_a_hint_to_use_json() -> None:
    paper = Paper(title_en="Big", title_zh="大", authors=("Ann",), summary_zh="摘" * 5_000_000)
    shown = _render(paper)
    assert len(shown) < 3 * FIELD_PREVIEW_CHARS
    assert shown.count("摘") == FIELD_PREVIEW_CHARS
    assert f"paperclub show {paper.id} --json" in shown
    assert "4,998,000 more characters" in shown


def test_every_long_field_is_cut() -> None:
    paper = Paper(title_en="Long " * 200, title_zh="长" * 30_000, authors=("Ann",) * 20_000,
                  affiliations=(Affiliation("Institute " * 30, "所"),) * 5_000,
                  summary_zh="s" * 30_000, comments="c " * 30_000, journal_ref="j" * 30_000)
    shown = _render(paper)
    assert len(shown) < 20 * FIELD_PREVIEW_CHARS
    assert shown.count("--json") >= 5


def test_short_record_is_shown_whole_without_a_hint() -> None:
    paper = Paper(title_en="Small [bold]Paper[/bold]", title_zh="小", authors=("Ann", "Bob"),
                  summary_zh="摘要。", comments="Accepted at ICML 2026")
    shown = _render(paper)
    assert "Small [bold]Paper[/bold]" in shown
    assert "摘要。" in shown
    assert "--json" not in shown
