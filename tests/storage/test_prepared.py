"""Prepared rows: the fast JSON and index text equal what the plain forms give, byte for byte
(a difference would mark every paper updated on the next reload, or change what search finds)."""

from __future__ import annotations

import hashlib
import json
import re
import sys
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from domain.paper import Paper
from domain.text import CJK_RUN, cjk_bigrams, fold_chinese, index_form, nfkc, tidy
from storage.papers.fts import index_row
from storage.papers.prepared import content_hash, json_pairs, json_strings, prepare

TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from("中文岭回歸 \"\\\n\t\u3000ａ"))


@given(st.lists(TEXT, max_size=5))
def test_json_strings_are_json_dumps(items: list[str]) -> None:
    assert json_strings(items) == json.dumps(items, ensure_ascii=False)
    assert json_strings(items, ascii_only=True) == json.dumps(items)


@given(st.lists(st.tuples(TEXT, TEXT), max_size=4))
def test_json_pairs_are_json_dumps(pairs: list[tuple[str, str]]) -> None:
    assert json_pairs(pairs) == json.dumps([list(p) for p in pairs], ensure_ascii=False)


def _plain_index_form(text: str) -> str:
    """`index_form` as first written, without its fast paths."""
    cleaned = fold_chinese(tidy(unicodedata.normalize("NFKC", text)))
    return CJK_RUN.sub(lambda m: " " + " ".join(cjk_bigrams(m.group())) + " ", cleaned).strip()


# Ideographs beside what NFKC changes or composes: combining marks, compatibility ideographs,
# full-width and half-width forms, Hangul jamo, kana voicing marks.
NORMALISABLE = st.text(st.characters(codec="utf-8") | st.sampled_from(
    "中文岭回\u4e0d\uf900\u0301\u0327\u3099\u309aかカﾊﾟ\u1100\u1161\u11a8가ａ，：（）ﬁ①\u00a0 e"))


@given(NORMALISABLE)
def test_nfkc_is_unicodedata_normalize(text: str) -> None:
    assert nfkc(text) == unicodedata.normalize("NFKC", text)


def test_nfkc_splits_only_at_ideographs_nfkc_never_changes_or_composes() -> None:
    composed: set[int] = set()  # characters a canonical decomposition of two or more combines
    for code in range(sys.maxunicode + 1):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) > 1 and not parts[0].startswith("<"):
            composed.update(int(part, 16) for part in parts)
    for code in range(0x4E00, 0xA000):
        char = chr(code)
        assert unicodedata.normalize("NFKC", char) == char
        assert unicodedata.combining(char) == 0
        assert code not in composed


@given(TEXT)
def test_index_form_is_the_plain_form(text: str) -> None:
    assert index_form(text) == _plain_index_form(text)


def test_a_prepared_paper_carries_what_the_store_writes(bundled_papers: list[Paper]) -> None:
    for line, paper in enumerate(bundled_papers, start=1):
        item = prepare(line, paper)
        assert (item.line, item.public_id, item.key) == (line, paper.id, paper.key)
        assert (item.arxiv_id, item.honours) == (paper.links.arxiv_id, paper.venue.honours)
        assert item.index_text == index_row(paper)
        assert item.digest == content_hash(item.values)
        assert item.paper() == paper
        assert re.fullmatch("[0-9a-f]{40}", item.digest)


@given(st.lists(TEXT | st.none() | st.integers(), max_size=30))
def test_content_hash_is_the_plain_formula(values: list[str | int | None]) -> None:
    joined = "\x1f".join("" if v is None else str(v) for v in values)
    assert content_hash(tuple(values)) == hashlib.sha1(
        joined.encode(), usedforsecurity=False).hexdigest()
