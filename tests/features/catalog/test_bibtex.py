"""Reading BibTeX: fields, LaTeX to Unicode, per-entry errors with their line, streaming in
chunks, and the round trip with the BibTeX export."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime

import pytest
from bibtexparser.entrypoint import parse_string
from hypothesis import given
from hypothesis import strategies as st

from bot.features.catalog import bibtex as bibtex_reader
from bot.features.catalog.bibtex import parse_bibtex
from bot.features.catalog.latex_text import to_latex, to_text
from bot.features.catalog.listing import MAX_FIELD_CHARS, ParsedPaper, RecordError
from bot.features.catalog.venue import derive_venue
from bot.features.export.formats import ExportEntry, bibtex
from domain.paper import Links, Paper, Track, Venue
from domain.paper_merge import filled as fill_in
from domain.text import tidy
from tests.realworld import BIBTEX, real


def _lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), start=1))


def _parse(text: str) -> list[ParsedPaper | RecordError]:
    return list(parse_bibtex(_lines(text)))


def _papers(text: str) -> list[Paper]:
    return [item.paper for item in _parse(text) if isinstance(item, ParsedPaper)]


def _errors(text: str) -> list[tuple[int, str]]:
    return [(item.line, item.reason) for item in _parse(text) if isinstance(item, RecordError)]


FULL = r"""% exported by a reference manager
@string{icml = "ICML 2026"}

