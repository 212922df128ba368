"""arXiv titles and abstracts for reading: LaTeX (`$\\alpha$`, `\\emph{…}`) as Unicode, the
line wrapping collapsed. The raw text is kept by whoever parsed it; this is only a view."""

from __future__ import annotations

import re
from functools import lru_cache

from bot.features.catalog.latex_text import decoder, literal_dollars
from domain.text import tidy

_CONVERTER = decoder()
_BARE_SPECIALS = re.compile(r"(?<!\\)([%&#])")  # "50% less", "R&D": text, not LaTeX syntax
_LATEX_HINT = re.compile(r"[\\$^_{}~`']")


@lru_cache(maxsize=4096)
def latex_to_display(text: str) -> str:
    """`$\\alpha$-divergence  of\\n  $O(n^2)$` → `α-divergence of O(n^2)`; plain text as it is.
    Only the look changes: every letter, digit and symbol of the source is still there."""
    collapsed = tidy(text)
    if not _LATEX_HINT.search(collapsed):
        return collapsed
    try:
        converted = _CONVERTER.latex_to_text(
            literal_dollars(_BARE_SPECIALS.sub(r"\\\1", collapsed)))
    except Exception:  # pylatexenc is tolerant; anything it still refuses is shown as written
        return collapsed
    return tidy(converted) or collapsed
