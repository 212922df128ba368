"""Text normalisation shared by indexing and querying.

Both sides must normalise identically, or a zero-width space or a full-width letter in one of
them silently breaks matching.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from operator import add

from opencc import OpenCC

# Zero-width and bidi control characters that are invisible but split or hide words.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# C0/C1 control characters except tab and newline; lone surrogates cannot be stored by SQLite.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_SPACES = re.compile(r"\s+")
_NOT_ALNUM = re.compile(r"[\W_]+")
_NOT_IDEOGRAPH = re.compile("[^\u4e00-\u9fff]+")
"""Runs between CJK unified ideographs, which NFKC leaves as they are and never composes with a
neighbour (`tests/storage/test_prepared.py` checks every one against Unicode's tables)."""
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")

# Han ideographs (with extensions and compatibility blocks), kana and hangul: scripts written
# without spaces between words, which the index splits into overlapping character bigrams.
_CJK_CLASS = (
    "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
    "\U00020000-\U0002ebef\U00030000-\U0003134f"
)
CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_CJK_CHAR = re.compile(f"[{_CJK_CLASS}]")


@cache
def _converter(config: str) -> OpenCC:
    """OpenCC's converter `config`, built on first use (`s2tw` alone takes ~0.2 s, which every
    command that never writes Traditional Chinese would pay at start)."""
    return OpenCC(config)


_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "「": "」", "『": "』", "«": "»"}
"""Opening quote -> its closing quote (straight, typographic, CJK corner brackets)."""


def unquoted(text: str) -> str:
    """`text` without one pair of quotes around the whole of it (`"24h 1h"` -> `24h 1h`, as a
    value is written in the README and in shells); otherwise as it is, stripped."""
    text = text.strip()
    if len(text) >= 2 and _QUOTES.get(text[0]) == text[-1]:
        return text[1:-1].strip()
    return text


def tidy(text: str) -> str:
    """Drop invisible and control characters and collapse whitespace; keep the characters."""
    if text.isprintable() and "  " not in text and text == text.strip():
        return text  # fast path: no control, invisible or non-space whitespace characters
    text = _INVISIBLE.sub("", text)
    text = _CONTROL.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def _nfkc_run(match: re.Match[str]) -> str:
    return unicodedata.normalize("NFKC", match.group())


def nfkc(text: str) -> str:
    """`unicodedata.normalize("NFKC", text)`, byte for byte, in a third of the time for Chinese
    text: only the runs between ideographs are normalised (the ideographs split it safely)."""
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return text
    return _NOT_IDEOGRAPH.sub(_nfkc_run, text)


def clean(text: str) -> str:
    """`tidy` after NFKC normalisation: the form compared by search (full-width ａ is a)."""
    return tidy(nfkc(text))


def has_cjk(text: str) -> bool:
    """True when the text contains at least one CJK character."""
    return _CJK_CHAR.search(text) is not None


def fold_chinese(text: str) -> str:
    """Traditional Chinese spelled in Simplified characters (OpenCC `t2s`), for the index and
    the query alike: a reader typing `嶺迴歸` finds a paper catalogued as `岭回归`."""
    return _converter("t2s").convert(text) if has_cjk(text) else text


def to_traditional(text: str) -> str:
    """Simplified Chinese as Taiwan readers write it (OpenCC `s2tw`); other text unchanged."""
    return _converter("s2tw").convert(text) if has_cjk(text) else text


def cjk_bigrams(run: str) -> list[str]:
    """Overlapping character bigrams of a CJK run; a single character stays as it is."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _spaced_bigrams(match: re.Match[str]) -> str:
    """A CJK run as its bigrams with a space either side (`cjk_bigrams`, joined)."""
    run = match.group()
    if len(run) < 2:
        return f" {run} "
    return " " + " ".join(map(add, run, run[1:])) + " "


def index_form(text: str) -> str:
    """The form stored in the full-text index: cleaned, Chinese folded to Simplified
    (`fold_chinese`), CJK runs spelled as bigrams.

    `岭回归中的Grokking` becomes `岭回 回归 归中 中的 Grokking`, so a 2-character word is a token
    and a longer word is a phrase of consecutive bigrams.
    """
    if text.isascii():  # no CJK, nothing for NFKC: a fast path for most English text
        return tidy(text)
    cleaned = fold_chinese(clean(text))
    return CJK_RUN.sub(_spaced_bigrams, cleaned).strip()


@lru_cache(maxsize=8192)
def title_key(title: str) -> str:
    """A paper's identity: its English title without case, accents, punctuation or spacing."""
    folded = unicodedata.normalize("NFKD", clean(title).casefold())
    return " ".join(_NOT_ALNUM.split(_COMBINING.sub("", folded))).strip()
