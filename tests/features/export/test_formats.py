"""Citation keys, BibTeX escaping, Markdown escaping and cutting an export to a size."""

from __future__ import annotations

from datetime import UTC, datetime

import pybtex.database
from bibtexparser.entrypoint import parse_string
from bibtexparser.middlewares import LatexDecodingMiddleware
from bibtexparser.middlewares.names import split_multiple_persons_names
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from bot.features.catalog.latex_text import balanced, to_text
from bot.features.export.formats import ExportEntry, ExportFormat, bibtex, citation_keys, fit_export
from bot.features.export.markdown import MarkdownLabels, markdown, md, md_paragraph, one_line
from domain.paper import Paper, Venue

WHEN = datetime(2026, 11, 30, tzinfo=UTC)


def _entry(title: str, authors: tuple[str, ...] = ("Ashish Vaswani",), year: int | None = 2017,
           notes: tuple[str, ...] = ()) -> ExportEntry:
    paper = Paper(title, "", authors, venue=Venue(conference="NeurIPS", year=year))
    return ExportEntry(paper.id, paper, WHEN, notes=notes)


def test_keys_are_surname_year_first_word_and_deduplicated_in_order() -> None:
    entries = [_entry("Attention Is All You Need"), _entry("The Attention Trick"),
               _entry("Attention, again"), _entry("On Grokking", ("Müller, Jürgen",), None),
               _entry("¿Qué?", ("李 小龙",), 2020)]
    assert citation_keys(entries) == ["vaswani2017attention", "vaswani2017attentiona",
                                      "vaswani2017attentionb", "mullergrokking", "anon2020que"]
    gone = ExportEntry("0123456789abcdef", None, WHEN)
    assert citation_keys([gone, gone]) == ["paper0123456789abcdef", "paper0123456789abcdefa"]


def test_a_key_already_taken_by_a_suffix_is_skipped() -> None:
    entries = [_entry("Attention"), _entry("Attention"), _entry("Attentiona"),
               _entry("Attention")]
    keys = citation_keys(entries)
    assert len(set(keys)) == 4 and keys[0] == "vaswani2017attention"


def test_latex_specials_are_escaped_and_parse_back_unchanged() -> None:
    title = "50% of {all} $x_1$ & #tags ~ \\ Müller"
    text = bibtex([_entry(title, notes=("@everyone <@1> 100%",))])
    assert "\\%" in text and "\\&" in text and "\\_" in text and "\\#" in text
    (entry,) = parse_string(text, append_middleware=[LatexDecodingMiddleware()]).entries
    assert entry.fields_dict["title"].value == title
    assert entry.fields_dict["note"].value == "@everyone <@1> 100%"
    assert entry.fields_dict["year"].value == "2017"


_TITLE_CHARS = st.characters(codec="latin-1", categories=("Lu", "Ll", "Nd")) | st.sampled_from(
    " !#$%&()*+,./:;<=>?@[\\]_{|}~")


@given(st.text(_TITLE_CHARS, min_size=1, max_size=60).filter(
    lambda s: s.strip() == s and "  " not in s))
def test_any_title_survives_a_round_trip(title: str) -> None:
    """ASCII punctuation and Latin-1 letters (LaTeX reads quotes and
    dashes as typographic ones; pylatexenc reads `^` back as `ˆ`, `·` as `˙`). An unpaired
    brace is `\\textbraceleft{}`, which LaTeX and paperclub know and bibtexparser's own
    decoder does not."""
    (entry,) = parse_string(bibtex([_entry(title)])).entries
    assert to_text(entry.fields_dict["title"].value) == title
    if balanced(title):
        (decoded,) = parse_string(bibtex([_entry(title)]),
                                  append_middleware=[LatexDecodingMiddleware()]).entries
        assert decoded.fields_dict["title"].value == title


def test_markdown_is_inert_and_quotes_notes() -> None:
    assert md("**x** [a](b) <@&1> @everyone") == (
        "\\*\\*x\\*\\* \\[a\\](b) \\<\\@&1\\> \\@everyone")
    labels = MarkdownLabels("History", lambda e: f"Discussed {e.when:%Y-%m-%d}", "thread", "gone")
    text = markdown([_entry("Grokking", notes=("line one\nline two",))], labels,
                    lambda p: p.title_en)
    assert text.splitlines()[:10] == ["# History", "", "1. **Grokking**", "",
                                      "    Ashish Vaswani", "", "    *NeurIPS 2017*", "",
                                      "    Discussed 2026-11-30", ""]
    assert "    > line one\n    > line two" in text
    (item,) = _items(text)
    assert item == ["Grokking", "Ashish Vaswani", "NeurIPS 2017", "Discussed 2026-11-30",
                    "line one\nline two"]


