"""Cross-language search: a query's glossary terms in the other language.

The glossary (`domain/data/glossary_zh_en.tsv`, written for paperclub, MIT) lists several
hundred machine-learning terms as Simplified Chinese and English forms. A query's words, in the
order typed, are cut into glossary terms, longest first (`扩散模型` is one term, not `扩散` then
`模型`; `knowledge distillation` one term of two words) and the words no term covers. Each
`CrossQuery` spells the query in one language: every term written in the other language
replaced by one of its forms in this one, every other word kept as typed. English comes first,
then Chinese; within one, the usual forms first.

Expansion happens at query time only: the index is unchanged (so loads run as fast as before,
and both backends index exactly what they did), and a `CrossQuery` is an ordinary
`SearchQuery` that each backend already answers identically. Forms that another form already
finds are dropped: every Latin word of 3+ letters is searched as a prefix, so `diffusion model`
also finds `diffusion models`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from itertools import islice, product

from domain.query import MAX_WORDS, MIN_PREFIX_CHARS, SearchQuery, split_words
from domain.text import has_cjk

GLOSSARY = "glossary_zh_en.tsv"
MAX_FORMS = 3
"""Forms of one term tried in one language (the usual ones come first in the glossary)."""
MAX_CROSS_QUERIES = 6
"""Spellings tried per language: a query of several terms would otherwise multiply them."""
EN, ZH = "en", "zh"
FUNCTION_WORDS = {
    ZH: frozenset({"的", "基于", "中", "中的", "和", "与", "及", "以及", "在", "用于", "通过",
                   "面向", "对", "对于", "之", "于", "一种", "方法", "研究", "及其", "下", "上"}),
    EN: frozenset({"a", "an", "the", "of", "for", "in", "on", "with", "and", "or", "to", "via",
                   "by", "from", "using", "based", "towards", "toward"}),
}
"""Words no term covers that a spelling in the other language leaves out (`基于扩散模型的图像生成`
is `diffusion model image generation`); any other such word is kept, so it must match too."""


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary concept: its forms in each language, as index words."""

    zh: tuple[tuple[str, ...], ...]
    en: tuple[tuple[str, ...], ...]
    en_text: tuple[str, ...]
    """The English forms as written (`vision-language model`), for the reader."""

    def forms(self, language: str) -> tuple[tuple[str, ...], ...]:
        """The forms in `language`, as index words."""
        return self.en if language == EN else self.zh

    def shown(self, language: str, words: tuple[str, ...]) -> str:
        """A form as a reader sees it: English as the glossary writes it."""
        if language == EN:
            return self.en_text[self.en.index(words)]
        return "".join(words)


@dataclass(frozen=True, slots=True)
class Translation:
    """One term of the query read in the other language: `扩散模型 → diffusion model`."""

    source: str
    target: str

    def __str__(self) -> str:
        return f"{self.source} → {self.target}"


@dataclass(frozen=True, slots=True)
class CrossQuery:
    """The query spelled in one language, and the terms translated to spell it."""

    query: SearchQuery
    translations: tuple[Translation, ...]


@dataclass(frozen=True, slots=True)
class _Piece:
    """A run of the query's words: one glossary term (`terms` not empty) or words no term
    covers."""

    words: tuple[str, ...]
    language: str
    terms: tuple[Term, ...] = ()


