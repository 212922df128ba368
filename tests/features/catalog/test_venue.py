"""Venue facts derived from Comments and Journal ref."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.catalog.venue import (
    _ACRONYM_YEAR,
    _COUNTS,
    _NAMED_WORKSHOP,
    _at_venue,
    _named_workshops,
    derive_venue,
)
from domain.paper import Paper, Track

# (start of the English title, expected badge, pages, figures), checked by hand against the file.
EXPECTED = [
    ("Stabilizing Native Low-Rank", "ICML 2026 · Main track", None, None),
    ("To Grok Grokking", "ICML 2026 · Main track", None, None),
    ("Step-Tagging", "ICML 2026 · Workshop: Resource-Adaptive Foundation Model Inference (AdaptFM)",
     None, None),
    ("Skewness-Robust", "ICML 2026 · Main track", None, None),
    ("MetaPerch", "ICML 2026 · Main track", None, None),
    ("Plausible Deniability", "ICML 2026 · Workshop: Technical AI Governance Research", None, None),
    ("Symbiosis-Inspired", "ICML 2026 · Main track", 16, 8),
    ("Local Redundancy", "ICML 2026 · Main track · Spotlight", 13, 7),
    ("Accuracy and Normalized Accuracy", "ICML 2026 · Main track", None, None),
    ("Adaptive Testing for LLM", "ICML 2026 · Main track · Spotlight", None, None),
]


def _by_title(papers: list[Paper], start: str) -> Paper:
    (paper,) = [p for p in papers if p.title_en.startswith(start)]
    return paper


@pytest.mark.parametrize(("start", "badge", "pages", "figures"), EXPECTED)
def test_bundled_venues(bundled_papers: list[Paper], start: str, badge: str,
                        pages: int | None, figures: int | None) -> None:
    venue = _by_title(bundled_papers, start).venue
    assert venue.badge() == badge
    assert (venue.pages, venue.figures) == (pages, figures)


def test_otfs_paper_is_icmlcn_2025_not_icml(bundled_papers: list[Paper]) -> None:
    (paper,) = [p for p in bundled_papers if "ICMLCN" in p.comments]
    assert (paper.venue.conference, paper.venue.year) == ("ICMLCN", 2025)
    assert paper.venue.track is Track.MAIN


def test_every_bundled_paper_has_a_conference_and_year(bundled_papers: list[Paper]) -> None:
    assert all(p.venue.conference and p.venue.year for p in bundled_papers)
    counts: dict[str, int] = {}
    for paper in bundled_papers:
        counts[paper.venue.track.value] = counts.get(paper.venue.track.value, 0) + 1
    assert counts == {"main": 18, "workshop": 12}


@pytest.mark.parametrize(("comments", "journal_ref", "conference", "year", "track", "workshop"), [
    ("15 pages, 8 figures; Accepted at HiLD@ICML'26", "", "ICML", 2026, "workshop", "HiLD"),
    ("Accepted to ICML 26", "", "ICML", 2026, "main", None),
    ("Accepted to the Mechanistic Interpretability Workshop at ICML 2026. 12 pages", "",
     "ICML", 2026, "workshop", "Mechanistic Interpretability"),
    ("", "Proceedings of the ICML 2026 Workshop on AI4Law", "ICML", 2026, "workshop", "AI4Law"),
    ("Accepted at the ICML 2026 TAIGR workshop. System name: EG-VAR", "",
     "ICML", 2026, "workshop", "TAIGR"),
    ("Accepted to the Structured Probabilistic Inference & Generative Modeling Workshop at ICML",
     "", "ICML", None, "workshop", "Structured Probabilistic Inference & Generative Modeling"),
    ("16 pages, 8 figures, 2 tables. Accepted at the FAGEN Workshop @ ICML 2026", "",
     "ICML", 2026, "workshop", "FAGEN"),
    ("To be presented at the 9th International Conference on Machine Learning and Machine "
     "Intelligence (MLMI 2026), Tokyo, Japan", "", "MLMI", 2026, "main", None),
    ("Accepted at ICML 2026", "International Conference on Machine Learning 2026",
     "ICML", 2026, "main", None),
    ("", "International Conference on Machine Learning 2026", "ICML", 2026, "main", None),
    ("", "", None, None, "unknown", None),
    ("Work in progress", "", None, None, "unknown", None),
])
def test_derive_venue(comments: str, journal_ref: str, conference: str | None,
                      year: int | None, track: str, workshop: str | None) -> None:
    venue = derive_venue(comments, journal_ref)
    assert (venue.conference, venue.year, venue.track.value, venue.workshop) == (
        conference, year, track, workshop)


def test_honours_and_counts() -> None:
    venue = derive_venue("Accepted as a poster at FMSD @ ICML 2026. 9 pages, 6 figures, "
                         "3 tables", "")
    assert venue.honours == ("poster",)
    assert (venue.pages, venue.figures, venue.tables) == (9, 6, 3)
    assert derive_venue("ICML 2026 (Oral)", "").honours == ("oral",)


# The patterns as first written (quadratic on long runs), kept as the rule the linear
# reading must follow exactly.
_REFERENCE_ACRONYM_YEAR = re.compile(
    r"(?<![A-Za-z0-9])([A-Z][A-Za-z]*[A-Z][A-Za-z]*)\s*(?:['’]\s*|\s)(20\d\d|\d\d)(?![0-9])")
_REFERENCE_AT_VENUE = re.compile(r"([A-Za-z][\w\-]*)\s*@\s*[A-Z]")
_REFERENCE_COUNT = re.compile(r"(\d+)\s+pages\b", re.I)
_PIECES = ["Foo", "workshop", "Workshop", "Workshops", "&", " ", "  ", "\n", "@", "ICML", "x",
           "-", "_", "9", "2026", "'", ".", "The", "é", "aB", "pages", "Bar-Baz"]


@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
@settings(max_examples=600, deadline=None)
def test_linear_patterns_read_as_the_reference_patterns(text: str) -> None:
    assert [m.group(1) for m in _NAMED_WORKSHOP.finditer(text)] == list(_named_workshops(text))
    reference_at = _REFERENCE_AT_VENUE.search(text)
    assert _at_venue(text) == (reference_at.group(1) if reference_at else None)
    assert ([m.groups() for m in _REFERENCE_ACRONYM_YEAR.finditer(text)]
            == [m.groups() for m in _ACRONYM_YEAR.finditer(text)])
    reference_count = _REFERENCE_COUNT.search(text)
    count = _COUNTS["pages"].search(text)
    assert (count.group(1) if count else None) == (
        reference_count.group(1) if reference_count else None)


@pytest.mark.parametrize(("field", "workshop"), [
    ("A" * 20_000, None), ("Foo " * 5_000, None), ("a@" * 10_000, None),
    ("1" * 20_000, None), ("Ab" * 10_000, None),
    ("Ab " * 6_000 + "workshop", " ".join(["Ab"] * 6_000)),
    ("x " + "Ab " * 6_000 + "y@Venue", "y")])
def test_long_venue_notes_are_read(field: str, workshop: str | None) -> None:
    """A listing's field may hold 20,000 characters: each of these took 5-15 s of CPU with
    the first patterns (quadratic on long runs); the linear reading gives the same answer."""
    assert derive_venue(field, "").workshop == workshop