_COMMONMARK = MarkdownIt("commonmark").enable("strikethrough")
"""CommonMark, with GitHub's `~~strike-through~~` that a reader's viewer may add."""


def _plain(inline: Token) -> str:
    """An inline run as its reader sees it: the text, without any markup."""
    return "".join("\n" if child.type == "softbreak" else child.content
                   for child in inline.children or () if child.type in (
                       "text", "softbreak", "code_inline"))


def _items(text: str) -> list[list[str]]:
    """Each list item of a rendered export as its paragraphs' plain text (a quote is one)."""
    items: list[list[str]] = []
    depth = 0
    for token in _COMMONMARK.parse(text):
        if token.type == "list_item_open":
            items.append([])
        depth += token.nesting if token.type == "blockquote_open" or (
            token.type == "blockquote_close") else 0
        if token.type == "inline" and items:
            if depth and items[-1] and items[-1][-1].startswith("\x00"):
                items[-1][-1] += "\n" + _plain(token)
            else:
                items[-1].append(("\x00" if depth else "") + _plain(token))
    return [[part.lstrip("\x00") for part in item] for item in items]


def test_the_bundled_catalog_renders_one_paragraph_per_detail(
        bundled_papers: list[Paper]) -> None:
    """Title, authors, venue and summary are paragraphs of their own in a CommonMark
    renderer, each exactly the text, with no markup and no stray backslash in the file."""
    from bot.features.export.service import catalog_text
    text = catalog_text(bundled_papers, ExportFormat.MARKDOWN)
    items = _items(text)
    assert len(items) == len(bundled_papers)
    for paper, item in zip(bundled_papers, items, strict=True):
        summary = paper.summary_en or paper.summary_zh
        expected = [" ".join(paper.title_en.split()), ", ".join(paper.authors),
                    paper.venue.badge(), one_line(summary) if summary else ""]
        assert item == [part for part in expected if part], paper.title_en
    assert "\\&" not in text and "\\~" not in text


_TEXT = st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), max_size=80)


@given(_TEXT)
def test_any_text_renders_as_itself_and_nothing_else(text: str) -> None:
    """Whatever a title, a name or a note holds, a CommonMark renderer shows exactly that text
    as one paragraph: no emphasis, link, code, HTML, entity, list or heading."""
    inert = md_paragraph(text)
    tokens = _COMMONMARK.parse(inert)
    normal = " ".join(text.split())
    if not normal:
        assert tokens == []
        return
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"], inert
    inline = tokens[1]
    assert {child.type for child in inline.children or ()} == {"text"}, inert
    assert _plain(inline) == normal


