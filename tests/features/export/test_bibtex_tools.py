"""BibTeX exports as the tools nobody here wrote read them: BibTeX itself (plain style) keeps
the capitals and the math of titles as typed and takes `Jr.` for a suffix, biber validates
every entry against biblatex's data model without a warning and parses the same names, and
citeproc-py reads every field (notes of any queue export included).

BibTeX and biber come from Debian (texlive-binaries, texlive-base, biber; `.ci/run` installs
them): without them those tests skip, saying so. biber runs in its tool mode, so no LaTeX is
needed. citeproc-py cannot read a literal brace in any spelling (its own formatter fails on
`{`), so its test's texts hold none."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.bibtex import BibTeX

from bot.features.catalog.latex_text import to_text
from bot.features.export.formats import ExportEntry, bibtex, citation_keys
from domain.paper import Links, Paper, Venue

TITLE = "An $O(n^2)$ Algorithm for Sparse Attention: BERT on ImageNet in Europe"
NOTE = "Ada: read §2 with <@1>, x^2 ~ 50% & back\\slash #3 $5 it_is"
PAPER = Paper(TITLE, "", ("Hans Müller Jr.", "Jan van der Berg", "Martin Luther King III"),
              venue=Venue(None, 2024), links=Links(arxiv_id="2401.00001"))
WHEN = datetime(2026, 3, 1, tzinfo=UTC)
BLTX = "{http://biblatex-biber.sourceforge.net/biblatexml}"


def _entries(bundled: list[Paper]) -> list[ExportEntry]:
    """The sample paper and forty of the bundled catalog, each as a queue export writes it."""
    papers = [PAPER, *bundled[:40]]
    return [ExportEntry(p.id, p, WHEN, notes=(NOTE,)) for p in papers]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian: texlive-binaries texlive-base biber)")
    return path


def _bbl_items(bbl: str) -> dict[str, list[str]]:
    """Each `\\bibitem{key}`'s blocks (authors, title, …), split at `\\newblock`."""
    items = {}
    for chunk in bbl.split("\\bibitem{")[1:]:
        key, _, body = chunk.partition("}")
        items[key] = [" ".join(block.split()) for block in body.split("\\newblock")]
    return items


def _title(block: str) -> str:
    """A title block of plain style as text (its `, year` of a @misc left off)."""
    return re.sub(r", \d{4}$", "", to_text(block).rstrip(".")).rstrip(".")


def test_bibtex_plain_keeps_capitals_and_math_and_reads_suffixes(
        tmp_path: Path, bundled_papers: list[Paper]) -> None:
    program = _tool("bibtex")
    entries = _entries(bundled_papers)
    (tmp_path / "export.bib").write_text(bibtex(entries), encoding="utf-8")
    (tmp_path / "doc.aux").write_text(
        "\\relax\n\\citation{*}\n\\bibstyle{plain}\n\\bibdata{export}\n", encoding="utf-8")
    done = subprocess.run([program, "doc"], cwd=tmp_path, capture_output=True, text=True,
                          check=False, timeout=60)
    log = (tmp_path / "doc.blg").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0 and "Warning--" not in log and "error" not in log, log
    items = _bbl_items((tmp_path / "doc.bbl").read_text(encoding="utf-8"))
    keys = citation_keys(entries)
    authors, title, *_ = items[keys[0]]
    assert _title(title) == TITLE
    assert authors.startswith("Hans Müller, Jr., Jan van~der Berg, and Martin~Luther King, III.")
    for key, entry in zip(keys[1:], entries[1:], strict=True):
        assert entry.paper is not None
        assert _title(items[key][1]) == entry.paper.title_en.rstrip(".")


def test_biber_validates_every_entry_and_parses_the_names(
        tmp_path: Path, bundled_papers: list[Paper]) -> None:
    program = _tool("biber")
    entries = _entries(bundled_papers)
    (tmp_path / "export.bib").write_text(bibtex(entries), encoding="utf-8")
    done = subprocess.run([program, "--tool", "--validate-datamodel",
                           "--output-format=biblatexml", "--output-file=out.xml", "export.bib"],
                          cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0 and "WARN" not in done.stdout and "ERROR" not in done.stdout, \
        done.stdout
    root = ET.parse(tmp_path / "out.xml").getroot()
    key = citation_keys(entries)[0]
    (sample,) = [e for e in root.iter(f"{BLTX}entry") if e.get("id") == key]
    names = [{part.get("type"): " ".join("".join(part.itertext()).split())
              for part in name.findall(f"{BLTX}namepart")}
             for name in sample.iter(f"{BLTX}name")]
    assert names == [
        {"family": "Müller", "given": "Hans", "suffix": "Jr."},
        {"family": "Berg", "given": "Jan", "prefix": "van der"},
        {"family": "King", "given": "Martin Luther", "suffix": "III"}]


def test_citeproc_reads_every_field_of_an_export(tmp_path: Path,
                                                 bundled_papers: list[Paper]) -> None:
    entries = _entries(bundled_papers)
    path = tmp_path / "export.bib"
    path.write_text(bibtex(entries), encoding="utf-8")
    source = BibTeX(str(path), encoding="utf-8")
    assert len(source) == len(entries)
    keys = citation_keys(entries)
    sample = source[keys[0].lower()]
    # citeproc-py reads `~` as LaTeX's tie (a no-break space), whatever its spelling.
    assert str(sample["note"]).replace("\N{NO-BREAK SPACE}", "~") == NOTE
    style = CitationStylesStyle("harvard1", validate=False)
    bibliography = CitationStylesBibliography(style, source, formatter.plain)
    bibliography.register(Citation([CitationItem(key) for key in keys]))
    shown = [str(item) for item in bibliography.bibliography()]
    assert len(shown) == len(entries)
    assert any("Müller" in line and "ImageNet" in line for line in shown)
