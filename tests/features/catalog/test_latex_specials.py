"""The LaTeX reader's specials lookup, indexed by first character, answers as pylatexenc's own
at every position of any text (the longest match, the first category's on a tie)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from pylatexenc.latexwalker import get_default_latex_context_db

from bot.features.catalog.latex_text import IndexedSpecials

_PLAIN = get_default_latex_context_db()
_INDEXED = IndexedSpecials(get_default_latex_context_db())
_SPECIALS = "".join({c for cat in _PLAIN.category_list for chars in _PLAIN.d[cat]["specials"]
                     for c in chars})


@given(st.text(alphabet=st.sampled_from(_SPECIALS + "ab $\\{}\n"), max_size=30))
def test_the_indexed_lookup_finds_what_pylatexenc_finds(text: str) -> None:
    for pos in range(len(text)):
        assert _INDEXED.test_for_specials(text, pos) is _PLAIN.test_for_specials(text, pos)


def test_a_category_added_later_is_found() -> None:
    context = IndexedSpecials(get_default_latex_context_db())
    assert context.test_for_specials("§x", 0) is None
    spec = type("Spec", (), {"specials_chars": "§"})()
    context.add_context_category("extra", specials=[spec])
    assert context.test_for_specials("§x", 0) is spec
    assert len(_SPECIALS) > 3  # the defaults do have specials to compare