@inproceedings{muller2026,
  title = {On {\"U}ber $\alpha$-Grokking: {BERT} \& Friends},
  author = {M{\"u}ller, J{\"u}rgen and Doe, John and {Google DeepMind} and others},
  booktitle = icml,
  year = 2026,
  eprint = {2401.01234v2}, archivePrefix = {arXiv}, primaryClass = {cs.LG},
  doi = {https://doi.org/10.1000/x_y},
  url = {https://example.org/a_b%20c},
  abstract = {We study $x^2$ --- and
              more.}
}
"""


def test_every_field_is_read_and_latex_becomes_unicode() -> None:
    (paper,) = _papers(FULL)
    assert paper.title_en == "On Über α-Grokking: BERT & Friends"
    assert paper.authors == ("Jürgen Müller", "John Doe", "Google DeepMind")
    assert paper.journal_ref == ""  # a booktitle that only names the venue is the venue
    assert (paper.venue.conference, paper.venue.year, paper.venue.track) == (
        "ICML", 2026, Track.MAIN)
    assert paper.summary_en == "We study x^2 — and more."
    assert paper.links == Links(arxiv_id="2401.01234", arxiv_version=2, doi="10.1000/x_y",
                                url="https://example.org/a_b%20c", categories=("cs.LG",))


def test_arxiv_ids_from_eprint_old_style_mendeley_and_urls() -> None:
    text = r"""
@misc{a, title = {A}, eprint = {hep-th/9901001}}
@misc{b, title = {B}, arxivId = {2301.00001}}
@misc{c, title = {C}, url = {https://arxiv.org/pdf/2302.00002v3.pdf}}
@misc{d, title = {D}, eprint = {12345}, eprinttype = {pubmed}}
@misc{e, title = {E}, eprint = {not-an-id}, archivePrefix = {arXiv}}
"""
    ids = [(p.links.arxiv_id, p.links.arxiv_version) for p in _papers(text)]
    assert ids == [("hep-th/9901001", 0), ("2301.00001", 0), ("2302.00002", 3), ("", 0),
                   ("", 0)]
    warned = [w.reason for item in _parse(text) if isinstance(item, ParsedPaper)
              for w in item.warnings]
    assert warned == ["eprint 'not-an-id' is not an arXiv id; ignored"]


def test_bad_entries_are_reported_with_their_line_and_the_rest_load() -> None:
    text = r"""@misc{ok1, title = {First}}
@article{broken, title={Unclosed
@misc{ok2, title = {Second}, year = {forthcoming}}
@misc{OK1, title = {Same key in other case}}
@misc{d, title = {x}, title={y}}
@misc{e title = {x}}
@misc{f, author = {Doe, John}}
@misc{g, title = {G}, author = {A and and B}}
@misc{h, title = {H}, author = {Foo, Bar, Baz, Qux}}
@misc{i, title = {{}}}
@misc{ok3, title = {Third}, author = {}}
"""
    assert [p.title_en for p in _papers(text)] == ["First", "Second", "Third"]
    errors = dict(_errors(text))
    assert sorted(errors) == [2, 4, 5, 6, 7, 8, 9, 10]
    assert "not valid BibTeX" in errors[2] and "closing `}`" in errors[2]
    assert errors[4] == "citation key 'OK1' is used again (first at line 1)"
    assert errors[5] == "field 'title' is given twice"
    assert errors[7] == "entry has no title"
    assert "empty name" in errors[8]
    assert "Too many commas" in errors[9]
    assert errors[10] == "title has no letters or digits"
    (second,) = [i for i in _parse(text) if isinstance(i, ParsedPaper) and i.line == 3]
    assert [w.reason for w in second.warnings] == ["year 'forthcoming' is not a year; ignored"]


def test_invalid_utf8_is_reported_on_its_own_line() -> None:
    raw = b"@misc{a, title = {Fine}}\n@misc{b,\n  title = {Bad \xff byte}\n}\n@misc{c, title={C}}\n"
    lines = list(enumerate(raw.decode("utf-8", "surrogateescape").splitlines(), start=1))
    parsed = list(parse_bibtex(lines))
    assert [(e.line, e.reason) for e in parsed if isinstance(e, RecordError)] == [
        (3, "line is not valid UTF-8")]
    assert [p.paper.title_en for p in parsed if isinstance(p, ParsedPaper)] == ["Fine", "C"]


def test_huge_fields_get_the_importers_limits() -> None:
    long = "x" * (MAX_FIELD_CHARS + 1)
    text = f"@misc{{a, title = {{{'t' * 1001}}}}}\n@misc{{b, title={{B}}, abstract={{{long}}}}}\n"
    assert _errors(text) == [(1, "'title' is 1,001 characters long (limit 1,000)"),
                             (2, f"'abstract' is {len(long):,} characters long "
                                 f"(limit {MAX_FIELD_CHARS:,})")]


def test_a_big_file_streams_in_chunks_with_strings_and_keys_across_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bibtex_reader, "CHUNK_CHARS", 200)
    entries = [f"@misc{{k{n}, title = {{Paper {n}}}, journal = venue}}" for n in range(40)]
    entries[30] = "@misc{k3, title = {Again}}"
    entries[10] = "@misc{open, title = {never closed"
    text = "@string{venue = {ICML 2026}}\n" + "\n".join(entries) + "\n"
    papers = _papers(text)
    assert len(papers) == 38
    assert {p.journal_ref for p in papers} == {"ICML 2026"}
    assert [line for line, _ in _errors(text)] == [12, 32]


PAPER = Paper(
    "Grokking at the Edge: 50% of {all} $x_1$ -- Müller's \"take\"", "",
    ("Jürgen Müller", "Ada van der Berg", "Research and Development Team"),
    comments="Accepted at ICML 2026 Workshop on Mechanistic Interpretability (spotlight)",
    journal_ref="Proc. ICML 2026",
    venue=derive_venue("Accepted at ICML 2026 Workshop on Mechanistic Interpretability (spotlight)",
                       "Proc. ICML 2026"),
    summary_en="We show $\\alpha$ & more -- really.",
    links=Links(arxiv_id="2401.01234", arxiv_version=3, doi="10.1000/a_b(c)",
                url="https://example.org/p?a=1&b=2%20", categories=("cs.LG",)),
)


def test_an_export_reads_back_to_the_same_paper() -> None:
    (back,) = _papers(bibtex([ExportEntry(PAPER.id, PAPER)]))
    assert back.id == PAPER.id
    assert (back.title_en, back.authors, back.summary_en) == (
        PAPER.title_en, PAPER.authors, PAPER.summary_en)
    assert (back.comments, back.journal_ref, back.venue) == (
        PAPER.comments, PAPER.journal_ref, PAPER.venue)
    assert back.links == PAPER.links


def test_a_venue_without_comments_reads_back_from_howpublished() -> None:
    for venue in (Venue("ICML", 2026, Track.MAIN, None, ("oral",)),
                  Venue("ICML", 2025, Track.WORKSHOP, "Efficient Systems", ()),
                  Venue(None, 2024)):
        paper = Paper("A title", "", ("A B",), venue=venue)
        (back,) = _papers(bibtex([ExportEntry(paper.id, paper)]))
        assert back.venue == venue


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
                min_size=1, max_size=40).map(tidy).filter(bool)


@given(_TEXT)
def test_any_text_survives_latex_and_back(text: str) -> None:
    # Up to canonical equivalence: a CJK compatibility ideograph (U+F900) comes back as the
    # ideograph it stands for (U+8C48), which is the same character to every reader.
    assert to_text(to_latex(text)) == unicodedata.normalize("NFC", text)


def test_a_compatibility_ideograph_comes_back_as_its_canonical_form() -> None:
    assert to_text(to_latex("\uf900")) == "\u8c48"


def test_fill_in_keeps_what_is_known_and_takes_what_is_missing() -> None:
    known = Paper("Grokking", "顿悟", ("A B",), summary_zh="总结", venue=Venue("ICML"),
                  links=Links(url="https://known.example"))
    incoming = Paper("grokking", "", ("C D",), summary_en="Abstract.", venue=Venue("NeurIPS", 2024),
                     links=Links(arxiv_id="2401.00001", url="https://other.example"))
    filled = fill_in(known, incoming)
    assert (filled.title_en, filled.title_zh, filled.authors, filled.summary_zh) == (
        "Grokking", "顿悟", ("A B",), "总结")
    assert filled.summary_en == "Abstract."
    assert filled.venue == Venue("ICML")
    assert filled.links == Links(arxiv_id="2401.00001", url="https://known.example")
    assert fill_in(known, known) == known


def test_dates_count_when_there_is_no_year() -> None:
    (paper,) = _papers("@online{a, title = {A}, date = {2023-05-01}}")
    assert paper.venue.year == 2023
    assert datetime(2023, 5, 1, tzinfo=UTC).year == paper.venue.year


_LOGO = re.compile(r"\\(TeX|LaTeX|BibTeX|AmSTeX|MF)(?![A-Za-z])")
_LOGO_WORD = {"MF": "METAFONT"}


def test_tex_logos_and_unknown_macros_keep_their_words() -> None:
    assert _papers(r"@book{k, title = {The {\TeX}book}}")[0].title_en == "The TeXbook"
    (paper,) = _papers(r"@misc{k, title = {\LaTeX\ and \BibTeX\ on a \VAX: \acro{TUG} {\tt MF}}}")
    assert paper.title_en == "LaTeX and BibTeX on a VAX: TUG MF"
    assert to_text(r"\AmSTeX{} and \MF{} fonts") == "AmSTeX and METAFONT fonts"


def test_every_tugboat_title_keeps_its_tex_logos() -> None:
    """TUGboat's 1.5 MB bibliography: each title naming a TeX logo shows the logo's word."""
    path = real(BIBTEX / "pybtex" / "examples_tugboat_tugboat.bib")
    library = parse_string(path.read_text(encoding="utf-8"),
                           parse_stack=bibtex_reader._parse_stack())
    checked = 0
    for entry in library.entries:
        raw = entry.fields_dict.get("title")
        if raw is None or not _LOGO.search(str(raw.value)):
            continue
        title = bibtex_reader.entry_paper(entry)[0].title_en
        for logo in _LOGO.findall(str(raw.value)):
            assert _LOGO_WORD.get(logo, logo) in title, (raw.value, title)
        checked += 1
    assert checked > 1000


def test_arxiv_ids_named_in_the_venue_note_or_link_are_read() -> None:
    text = r"""
@article{a, title = {A}, journal = {arXiv preprint arXiv:2111.00396}, year = {2021}}
@misc{b, title = {B}, eprint = {arXiv:2302.00002v2}}
@misc{c, title = {C}, note = {Preprint at \url{https://arxiv.org/abs/2303.00003}}}
@misc{d, title = {D}, howpublished = {arXiv:hep-th/9901001}}
@article{e, title = {E}, journal = {CoRR}, volume = {abs/1706.03762}}
@article{f, title = {F}, journal = {Phys. Rev. 1234.5678}}
"""
    papers = _papers(text)
    assert [(p.links.arxiv_id, p.links.arxiv_version) for p in papers] == [
        ("2111.00396", 0), ("2302.00002", 2), ("2303.00003", 0), ("hep-th/9901001", 0),
        ("1706.03762", 0), ("", 0)]
    assert [p.journal_ref for p in papers] == ["", "", "", "", "CoRR", "Phys. Rev. 1234.5678"]


def test_every_google_scholar_arxiv_entry_of_the_real_corpus_gets_its_id() -> None:
    """`journal = {arXiv preprint arXiv:…}` as Google Scholar writes it (srush/anthology.bib)."""
    text = real(BIBTEX / "srush" / "anthology.bib").read_text(encoding="utf-8")
    library = parse_string(text, parse_stack=bibtex_reader._parse_stack())
    journal = re.compile(r"arXiv:(\d{4}\.\d{4,5})")
    scholar = [(entry, journal.search(str(entry.fields_dict["journal"].value)))
               for entry in library.entries if "journal" in entry.fields_dict]
    named = [(entry, match.group(1)) for entry, match in scholar if match]
    assert len(named) >= 30
    for entry, arxiv_id in named:
        assert bibtex_reader.entry_paper(entry)[0].links.arxiv_id == arxiv_id


def test_string_concatenation_is_joined_as_bibtex_does() -> None:
    text = r"""@string{STOC = "Symposium on Theory of Computing"}
@string{pstoc = "Proc. " # STOC}
@inproceedings{a, title = {A}, booktitle = "Proc. Fifteenth Annual " # STOC,
  note = {Held in } # dec # " 1983"}
@inproceedings{b, title = {B}, booktitle = pstoc, note = unknownmacro # { 2}}
"""
    a, b = _papers(text)
    assert (a.journal_ref, a.comments) == (
        "Proc. Fifteenth Annual Symposium on Theory of Computing", "Held in December 1983")
    assert (b.journal_ref, b.comments) == ("Proc. Symposium on Theory of Computing",
                                           "unknownmacro 2")


def test_xampl_concatenations_are_resolved() -> None:
    """xampl.bib (BibTeX's own example) joins `@string`s with `#` in booktitles."""
    text = real(BIBTEX / "pybtex" / "examples_xampl.bib").read_text(encoding="utf-8")
    papers = _papers(text)
    assert papers and not any("#" in p.journal_ref or '"' in p.journal_ref for p in papers)
    assert "Proc. Fifteenth Annual ACM Symposium on the Theory of Computing" in {
        p.journal_ref for p in papers}


def test_latex_escapes_in_urls_and_dois_are_not_part_of_the_address() -> None:
    (paper,) = _papers(r"@misc{a, title = {A}, url = {http://www.example.edu/\%7Euser/a\_b.pdf},"
                       r" doi = {10.1000/x\_y}}")
    assert paper.links.url == "http://www.example.edu/%7Euser/a_b.pdf"
    assert paper.links.doi == "10.1000/x_y"


def test_accented_names_come_back_whole() -> None:
    (read,) = _papers(r"@misc{k, title = {T}, author = {Ba{\~n}{\'o}n, Miquel and {\.I}lhan, Ali"
                      r" and Ned {\~N}et}}")
    assert read.authors == ("Miquel Bañón", "Ali İlhan", "Ned Ñet")
    (back,) = _papers(bibtex([ExportEntry(read.id, read)]))
    assert back.authors == read.authors


def test_a_booktitle_that_is_more_than_the_venue_is_the_journal_ref() -> None:
    text = r"""@inproceedings{a, title = {A}, booktitle = {ICML 2026}}
@inproceedings{b, title = {B}, booktitle = {Proceedings of ICML 2026, PMLR 267}}
@article{c, title = {C}, journal = {ICML 2026}}
"""
    assert [(p.journal_ref, p.venue.conference) for p in _papers(text)] == [
        ("", "ICML"), ("Proceedings of ICML 2026, PMLR 267", "ICML"), ("ICML 2026", "ICML")]
