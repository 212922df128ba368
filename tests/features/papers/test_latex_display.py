"""LaTeX shown as text (issue 21, item 7): the conversion may change how text looks, never
drop a symbol, a letter or a space between words; checked on the real corpus' titles and
abstracts."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from defusedxml import ElementTree

from bot.features.catalog.latex_text import to_text
from bot.features.papers.abstract_text import display_text
from bot.features.papers.latex_display import latex_to_display
from tests.realworld import ARXIV_ATOM, ARXIV_METADATA, real

ATOM = "{http://www.w3.org/2005/Atom}"
SHOWN: list[Callable[[str], str]] = [latex_to_display, display_text, to_text]


@pytest.mark.parametrize("show", SHOWN)
@pytest.mark.parametrize(("raw", "shown"), [
    ("$X \\sim N(\\mathbfθ, I_\\infty)$", "X ∼ N(θ, I_∞)"),
    ("$\\|\\nabla f\\|$ is small", "‖∇ f‖ is small"),
    ("awarded $35,000 in total", "awarded $35,000 in total"),
    ("$\\mathcal{O}(n \\log n)$ time", "𝒪(n log n) time"),
    ("costs $5 for $x^2$", "costs $5 for x^2"),
    ("see \\citep{vaswani2017} and \\href{https://a.example}{code}",
     "see [vaswani2017] and code <https://a.example>"),
    ("The {\\TeX}book and \\VAX", "The TeXbook and VAX"),
])
def test_nothing_is_dropped(show: Callable[[str], str], raw: str, shown: str) -> None:
    assert show(raw) == shown


_INVISIBLE = re.compile(r"\\(?:begin|end)\{[a-z*]+\}|\\(?:textcolor|color)\{[a-z]+\}"
                        r"|\\[A-Za-z]+")
"""What LaTeX itself never prints: macro and environment names, a colour's name."""


def _letters(text: str) -> Counter[str]:
    """Letters and digits, accents and styles apart (`é` counts as `e`, `𝒪` as `O`)."""
    return Counter(c for c in unicodedata.normalize("NFKD", text) if c.isalnum())


def _atom_texts(path: Path) -> list[str]:
    root = ElementTree.parse(path).getroot()
    assert root is not None
    return [element.text for entry in root.iter(f"{ATOM}entry")
            for element in (entry.find(f"{ATOM}title"), entry.find(f"{ATOM}summary"))
            if element is not None and element.text]


def _corpus() -> list[str]:
    atoms = [p for p in sorted(real(ARXIV_ATOM).rglob("*.xml"))
             if "json" not in p.parts or p.name.endswith(".utf8fixed.xml")]
    texts = [text for path in atoms for text in _atom_texts(path)]
    with real(ARXIV_METADATA).open(encoding="utf-8") as lines:
        for line in lines:
            paper = json.loads(line)
            texts += [t for t in (paper["title"], paper["abstract"]) if re.search(r"[\\$]", t)]
    return texts


@pytest.mark.slow
def test_every_letter_and_digit_of_the_real_corpus_survives() -> None:
    """All 118 recorded arXiv entries, and every title and abstract with LaTeX in the
    11,648-paper arXiv sample."""
    texts = _corpus()
    assert len(texts) > 1500
    lost = []
    for text in texts:
        source = _letters(_INVISIBLE.sub(" ", text))
        for show in (latex_to_display, display_text):
            missing = source - _letters(show(text))
            if missing:
                lost.append((show.__name__, "".join(missing.elements()), text[:120]))
    assert lost == []