def test_an_export_is_cut_to_the_longest_prefix_that_fits() -> None:
    entries = [_entry(f"Paper number {n}") for n in range(20)]
    whole = fit_export(entries, bibtex, 10**6)
    assert whole.kept == whole.total == 20
    cut = fit_export(entries, bibtex, len(whole.data) // 3)
    assert 0 < cut.kept < 20 and len(cut.data) <= len(whole.data) // 3
    assert len(fit_export(entries[: cut.kept + 1], bibtex, 10**6).data) > len(whole.data) // 3
    assert fit_export(entries, bibtex, 1).kept == 0


def test_a_catalog_reading_list_links_titles_and_summarises_in_one_line() -> None:
    from bot.features.export.service import catalog_text
    from domain.paper import Links
    known = Paper("Grokking", "", ("A B",), summary_en="First sentence here. Second one.",
                  links=Links(arxiv_id="2401.01234"))
    hostile = Paper("Evil", "", (), summary_zh="中文总结。第二句。",
                    links=Links(url="javascript:alert(1)"))
    text = catalog_text([known, hostile], ExportFormat.MARKDOWN)
    assert "1. **[Grokking](https://arxiv.org/abs/2401.01234)**" in text
    assert "   First sentence here." in text and "Second one" not in text
    assert "2. **Evil**" in text and "javascript" not in text
    assert "   中文总结。" in text
    bib = catalog_text([known, hostile], ExportFormat.BIBTEX)
    assert "eprint = {2401.01234}" in bib and "archivePrefix = {arXiv}" in bib
    assert "javascript" not in bib


def _pybtex_fields(text: str) -> dict[str, tuple[str, dict[str, str], int]]:
    """Entries as strict pybtex reads them: type, fields, number of authors."""
    data = pybtex.database.parse_string(text, "bibtex")  # strict: any error raises
    return {key: (entry.type.lower(), {name.lower(): value for name, value in entry.fields.items()},
                  len(entry.persons.get("author", [])))
            for key, entry in data.entries.items()}


def _bibtexparser_fields(text: str) -> dict[str, tuple[str, dict[str, str], int]]:
    library = parse_string(text)
    assert library.failed_blocks == []
    read = {}
    for entry in library.entries:
        fields = {f.key.lower(): str(f.value) for f in entry.fields}
        authors = fields.pop("author", "")
        read[entry.key] = (entry.entry_type.lower(), fields,
                           len(split_multiple_persons_names(authors)) if authors else 0)
    return read


def assert_strict_parsers_agree(text: str) -> None:
    """Strict pybtex and bibtexparser both read `text`, to the same entries and fields."""
    assert _pybtex_fields(text) == _bibtexparser_fields(text)


HOSTILE = st.lists(st.sampled_from([*"{}\\%#$&_~^@\"',=()aZ é凯 \n", " and ", "others", "\\{",
                                     "--", "``", "LLM"]),
                   min_size=1, max_size=20).map("".join)


@settings(max_examples=200, deadline=None)
@given(note=HOSTILE, title=HOSTILE.filter(lambda t: any(c.isalnum() for c in t)),
       author=HOSTILE.filter(str.strip))
def test_whatever_anyone_types_every_export_parses_in_strict_pybtex(
        note: str, title: str, author: str) -> None:
    text = bibtex([_entry(title, (author, "Ada Lovelace"), notes=(note,))])
    assert_strict_parsers_agree(text)


def test_a_note_of_closing_braces_keeps_the_file_valid() -> None:
    text = bibtex([_entry("Grokking", notes=("}}}{{{",))])
    assert_strict_parsers_agree(text)
    (entry,) = parse_string(text).entries
    assert to_text(entry.fields_dict["note"].value) == "}}}{{{"


def _one(paper: Paper) -> dict[str, str]:
    (entry,) = parse_string(bibtex([ExportEntry(paper.id, paper)])).entries
    return {"type": entry.entry_type, "key": entry.key,
            **{f.key: str(f.value) for f in entry.fields}}


def test_the_entry_type_follows_what_is_known() -> None:
    from domain.paper import Links, Track
    arxiv = Paper("Kernel Methods", "", ("Marie Moreau",), links=Links(
        arxiv_id="2401.01234", categories=("cs.LG",), published=datetime(2024, 1, 3, tzinfo=UTC)))
    assert _one(arxiv) == {
        "type": "misc", "key": "moreau2024kernel", "title": "Kernel {Methods}",
        "author": "Marie Moreau", "year": "2024", "eprint": "2401.01234",
        "archivePrefix": "arXiv", "primaryClass": "cs.LG",
        "url": "https://arxiv.org/abs/2401.01234"}
    journal = Paper("A", "", (), journal_ref="Phys. Rev. D 12, 345 (2020)")
    assert (_one(journal)["type"], _one(journal)["journal"]) == (
        "article", "Phys. Rev. D 12, 345 (2020)")
    workshop = Paper("B", "", (), journal_ref="Proceedings of the Second Workshop on "
                     "Statistical Machine Translation", venue=Venue(
                         None, 2007, Track.WORKSHOP, "Statistical Machine Translation"))
    fields = _one(workshop)
    assert (fields["type"], fields["booktitle"]) == ("inproceedings", workshop.journal_ref)
    assert "journal" not in fields and "howpublished" not in fields
    listed = Paper("C", "", (), venue=Venue("ICML", 2026, Track.MAIN, None, ("oral",)))
    fields = _one(listed)
    assert (fields["type"], fields["booktitle"], fields["howpublished"]) == (
        "inproceedings", "ICML 2026", "ICML 2026, main track, oral")
    year_only = _one(Paper("D", "", (), venue=Venue(None, 2015)))
    assert year_only["type"] == "misc" and year_only["year"] == "2015"
    assert "howpublished" not in year_only


def test_unicode_is_written_as_utf8_everywhere_and_capitals_are_protected() -> None:
    paper = Paper("LLMs for α-ℓ𝒪 Müller Bounds in GPT-4 and ImageNet", "",
                  ("Miquel Bañón", "Ali İlhan", "Ned Ñet", "凯撒"))
    fields = _one(paper)
    assert fields["title"] == "{LLMs} for {α-ℓ𝒪} {Müller} {Bounds} in {GPT-4} and {ImageNet}"
    assert fields["author"] == "Miquel Bañón and Ali İlhan and Ned Ñet and 凯撒"
