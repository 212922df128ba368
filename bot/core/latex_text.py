"""Text to LaTeX and back, for BibTeX fields (pylatexenc both ways).

`to_latex` escapes what LaTeX would read as markup (`& % $ # _ { } ~ ^ \\`, accented letters)
and guards ASCII ligatures (`--`, ````, `''`) so they read back as typed; `to_text` turns a
field as BibTeX tools write it (`M{\\"u}ller`, `$\\alpha$`, `{BERT}`, `\\emph{x}`) into plain
Unicode for display and search (`Müller`, `α`, `BERT`, `x`), whitespace collapsed.
"""

from __future__ import annotations

import re

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexencode import UnicodeToLatexEncoder

from bot.core.text import tidy

_ENCODER = UnicodeToLatexEncoder(unknown_char_policy="keep", unknown_char_warning=False)
_DECODER = LatexNodes2Text(math_mode="text", strict_latex_spaces=True)
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=[?!])(?=`)")
"""Between two characters LaTeX would merge (`--` into a dash, ```` into a quote)."""
_NEEDS_DECODING = re.compile(r"[\\{}$~`'-]")


def to_latex(text: str) -> str:
    """`text` as a BibTeX field value that LaTeX (and `to_text`) reads back unchanged."""
    return _LIGATURE.sub("{}", _ENCODER.unicode_to_latex(text))


def to_text(latex: str) -> str:
    """A BibTeX field value as readable Unicode (`{\\"u}` -> `ü`, `$\\alpha$` -> `α`), tidied.

    Markup pylatexenc does not know keeps its argument (`\\unknown{x}` -> `x`).
    """
    if not _NEEDS_DECODING.search(latex):
        return tidy(latex)
    return tidy(_DECODER.latex_to_text(latex))
