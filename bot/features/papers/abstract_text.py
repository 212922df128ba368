"""Abstracts as arXiv writes them (LaTeX, hard-wrapped lines) made readable in a chat.

Only for display: the stored text stays as it came, so the index and exports see the original.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text

from bot.features.catalog.latex_text import decoder, literal_dollars
from domain.text import tidy

_BARE_PERCENT = re.compile(r"(?<!\\)%")
"""A `%` that is not `\\%`: in LaTeX a comment to the end of the line, in abstracts `50%`."""


@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    return decoder()


@lru_cache(maxsize=256)
def display_text(raw: str) -> str:
    """`We study $\\alpha$-grokking\\n  at 50%` → `We study α-grokking at 50%`: LaTeX macros and
    math turned into Unicode, line wrapping and runs of spaces collapsed (no letter, digit or
    symbol lost). Text the LaTeX reader cannot take is shown with its whitespace tidied only."""
    if "\\" not in raw and "$" not in raw and "{" not in raw and "~" not in raw:
        return tidy(raw)
    try:
        text = _converter().latex_to_text(literal_dollars(_BARE_PERCENT.sub(r"\\%", raw)))
    except Exception:  # a reader bug must not take a card down: show the raw text instead
        return tidy(raw)
    return tidy(text.replace("\xa0", " "))
