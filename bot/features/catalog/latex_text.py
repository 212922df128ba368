"""Text to LaTeX and back, for BibTeX fields (pylatexenc both ways).

`to_latex` escapes what LaTeX would read as markup (`& % $ # _ { } ~ ^ \\`, accented letters)
and guards ASCII ligatures (`--`, ````, `''`) so they read back as typed; `to_text` turns a
field as BibTeX tools write it (`M{\\"u}ller`, `$\\alpha$`, `{BERT}`, `\\emph{x}`) into plain
Unicode for display and search (`Müller`, `α`, `BERT`, `x`), whitespace collapsed.

Reading never deletes text (`decoder`, shared with the display of arXiv titles and
abstracts): TeX logos read as their words (`{\\TeX}book` -> `TeXbook`), a macro pylatexenc
does not know as its name (`\\VAX` -> `VAX`) or its braced argument (`\\acro{TUG}` -> `TUG`),
a control symbol as its symbol (`\\|` -> `|`), and a space in an equation stays a space.
"""

from __future__ import annotations

import re
from typing import Any

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexencode import (
    RULE_CALLABLE,
    RULE_DICT,
    UnicodeToLatexConversionRule,
    UnicodeToLatexEncoder,
)
from pylatexenc.latexwalker import LatexMacroNode
from pylatexenc.latexwalker import get_default_latex_context_db as get_default_walker_context_db
from pylatexenc.macrospec import LatexContextDb, MacroSpec

from domain.text import tidy


def _kept_as_is(text: str, pos: int) -> tuple[int, str] | None:
    """Characters beyond ASCII are written as they are: exports are biblatex-safe UTF-8
    (biber, Zotero, pybtex and bibtexparser read it; CJK has no LaTeX form at all)."""
    char = text[pos]
    return None if char.isascii() else (1, char)


_SYMBOLS = {"~": "textasciitilde", "^": "textasciicircum", "\\": "textbackslash"}
"""ASCII symbols LaTeX reads as markup, written as their text macros."""


def _symbol(text: str, pos: int) -> tuple[int, str] | None:
    """`~` as `\\textasciitilde` and so on, ended by a space (that LaTeX, BibTeX and every
    reader drop), or by a control space standing for the space that follows it, not in a brace
    group (`{\\textasciitilde}`), which citeproc-py cannot read; `{}` ends one at the end."""
    name = _SYMBOLS.get(text[pos])
    if name is None:
        return None
    following = text[pos + 1:pos + 2]
    if not following:
        return 1, f"\\{name}{{}}"
    if following == " ":
        return 2, f"\\{name}\\ "
    return 1, f"\\{name} "


_QUOTE = {ord('"'): '{"}', ord("<"): "<", ord(">"): ">"}
"""A straight double quote stays one (pylatexenc's default writes `''`, read back as two);
angle brackets stay as typed (pylatexenc's `\\ensuremath{<}` is unknown to citeproc-py, and
`\\textless` to bibtexparser's decoder)."""
_ENCODER = UnicodeToLatexEncoder(
    conversion_rules=[UnicodeToLatexConversionRule(RULE_CALLABLE, _kept_as_is),
                      UnicodeToLatexConversionRule(RULE_CALLABLE, _symbol),
                      UnicodeToLatexConversionRule(RULE_DICT, _QUOTE), "defaults"],
    unknown_char_policy="keep", unknown_char_warning=False)
_LOGOS = {
    "TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2ε", "BibTeX": "BibTeX",
    "slBibTeX": "BibTeX", "AmSTeX": "AmSTeX", "AmSLaTeX": "AmSLaTeX", "AllTeX": "(La)TeX",
    "MF": "METAFONT", "slMF": "METAFONT", "MP": "METAPOST", "TUB": "TUGboat",
    "PS": "PostScript", "eTeX": "ε-TeX", "Dash": "—", "dash": "–", "slash": "/",
    "bs": "\\", "thinspace": " ", "textasciicircum": "^", "|": "‖",
    "textbraceleft": "{", "textbraceright": "}", "textless": "<", "textgreater": ">",
    "textasciitilde": "~", "textbackslash": "\\",
}
"""Macros whose words are not their names (`\\MF` is METAFONT), or that name a symbol."""
_DECLARATIONS = ("tt", "it", "sl", "sf", "bf", "rm", "sc", "md", "up", "ssf", "smc", "SMC",
                 "relax", "protect", "normalfont", "tiny", "scriptsize", "footnotesize",
                 "small", "normalsize", "large", "Large", "LARGE", "huge", "Huge")
"""Font switches that change how the text after them looks, and say nothing themselves."""
_CITES = ("cite", "citet", "citep", "citealt", "citealp", "citeauthor")
"""Citations show their keys (`[vaswani2017]`), not pylatexenc's `<cit.>`."""
_REFS = ("ref", "autoref", "cref")
_CONTEXT = get_default_latex_context_db()
_CONTEXT.add_context_category(
    "paperclub", prepend=True,
    macros=[*(MacroTextSpec(name, text) for name, text in _LOGOS.items()),
            *(MacroTextSpec(name, discard=True) for name in _DECLARATIONS),
            *(MacroTextSpec(name, "[%(4)s]") for name in _CITES),
            *(MacroTextSpec(name, "%(1)s") for name in _REFS),
            MacroTextSpec("eqref", "(%(1)s)"), MacroTextSpec("href", "%(2)s <%(1)s>")])


