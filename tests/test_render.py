"""`paperclub show` rendering stays bounded however long a field is (issue 9, item 4)."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from rich.console import Console

from bot.cli.render import FIELD_PREVIEW_CHARS, print_paper
from domain.paper import Affiliation, Links, Paper


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


def test_show_prints_the_abstract_ids_links_and_dates() -> None:
    """`paperclub show` is the paper in full: what arXiv and a DOI say of it too."""
    links = Links(arxiv_id="2401.01234", arxiv_version=2, doi="10.1000/xyz.5",
                  url="https://example.org/paper", categories=("cs.LG", "stat.ML"),
                  published=datetime(2024, 1, 3, 18, 0, tzinfo=UTC),
                  updated=datetime(2024, 2, 9, 7, 30, tzinfo=UTC))
    paper = Paper(title_en="Grokking Beyond L2", title_zh="超越", authors=("Ann",),
                  summary_en="We study  sparse\n penalties.", summary_zh="摘要。", links=links)
    shown = _render(paper)
    assert "Abstract 摘要\nWe study sparse penalties." in shown  # unwrapped, as on a card
    assert "arXiv  2401.01234v2  cs.LG stat.ML" in shown
    assert "DOI  10.1000/xyz.5" in shown
    for url in ("https://arxiv.org/abs/2401.01234", "https://arxiv.org/pdf/2401.01234",
                "https://doi.org/10.1000/xyz.5", "https://example.org/paper"):
        assert f"  {url}\n" in shown
    assert "Published 发表  2024-01-03 18:00 UTC" in shown
    assert "Updated 更新  2024-02-09 07:30 UTC" in shown


def test_show_leaves_out_what_is_not_known() -> None:
    shown = _render(Paper(title_en="Plain", title_zh="平", authors=("Ann",)))
    for label in ("Abstract", "arXiv", "DOI", "Links", "Published", "Updated"):
        assert label not in shown