class Glossary:
    """The terms, keyed by their Chinese forms and by their English word sequences."""

    def __init__(self, lines: list[str]) -> None:
        self._zh: dict[str, list[Term]] = {}
        self._en: dict[tuple[str, ...], list[Term]] = {}
        for line in lines:
            if not line.strip() or line.startswith("#"):
                continue
            zh_text, en_text = line.rstrip("\n").split("\t")
            en_forms = [f.strip() for f in en_text.split("|") if f.strip()]
            term = Term(zh=tuple(dict.fromkeys(w for f in zh_text.split("|")
                                               if (w := tuple(split_words(f))))),
                        en=tuple(tuple(split_words(f)) for f in en_forms),
                        en_text=tuple(en_forms))
            for words in term.zh:
                self._zh.setdefault("".join(words), []).append(term)
            for words in term.en:
                self._en.setdefault(words, []).append(term)
        self._longest_zh = max(map(len, self._zh), default=0)
        self._longest_en = max(map(len, self._en), default=0)

    def terms(self) -> list[Term]:
        """Every term once, in the glossary's order."""
        return list({id(t): t for terms in self._en.values() for t in terms}.values())

    def __len__(self) -> int:
        return len(self.terms())

    def pieces(self, words: tuple[str, ...]) -> list[_Piece]:
        """The words cut into glossary terms, longest first, and the words between them."""
        pieces: list[_Piece] = []
        i = 0
        while i < len(words):
            if has_cjk(words[i]):
                pieces += self._chinese(words[i])
                i += 1
                continue
            for size in range(min(self._longest_en, len(words) - i), 0, -1):
                span = words[i : i + size]
                if (found := self._en.get(span)) and not any(map(has_cjk, span)):
                    pieces.append(_Piece(span, EN, tuple(found)))
                    i += size
                    break
            else:
                pieces.append(_Piece((words[i],), EN))
                i += 1
        return pieces

    def _chinese(self, run: str) -> Iterator[_Piece]:
        """A run of Chinese cut into terms (longest match first) and the characters between."""
        start = i = 0
        while i < len(run):
            for size in range(min(self._longest_zh, len(run) - i), 1, -1):
                if found := self._zh.get(run[i : i + size]):
                    if start < i:
                        yield _Piece((run[start:i],), ZH)
                    yield _Piece((run[i : i + size],), ZH, tuple(found))
                    i = start = i + size
                    break
            else:
                i += 1
        if start < len(run):
            yield _Piece((run[start:],), ZH)


def _finds(shorter: tuple[str, ...], longer: tuple[str, ...]) -> bool:
    """True when searching `shorter` finds whatever `longer` does (each word a prefix term
    that starts the other's word, or the same word)."""
    return len(shorter) == len(longer) and all(
        a == b or (len(a) >= MIN_PREFIX_CHARS and not has_cjk(a) and b.startswith(a))
        for a, b in zip(shorter, longer, strict=True))


def _choices(piece: _Piece, language: str) -> list[tuple[tuple[str, ...], Translation | None]]:
    """The ways to write a piece in `language`: itself, or its terms' forms there (a function
    word of the other language no term covers: nothing)."""
    if not piece.terms:
        dropped = piece.language != language and piece.words[0] in FUNCTION_WORDS[piece.language]
        return [((), None) if dropped else (piece.words, None)]
    if piece.language == language:
        return [(piece.words, None)]
    source = piece.terms[0].shown(piece.language, piece.words)
    forms: list[tuple[tuple[str, ...], Translation]] = []
    for term in piece.terms:
        for words in term.forms(language):
            if any(_finds(kept, words) for kept, _ in forms):
                continue
            forms = [(k, t) for k, t in forms if not _finds(words, k)]
            forms.append((words, Translation(source, term.shown(language, words))))
    return list(islice(forms, MAX_FORMS))


def _spelled(query: SearchQuery, pieces: list[_Piece], language: str) -> Iterator[CrossQuery]:
    original = tuple(query.phrase or query.words)
    choices = [_choices(piece, language) for piece in pieces]
    for combination in islice(product(*choices), MAX_CROSS_QUERIES + 1):
        phrase = tuple(word for words, _ in combination for word in words)
        if phrase == original:
            continue
        translations = tuple(t for _, t in combination if t is not None)
        if not translations or not phrase:
            continue
        yield CrossQuery(replace(query, words=tuple(dict.fromkeys(phrase))[:MAX_WORDS],
                                 phrase=phrase), translations)


def cross_queries(query: SearchQuery, glossary: Glossary | None = None) -> list[CrossQuery]:
    """The query spelled in English, then in Chinese, where the glossary knows its terms; none
    when it knows none. Filters are kept as they are."""
    glossary = glossary or default_glossary()
    words = tuple(query.phrase or query.words)
    if not words:
        return []
    pieces = glossary.pieces(words)
    if not any(piece.terms for piece in pieces):
        return []
    seen: set[tuple[str, ...]] = {query.words}
    result: list[CrossQuery] = []
    for language in (EN, ZH):
        for cross in _spelled(query, pieces, language):
            if cross.query.words not in seen:
                seen.add(cross.query.words)
                result.append(cross)
    return result


@lru_cache(maxsize=1)
def default_glossary() -> Glossary:
    """The glossary shipped with paperclub (read once)."""
    text = resources.files("domain").joinpath("data", GLOSSARY).read_text(encoding="utf-8")
    return Glossary(text.splitlines())
