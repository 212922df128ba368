"""What a paper's text becomes for recommendations, and the fitted vocabulary that turns any
paper into its feature row again: each block's terms and idf, with their bytes for storage.

Three blocks: English words and two-word phrases of the title and abstract; Chinese character
bigrams of the Chinese title and summary, Traditional folded to Simplified
(`domain.text.fold_chinese`, as the search index does); the authors and venue as whole tokens.
A row is each block's sublinear tf-idf, L2-normalised and weighted, stacked, then normalised.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from domain.paper import Paper
from domain.text import CJK_RUN, cjk_bigrams, clean, fold_chinese

if TYPE_CHECKING:  # scikit-learn takes seconds to import: imported where it is used
    from sklearn.feature_extraction.text import TfidfVectorizer

WORD_PATTERN = r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b"
"""arxiv-sanity-lite's token pattern: words that start with a letter."""
BLOCK_WEIGHTS = (1.0, 1.0, 0.35)
"""Relative weight of the English, Chinese and author/venue blocks."""
AUTHOR_PREFIX = "@"
VENUE_PREFIX = "#"
MAX_ROW_FEATURES = 64
"""In a catalog of `CAP_FROM` papers or more, a paper keeps its heaviest features of each block,
this many at most (the lightest say least of it): a ranking reads every row, so this bounds its
time and the memory of a paper's row. A small catalog keeps every feature (it needs them all to
find neighbours)."""
CAP_FROM = 1000
FORMAT = 1
"""The stored vocabulary's format: a vocabulary of another format is refitted, not read."""
_MAGIC = b"PCRV"
_HEADER = struct.Struct("<4sQ")
_SPACE = re.compile(r"\s+")


def english_text(paper: Paper) -> str:
    """The English title and abstract."""
    return f"{paper.title_en}. {paper.summary_en}"


def chinese_bigrams(text: str) -> list[str]:
    """Character bigrams of every Chinese run, Traditional folded to Simplified."""
    folded = fold_chinese(clean(text))
    return [gram for run in CJK_RUN.findall(folded) for gram in cjk_bigrams(run)]


def chinese_text(paper: Paper) -> str:
    """The Chinese title and summary."""
    return f"{paper.title_zh} {paper.summary_zh}"


def meta_tokens(paper: Paper) -> list[str]:
    """Each author as one token (`@ada lovelace`) and the venue (`#icml`, `#icml workshop`)."""
    tokens = [AUTHOR_PREFIX + _SPACE.sub(" ", clean(a).casefold()) for a in paper.authors if a]
    venue = paper.venue
    if venue.conference:
        tokens.append(VENUE_PREFIX + venue.conference.casefold())
    if venue.workshop:
        tokens.append(VENUE_PREFIX + venue.workshop.casefold())
    return tokens


def english_options() -> dict[str, object]:
    """The English block's tokenisation (its document-frequency cuts are the build's)."""
    return {"strip_accents": "unicode", "lowercase": True, "stop_words": "english",
            "token_pattern": WORD_PATTERN, "ngram_range": (1, 2)}


@cache
def _english_analyzer() -> Callable[[str], list[str]]:
    from sklearn.feature_extraction.text import TfidfVectorizer  # noqa: PLC0415 - slow import

    analyzer: Callable[[str], list[str]] = TfidfVectorizer(**english_options()).build_analyzer()
    return analyzer


def block_tokens(papers: Sequence[Paper]) -> tuple[list[str], list[str], list[list[str]]]:
    """Each block's input per paper: English text, Chinese text, author and venue tokens."""
    return ([english_text(p) for p in papers], [chinese_text(p) for p in papers],
            [meta_tokens(p) for p in papers])


@dataclass(frozen=True)
class Block:
    """One block's fitted terms (column order) and their idf."""

    terms: tuple[str, ...]
    idf: np.ndarray
    weight: float

    @cached_property
    def columns(self) -> dict[str, int]:
        """Each term's column."""
        return {term: i for i, term in enumerate(self.terms)}

    def rows(self, tokens: Sequence[Sequence[str]]) -> sp.csr_matrix:
        """Sublinear tf-idf rows of tokenised documents, L2-normalised, times the weight."""
        if not self.terms:  # a block the catalog had no term for (no Chinese at all)
            return sp.csr_matrix((len(tokens), 0), dtype=np.float32)
        indptr, indices, counts = [0], [], []
        for doc in tokens:
            found: dict[int, int] = {}
            for token in doc:
                column = self.columns.get(token)
                if column is not None:
                    found[column] = found.get(column, 0) + 1
            for column in sorted(found):
                indices.append(column)
                counts.append(found[column])
            indptr.append(len(indices))
        matrix = sp.csr_matrix((np.array(counts, dtype=np.float64),
                                np.array(indices, dtype=np.int32), np.array(indptr)),
                               shape=(len(tokens), len(self.terms)))
        matrix.data = (np.log(matrix.data) + 1.0) * self.idf[matrix.indices]
        from sklearn.preprocessing import normalize  # noqa: PLC0415 - slow import

        weighted: sp.csr_matrix = normalize(matrix, norm="l2", copy=False) * self.weight
        return sp.csr_matrix(weighted, dtype=np.float32)


