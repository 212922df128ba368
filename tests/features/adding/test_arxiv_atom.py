# ruff: noqa: E501  (the fixtures are arXiv's Atom as sent, long lines included)
"""Parsing arXiv's Atom: entries to Papers, totals, the Error entry, LaTeX, hostile XML."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.adding.arxiv_atom import NotAtom, parse_atom
from bot.features.papers.latex_display import latex_to_display
from domain.arxiv_ids import ArxivRef
from domain.paper import Track
from tests.realworld import ARXIV_ATOM, real

FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=all:grokking</title>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">42</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">10</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/abs/2401.01234v2</id>
    <updated>2024-02-01T10:00:00Z</updated>
    <published>2024-01-03T12:00:00Z</published>
    <title>Grokking Beyond $\\ell_2$: Sparse Circuits
  Emerge Late</title>
    <summary>  We show that with $\\alpha$-stable
noise, 50% of runs grok &amp; generalise.
</summary>
    <author><name>Ada Lindqvist</name>
      <arxiv:affiliation xmlns:arxiv="http://arxiv.org/schemas/atom">Mila</arxiv:affiliation>
    </author>
    <author><name>Tomás  Ferreira</name></author>
    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.1000/xyz</arxiv:doi>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">Accepted at ICML 2026,
  18 pages</arxiv:comment>
    <link href="http://arxiv.org/abs/2401.01234v2" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.01234v2" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="stat.ML" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>
"""

ERROR = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_2401.999</id>
    <title>Error</title>
    <summary>incorrect id format for 2401.999</summary>
  </entry>
</feed>"""


def test_entry_becomes_a_paper_with_links_and_venue() -> None:
    page = parse_atom(FEED)
    assert (page.total_results, page.start_index, page.items_per_page) == (42, 10, 1)
    entry, = page.entries
    assert entry.ref == ArxivRef("2401.01234", 2)
    assert entry.title_raw == "Grokking Beyond $\\ell_2$: Sparse Circuits\n  Emerge Late"
    assert entry.summary_raw.startswith("  We show that with $\\alpha$-stable\nnoise")
    paper = entry.to_paper()
    assert paper.title_en == "Grokking Beyond ℓ_2: Sparse Circuits Emerge Late"
    assert paper.title_zh == ""
    assert paper.summary_en == "We show that with α-stable noise, 50% of runs grok & generalise."
    assert paper.authors == ("Ada Lindqvist", "Tomás Ferreira")
    assert [a.en for a in paper.affiliations] == ["Mila"]
    assert paper.comments == "Accepted at ICML 2026, 18 pages"
    assert (paper.venue.conference, paper.venue.year, paper.venue.track) == (
        "ICML", 2026, Track.MAIN)
    links = paper.links
    assert (links.arxiv_id, links.arxiv_version, links.doi) == ("2401.01234", 2, "10.1000/xyz")
    assert links.url == "https://arxiv.org/abs/2401.01234v2"
    assert links.pdf_url == "https://arxiv.org/pdf/2401.01234v2"
    assert links.categories == ("cs.LG", "stat.ML")
    assert links.published == datetime(2024, 1, 3, 12, tzinfo=UTC)
    assert links.updated == datetime(2024, 2, 1, 10, tzinfo=UTC)


def test_error_entry_gives_the_reason_and_no_paper() -> None:
    page = parse_atom(ERROR)
    assert page.entries == ()
    assert page.error == "incorrect id format for 2401.999"


def test_no_entries_for_an_unknown_id() -> None:
    page = parse_atom(FEED.split("<entry>")[0] + "</feed>")
    assert page.entries == ()
    assert page.error == ""


@pytest.mark.parametrize("body", ["Rate exceeded.", "<html><body>503</body></html>", ""])
def test_anything_but_atom_is_refused(body: str) -> None:
    with pytest.raises(NotAtom):
        parse_atom(body)


def test_entity_expansion_is_refused() -> None:
    bomb = ('<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            '<feed xmlns="http://www.w3.org/2005/Atom"><title>&b;</title></feed>')
    with pytest.raises(NotAtom):
        parse_atom(bomb)


@pytest.mark.parametrize(("raw", "shown"), [
    ("A  title\n   wrapped", "A title wrapped"),
    ("$\\alpha$-divergence at 50% cost", "α-divergence at 50% cost"),
    ("\\emph{Grokking} in $\\mathbb{R}^d$", "Grokking in ℝ^d"),
    ("An unbalanced $x { brace", "An unbalanced $x brace"),  # a lone $ is kept (issue 21)
])
def test_latex_is_shown_as_unicode(raw: str, shown: str) -> None:
    assert latex_to_display(raw) == shown


def _recorded_answers() -> list[Path]:
    """The recorded arXiv answers nobody on this project wrote (see its SOURCES.md)."""
    return sorted(real(ARXIV_ATOM).rglob("*.xml"))


def test_every_link_of_the_recorded_answers_is_https() -> None:
    """arXiv still sends `http://arxiv.org/abs/…` and `/pdf/…` links; members get HTTPS."""
    links = []
    for answer in _recorded_answers():
        with contextlib.suppress(NotAtom):
            links += [link for entry in parse_atom(answer.read_bytes()).entries
                      for link in (entry.abs_url, entry.pdf_url) if link]
    assert len(links) > 100
    assert all(link.startswith("https://arxiv.org/") for link in links), [
        link for link in links if not link.startswith("https://arxiv.org/")][:5]