class IndexedSpecials(LatexContextDb):  # type: ignore[misc]  # pylatexenc has no types
    """A copy of a pylatexenc context database whose `test_for_specials` looks only at the
    specials that start with the character at hand (the same answer: the longest match, the
    first category's on a tie). The walker asks at every character of the text, and comparing
    each position with every specials string was half of a long abstract's decoding time."""

    def __init__(self, base: LatexContextDb) -> None:
        super().__init__()
        self.category_list = list(base.category_list)
        self.d = dict(base.d)
        self.unknown_macro_spec = base.unknown_macro_spec
        self.unknown_environment_spec = base.unknown_environment_spec
        self.unknown_specials_spec = base.unknown_specials_spec
        self._by_first: dict[str, list[tuple[str, Any]]] | None = None

    def add_context_category(self, *args: Any, **kwargs: Any) -> None:
        """pylatexenc's, and the index is built again on the next lookup."""
        super().add_context_category(*args, **kwargs)
        self._by_first = None

    def test_for_specials(self, s: str, pos: int, parsing_state: Any = None) -> Any:
        """The specials spec matching `s` at `pos` (None when none does)."""
        if self._by_first is None:
            self._by_first = {}
            for category in self.category_list:
                for chars, spec in self.d[category]["specials"].items():
                    if chars:
                        self._by_first.setdefault(chars[0], []).append((chars, spec))
        candidates = self._by_first.get(s[pos]) if pos < len(s) else None
        best, best_len = None, 0
        for chars, spec in candidates or ():
            if len(chars) > best_len and s.startswith(chars, pos):
                best, best_len = spec, len(chars)
        return best


_WALKER_CONTEXT = IndexedSpecials(get_default_walker_context_db())
_WALKER_CONTEXT.add_context_category("paperclub", prepend=True,
                                     macros=[MacroSpec("href", "{{")])
_ASCII_NAME = re.compile(r"[A-Za-z]*")


class _KeepingDecoder(LatexNodes2Text):  # type: ignore[misc]  # pylatexenc has no types
    """pylatexenc's reader, but a macro it does not know keeps its text instead of vanishing."""

    def latex_to_text(self, latex: str, **parse_flags: object) -> str:
        """`latex` as text, parsed with the macros' arguments paperclub knows (`\\href`)."""
        return str(super().latex_to_text(latex, latex_context=_WALKER_CONTEXT, **parse_flags))

    def macro_node_to_text(self, node: LatexMacroNode) -> str:
        name: str = node.macroname
        if self.latex_context.get_macro_spec(name) is not None:
            return str(super().macro_node_to_text(node))
        known = _ASCII_NAME.match(name)
        if known and known.end() < len(name) and known.group():  # `\\mathbfθ`: `\\mathbf` θ
            head = self.latex_context.get_macro_spec(known.group())
            return (known.group() if head is None else "") + name[known.end():]
        args = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else []
        if any(arg is not None for arg in args):
            return "".join(self._groupnodecontents_to_text(arg) for arg in args if arg)
        source: str = node.parsing_state.s
        end = node.pos + node.len
        if source.startswith("{", end) and not source.startswith("{}", end):
            return ""  # a style applied to the braced text that follows: `\\texttt{x}`
        return name


def decoder() -> LatexNodes2Text:
    """A LaTeX-to-Unicode reader that drops no text (math as text, LaTeX's spacing outside
    equations, the source's inside them: `\\log n` keeps its space)."""
    return _KeepingDecoder(latex_context=_CONTEXT, math_mode="text",
                           strict_latex_spaces="except-in-equations")


_DECODER = decoder()
_DOLLAR = re.compile(r"(?<!\\)\$")
_PRICE = re.compile(r"(?<!\\)\$(?=\d)")


def literal_dollars(text: str) -> str:
    """`text` with a `$` that opens no equation escaped: with an odd count, prices (`$35,000`)
    first, else the last one (`an unbalanced $x`), so that no equation swallows the rest."""
    if len(_DOLLAR.findall(text)) % 2 == 0:
        return text
    priced = _PRICE.sub(r"\\$", text)
    if len(_DOLLAR.findall(priced)) % 2 == 0:
        return priced
    last = list(_DOLLAR.finditer(text))[-1].start()
    return f"{text[:last]}\\{text[last:]}"
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=[?!])(?=`)|(?<=<)(?=<)"
                       r"|(?<=>)(?=>)")
"""Between two characters LaTeX would merge (`--` into a dash, ```` into a quote, `<<` into
a guillemet)."""
_NEEDS_DECODING = re.compile(r"[\\{}$~`'-]")


_ESCAPED_BRACE = re.compile(r"\\([{}])")
_BRACE_WORDS = {"{": "\\textbraceleft{}", "}": "\\textbraceright{}"}


def balanced(latex: str) -> bool:
    """True when BibTeX, which counts every brace (`\\{` too), sees the value closed."""
    depth = 0
    for char in latex:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def to_latex(text: str) -> str:
    """`text` as a BibTeX field value that LaTeX (and `to_text`) reads back unchanged.

    Literal braces are `\\{`, `\\}` when they pair up, else `\\textbraceleft{}`,
    `\\textbraceright{}`: a value never closes early or stays open, whatever was typed."""
    latex = _LIGATURE.sub("{}", _ENCODER.unicode_to_latex(text))
    if balanced(latex):
        return latex
    return _ESCAPED_BRACE.sub(lambda m: _BRACE_WORDS[m.group(1)], latex)


def to_text(latex: str) -> str:
    """A BibTeX field value as readable Unicode (`{\\"u}` -> `ü`, `$\\alpha$` -> `α`), tidied.

    Markup pylatexenc does not know keeps its argument (`\\unknown{x}` -> `x`).
    """
    if not _NEEDS_DECODING.search(latex):
        return tidy(latex)
    return tidy(_DECODER.latex_to_text(literal_dollars(latex)))