@dataclass(frozen=True)
class Vocabulary:
    """The English, Chinese and author/venue blocks as fitted on a catalog."""

    blocks: tuple[Block, ...]
    row_cap: int | None = None
    """`MAX_ROW_FEATURES` when fitted on a catalog of `CAP_FROM` papers or more."""

    @classmethod
    def fitted(cls, vectorizers: Sequence[TfidfVectorizer | None],
               row_cap: int | None = None) -> Vocabulary:
        """The vocabulary of fitted vectorizers (None: a block with no term at all)."""
        blocks = []
        for vectorizer, weight in zip(vectorizers, BLOCK_WEIGHTS, strict=True):
            if vectorizer is None:
                blocks.append(Block((), np.zeros(0), weight))
            else:
                terms = tuple(str(t) for t in vectorizer.get_feature_names_out())
                blocks.append(Block(terms, np.asarray(vectorizer.idf_, dtype=np.float64),
                                    weight))
        return cls(tuple(blocks), row_cap)

    @cached_property
    def terms(self) -> np.ndarray:
        """Every feature column's name."""
        return np.array([t for b in self.blocks for t in b.terms], dtype=object)

    def __len__(self) -> int:
        return sum(len(b.terms) for b in self.blocks)

    def transform(self, papers: Sequence[Paper]) -> sp.csr_matrix:
        """Feature rows for papers (words not in the vocabulary are not features)."""
        if not papers:
            return sp.csr_matrix((0, len(self)), dtype=np.float32)
        english, chinese, meta = block_tokens(papers)
        analyzer = _english_analyzer()
        tokens = ([analyzer(text) for text in english],
                  [chinese_bigrams(text) for text in chinese], meta)
        return stack([b.rows(t) for b, t in zip(self.blocks, tokens, strict=True)],
                     self.row_cap)

    def encode(self) -> bytes:
        """The vocabulary as bytes: a JSON header with the terms, then each block's idf."""
        header = json.dumps({"format": FORMAT, "row_cap": self.row_cap, "blocks": [
            {"weight": b.weight, "terms": list(b.terms)} for b in self.blocks]},
            ensure_ascii=False).encode()
        idf = b"".join(np.asarray(b.idf, dtype="<f8").tobytes() for b in self.blocks)
        return _HEADER.pack(_MAGIC, len(header)) + header + idf

    @classmethod
    def decode(cls, data: bytes) -> Vocabulary:
        """`encode`'s bytes back; ValueError when they are not a vocabulary of this format."""
        if len(data) < _HEADER.size:
            raise ValueError("not a stored vocabulary")
        magic, size = _HEADER.unpack_from(data)
        if magic != _MAGIC:
            raise ValueError("not a stored vocabulary")
        header = json.loads(data[_HEADER.size:_HEADER.size + size])
        if header.get("format") != FORMAT:
            raise ValueError(f"vocabulary format {header.get('format')}, not {FORMAT}")
        at, blocks = _HEADER.size + size, []
        for block in header["blocks"]:
            count = len(block["terms"])
            idf = np.frombuffer(data, dtype="<f8", count=count, offset=at).astype(np.float64)
            at += 8 * count
            blocks.append(Block(tuple(block["terms"]), idf, float(block["weight"])))
        if at != len(data):
            raise ValueError("a stored vocabulary of the wrong length")
        return cls(tuple(blocks), header.get("row_cap"))


def stack(blocks: Sequence[sp.csr_matrix], row_cap: int | None) -> sp.csr_matrix:
    """Blocks side by side (each row's heaviest `row_cap` of each), L2-normalised, in float32,
    its columns in order."""
    capped = [_heaviest(sp.csr_matrix(b, dtype=np.float32), row_cap) for b in blocks]
    stacked = sp.csr_matrix(sp.hstack(capped, format="csr", dtype=np.float32))
    if stacked.shape[0] == 0:
        return stacked
    from sklearn.preprocessing import normalize  # noqa: PLC0415 - slow import

    rows = sp.csr_matrix(normalize(stacked, norm="l2", copy=False), dtype=np.float32)
    rows.sort_indices()
    return rows


def _heaviest(matrix: sp.csr_matrix, cap: int | None) -> sp.csr_matrix:
    """Each row's `cap` largest entries (ties: the lower column); all of them without a cap."""
    matrix.sort_indices()
    counts = np.diff(matrix.indptr)
    if cap is None or not len(counts) or counts.max() <= cap:
        return matrix
    keep = np.ones(matrix.nnz, dtype=bool)
    for row in np.flatnonzero(counts > cap):
        start, end = matrix.indptr[row], matrix.indptr[row + 1]
        order = np.lexsort((matrix.indices[start:end], -matrix.data[start:end]))
        keep[start + order[cap:]] = False
    rows = np.repeat(np.arange(matrix.shape[0]), counts)[keep]
    return sp.csr_matrix((matrix.data[keep], (rows, matrix.indices[keep])), shape=matrix.shape,
                         dtype=np.float32)
