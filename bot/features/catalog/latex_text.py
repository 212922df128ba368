"""Text to LaTeX and back, for BibTeX fields (pylatexenc both ways).

`to_latex` escapes what LaTeX would read as markup (`& % $ # _ { } ~ ^ \\`, accented letters)
and guards ASCII ligatures (`--`, ````, `''`) so they read back as typed; `to_text` turns a
field as BibTeX tools write it (`M{\\"u}ller`, `$\\alpha$`, `{BERT}`, `\\emph{x}`) into plain
Unicode for display and search (`Müller`, `α`, `BERT`, `x`), whitespace collapsed.
"""

from __future__ import annotations

import re

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexencode import (
    RULE_CALLABLE,
    RULE_DICT,
    UnicodeToLatexConversionRule,
    UnicodeToLatexEncoder,
)

from domain.text import tidy


def _kept_as_is(text: str, pos: int) -> tuple[int, str] | None:
    """Characters written as they are (UTF-8): all but ASCII and the accented Latin letters
    whose LaTeX forms (`\\"u`) every BibTeX reads and pylatexenc reads back unchanged (its
    forms for symbols such as `·`, and for some letters such as `Ŀ`, are not)."""
    char = text[pos]
    return None if char.isascii() or char in _ENCODED_LETTERS else (1, char)


_QUOTE = {ord('"'): '{"}'}
"""A straight double quote stays one (pylatexenc's default writes `''`, read back as two)."""
_ENCODER = UnicodeToLatexEncoder(
    conversion_rules=[UnicodeToLatexConversionRule(RULE_CALLABLE, _kept_as_is),
                      UnicodeToLatexConversionRule(RULE_DICT, _QUOTE), "defaults"],
    unknown_char_policy="keep", unknown_char_warning=False)
_LETTERS = UnicodeToLatexEncoder(unknown_char_policy="keep", unknown_char_warning=False)
_CONTEXT = get_default_latex_context_db()
_CONTEXT.add_context_category("paperclub", prepend=True,
                              macros=[MacroTextSpec("textasciicircum", "^")])
_DECODER = LatexNodes2Text(latex_context=_CONTEXT, math_mode="text", strict_latex_spaces=True)
_ENCODED_LETTERS = frozenset(
    char for char in map(chr, range(0xC0, 0x250))
    if char.isalpha() and _DECODER.latex_to_text(_LETTERS.unicode_to_latex(char)) == char)
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
