"""Corrections' pure rules: each field's value as text and its limits, the overlay applied to a
paper (the English title keeps the paper's id), and the curators' diff."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.features.corrections.rules import (
    LIMITS,
    REASON_LIMIT,
    checked_reason,
    checked_value,
    current_value,
    diff_text,
    overlaid,
    with_value,
)
from bot.shared.messages import Refusal
from domain.corrections import Field, Proposal, Status, Target
from domain.paper import Affiliation, Paper, Track

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def _approved(paper: Paper, field: Field, value: str, position: int = 0, n: int = 1) -> Proposal:
    target = Target(paper.id, field, position)
    return Proposal(n, 1, target, current_value(paper, target), value, "", 5, T0,
                    Status.APPROVED)


def _icmlcn(papers: list[Paper]) -> Paper:
    """The bundled listing's "ICML" paper that is from ICMLCN 2025 (issue 25)."""
    found, = [p for p in papers if "ICMLCN" in p.journal_ref]
    return found


def test_venue_parts_corrected_on_a_real_record(bundled_papers: list[Paper]) -> None:
    paper = _icmlcn(bundled_papers)
    fixed = overlaid(paper, [_approved(paper, Field.CONFERENCE, "IEEE ICMLCN"),
                             _approved(paper, Field.YEAR, checked_value(Field.YEAR, "2025")),
                             _approved(paper, Field.HONOURS, checked_value(Field.HONOURS,
                                                                           "oral"))])
    assert fixed.venue.badge() == "IEEE ICMLCN 2025 · Main track · Oral"
    assert fixed.id == paper.id and fixed.title_en == paper.title_en
    assert overlaid(paper, []) == paper


def test_an_english_title_correction_keeps_the_id(bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[0]
    fixed = overlaid(paper, [_approved(paper, Field.TITLE_EN, "A Different Title")])
    assert fixed.title_en == "A Different Title"
    assert fixed.id == paper.id and fixed.key == paper.key
    # Corrections of other papers are ignored; a later one of the same field wins.
    other = bundled_papers[1]
    twice = overlaid(paper, [_approved(paper, Field.TITLE_ZH, "一"),
                             _approved(other, Field.TITLE_ZH, "别的"),
                             _approved(paper, Field.TITLE_ZH, "二", n=2)])
    assert twice.title_zh == "二"


def test_every_field_round_trips_through_its_text() -> None:
    paper = Paper("Title", "标题", ("Ann Lee", "Bo Wu"),
                  (Affiliation("MIT", ""), Affiliation("Tsinghua", "清华大学")), "摘要")
    for field in Field:
        target = Target(paper.id, field, 1)
        value = current_value(paper, target)
        assert current_value(with_value(paper, target, value), target) == value, field
    authors = Target(paper.id, Field.AUTHORS)
    assert current_value(paper, authors) == "Ann Lee; Bo Wu"
    assert with_value(paper, authors, checked_value(Field.AUTHORS, "A, B ,, C")).authors == (
        "A", "B", "C")
    zh = Target(paper.id, Field.AFFILIATION_ZH, 0)
    assert with_value(paper, zh, "麻省理工").affiliations[0] == Affiliation("MIT", "麻省理工")
    with pytest.raises(Refusal) as refused:
        current_value(paper, Target(paper.id, Field.AFFILIATION_EN, 2))
    assert refused.value.key == "corrections.no_affiliation"
    track = Target(paper.id, Field.TRACK)
    assert with_value(paper, track, "workshop").venue.track is Track.WORKSHOP


@pytest.mark.parametrize(("field", "text", "key"), [
    (Field.TITLE_ZH, "", "corrections.empty"),
    (Field.TITLE_ZH, "标" * (LIMITS[Field.TITLE_ZH] + 1), "corrections.too_long"),
    (Field.SUMMARY_ZH, "x" * 4000, "corrections.too_long"),
    (Field.SUMMARY_EN, "", "corrections.empty"),
    (Field.SUMMARY_EN, "x" * 4000, "corrections.too_long"),
    (Field.YEAR, "25", "corrections.bad_year"),
    (Field.YEAR, "3025", "corrections.bad_year"),
    (Field.TRACK, "poster", "corrections.bad_track"),
    (Field.ARXIV_ID, "2401.123", "corrections.bad_arxiv_id"),
])
def test_bad_values_are_refused(field: Field, text: str, key: str) -> None:
    with pytest.raises(Refusal) as refused:
        checked_value(field, text)
    assert refused.value.key == key


def test_values_are_cleaned_as_all_user_input() -> None:
    assert checked_value(Field.TITLE_ZH, " 新\u200b标题\ud800\n ") == "新标题"
    assert checked_value(Field.ARXIV_ID, "arXiv:2401.01234v3") == "2401.01234"
    assert checked_value(Field.CONFERENCE, "  ") == ""  # a wrong venue may be removed
    assert checked_reason("<@123> **bold**") == "<@123> **bold**"  # escaped when shown
    with pytest.raises(Refusal):
        checked_reason("x" * (REASON_LIMIT + 1))


def test_the_diff_shows_old_and_new() -> None:
    assert diff_text("旧标题", "新标题") == "- 旧标题\n+ 新标题"
    assert diff_text("", "ICMLCN") == "- (empty)\n+ ICMLCN"
    long_old = "word " * 20 + "tail"
    assert diff_text(long_old, long_old.replace("tail", "end")).endswith("\n! end")
