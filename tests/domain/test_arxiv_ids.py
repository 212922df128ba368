"""Finding arXiv ids in free text: examples, then properties over generated ids and text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.arxiv_ids import ArxivRef, IdProblem, find_arxiv_ids, parse_arxiv_id


@pytest.mark.parametrize(("text", "expected"), [
    ("see 2401.01234 today", ArxivRef("2401.01234")),
    ("2401.01234v2", ArxivRef("2401.01234", 2)),
    ("0704.0001", ArxivRef("0704.0001")),
    ("old hep-th/9901001v3.", ArxivRef("hep-th/9901001", 3)),
    ("math.GT/0309136", ArxivRef("math/0309136")),
    ("https://arxiv.org/abs/2401.01234v2?context=cs", ArxivRef("2401.01234", 2)),
    ("<https://arxiv.org/pdf/2401.01234.pdf>", ArxivRef("2401.01234")),
    ("arxiv.org/pdf/2401.01234v3", ArxivRef("2401.01234", 3)),
    ("https://www.arxiv.org/html/2401.01234v1#S2", ArxivRef("2401.01234", 1)),
    ("https://arxiv.org/abs/hep-th/9901001", ArxivRef("hep-th/9901001")),
    ("(arXiv:2401.01234)", ArxivRef("2401.01234")),
    ("ARXIV: 1412.1234", ArxivRef("1412.1234")),
    ("arXiv:math.GT/0309136v1,", ArxivRef("math/0309136", 1)),
])
def test_finds_each_form(text: str, expected: ArxivRef) -> None:
    scan = find_arxiv_ids(text)
    assert scan.found == (expected,)
    assert scan.malformed == ()


@pytest.mark.parametrize(("text", "problem"), [
    ("arXiv:2401.999", IdProblem.TOO_FEW_DIGITS),
    ("arXiv:2401.1234", IdProblem.TOO_FEW_DIGITS),  # 2015 on: five digits
    ("arXiv:1412.12345", IdProblem.TOO_MANY_DIGITS),  # before 2015: four
    ("arXiv:2413.01234", IdProblem.BAD_MONTH),
    ("arXiv:0612.1234", IdProblem.BEFORE_NEW_SCHEME),
    ("arXiv:2401.01234v0", IdProblem.BAD_VERSION),
    ("https://arxiv.org/abs/foo-bar/9901001", IdProblem.UNKNOWN_ARCHIVE),
    ("arXiv:banana", IdProblem.NOT_AN_ID),
    ("bare 2401.123456", IdProblem.TOO_MANY_DIGITS),
])
def test_reports_malformed_candidates_with_why(text: str, problem: IdProblem) -> None:
    scan = find_arxiv_ids(text)
    assert scan.found == ()
    assert [m.problem for m in scan.malformed] == [problem]
    assert problem.explain()


def test_ordinary_numbers_and_slashes_are_not_candidates() -> None:
    scan = find_arxiv_ids("pi is 3.14159, the year 1999.5, and/or 1234567 and 2020.1234 "
                          "and version 1234.5678")
    assert scan == find_arxiv_ids("")


def test_a_message_with_several_ids_keeps_their_order_without_repeats() -> None:
    scan = find_arxiv_ids("Known https://arxiv.org/abs/2602.01234v2, new arXiv:2401.01234 "
                          "and again 2602.01234v2; broken arXiv:2401.999")
    assert scan.found == (ArxivRef("2602.01234", 2), ArxivRef("2401.01234"))
    assert [m.text for m in scan.malformed] == ["arXiv:2401.999"]


def test_parse_one_id() -> None:
    assert parse_arxiv_id("2401.01234v2") == ArxivRef("2401.01234", 2)
    assert parse_arxiv_id("hep-th/9901001") == ArxivRef("hep-th/9901001")
    assert parse_arxiv_id("x") is IdProblem.NOT_AN_ID
    assert ArxivRef("2401.01234", 2).versioned == "2401.01234v2"
    assert ArxivRef("2401.01234").versioned == "2401.01234"


@st.composite
def new_style(draw: st.DrawFn) -> ArxivRef:
    year = draw(st.integers(7, 99))
    month = draw(st.integers(1 if year > 7 else 4, 12))
    digits = 5 if year * 100 + month >= 1501 else 4
    number = draw(st.integers(0, 10 ** digits - 1))
    version = draw(st.none() | st.integers(1, 30))
    return ArxivRef(f"{year:02d}{month:02d}.{number:0{digits}d}", version)


@st.composite
def old_style(draw: st.DrawFn) -> ArxivRef:
    archive = draw(st.sampled_from(["hep-th", "math", "cond-mat", "astro-ph", "cs", "quant-ph"]))
    year = draw(st.sampled_from([91, 95, 99, 0, 3, 6]))
    month = draw(st.integers(1, 12))
    number = draw(st.integers(0, 999))
    version = draw(st.none() | st.integers(1, 9))
    return ArxivRef(f"{archive}/{year:02d}{month:02d}{number:03d}", version)


FORMS = ("{id}", "arXiv:{id}", "arxiv: {id}", "https://arxiv.org/abs/{id}",
         "http://arxiv.org/pdf/{id}.pdf", "https://arxiv.org/html/{id}?x=1",
         "(https://export.arxiv.org/abs/{id})")
PROSE = st.text(st.characters(codec="utf-8"), max_size=40)


@given(new_style() | old_style(), st.sampled_from(FORMS), PROSE, PROSE)
def test_any_id_in_any_form_amid_prose_is_found(ref: ArxivRef, form: str, before: str,
                                                after: str) -> None:
    text = f"{before} {form.format(id=ref.versioned)} {after}"
    assert ref in find_arxiv_ids(text).found


@given(st.text(max_size=300))
def test_never_raises_and_every_found_id_parses_back_to_itself(text: str) -> None:
    scan = find_arxiv_ids(text)
    for ref in scan.found:
        assert parse_arxiv_id(ref.versioned) == ref
    assert len(set(scan.found)) == len(scan.found)


@given(st.lists(new_style() | old_style(), max_size=6), st.sampled_from(FORMS))
def test_found_in_order_of_appearance(refs: list[ArxivRef], form: str) -> None:
    text = " and ".join(form.format(id=r.versioned) for r in refs)
    assert find_arxiv_ids(text).found == tuple(dict.fromkeys(refs))
