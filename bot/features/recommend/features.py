"""Bilingual tf-idf features of the catalog, built once per catalog and extended on adds.

Three blocks, each tf-idf weighted then stacked and L2-normalised per paper: English words and
two-word phrases of the title and abstract; Chinese character bigrams of the Chinese title and
summary, Traditional folded to Simplified (`domain.text.fold_chinese`, as the search index
does); and the authors and venue as whole tokens.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize

from domain.paper import Paper
from domain.text import CJK_RUN, cjk_bigrams, clean, fold_chinese

WORD_PATTERN = r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b"
"""arxiv-sanity-lite's token pattern: words that start with a letter."""
BLOCK_WEIGHTS = (1.0, 1.0, 0.35)
"""Relative weight of the English, Chinese and author/venue blocks."""
MAX_DF = 0.1
"""From `MIN_DF_FROM` papers on, an English term in more than this share of them is not a
feature (arxiv-sanity-lite's cut: words every paper uses say nothing of its topic)."""
MIN_DF_FROM = 1000
"""From this many papers on, a term must occur in `MIN_DF` papers to be a feature."""
MIN_DF = 5
MAX_FEATURES: int | None = None
AUTHOR_PREFIX = "@"
VENUE_PREFIX = "#"
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


def _identity(tokens: list[str]) -> list[str]:
    return tokens


def _vectorizers(size: int) -> tuple[TfidfVectorizer, TfidfVectorizer, TfidfVectorizer]:
    min_df = MIN_DF if size >= MIN_DF_FROM else 1
    english = TfidfVectorizer(strip_accents="unicode", lowercase=True, stop_words="english",
                              token_pattern=WORD_PATTERN, ngram_range=(1, 2), min_df=min_df,
                              max_features=MAX_FEATURES,
                              max_df=MAX_DF if size >= MIN_DF_FROM else 1.0, sublinear_tf=True,
                              dtype=np.float32)
    chinese = TfidfVectorizer(analyzer=chinese_bigrams, min_df=min_df, sublinear_tf=True,
                              dtype=np.float32)
    meta = TfidfVectorizer(analyzer=_identity, sublinear_tf=True, dtype=np.float32)
    return english, chinese, meta


def _fit_block(vectorizer: TfidfVectorizer, docs: Sequence[object]) -> sp.csr_matrix:
    """Fit one block; a block with no term at all (no Chinese in the catalog) is empty."""
    try:
        return sp.csr_matrix(vectorizer.fit_transform(docs))
    except ValueError:  # empty vocabulary
        return sp.csr_matrix((len(docs), 0), dtype=np.float32)


def _block_inputs(papers: Sequence[Paper]) -> tuple[Sequence[object], ...]:
    return ([english_text(p) for p in papers], [chinese_text(p) for p in papers],
            [meta_tokens(p) for p in papers])


def _timestamp(paper: Paper) -> float:
    when = paper.links.published or paper.links.updated
    return when.timestamp() if when else 0.0


@dataclass(frozen=True)
class FeatureIndex:
    """Every catalog paper's feature row, in paper-id order (so both backends agree)."""

    ids: tuple[str, ...]
    titles: tuple[str, ...]
    titles_zh: tuple[str, ...]
    published: np.ndarray
    """Seconds since the epoch (0 when unknown), for freshness."""
    matrix: sp.csr_matrix
    vectorizers: tuple[TfidfVectorizer | None, ...]
    terms: np.ndarray
    """The name of each feature column."""
    position: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.position.update({pid: i for i, pid in enumerate(self.ids)})

    @cached_property
    def sample_order(self) -> np.ndarray:
        """Rows in the order of a hash of their paper id: the linear model's background
        sample is a prefix of it (fixed for a catalog, whatever order its papers came in)."""
        keys = [hashlib.blake2b(pid.encode(), digest_size=8).digest() for pid in self.ids]
        return np.array(sorted(range(len(keys)), key=keys.__getitem__), dtype=np.int64)

    def __len__(self) -> int:
        return len(self.ids)

    def row(self, paper_id: str) -> int | None:
        """The paper's row, or None when it is not in the catalog."""
        return self.position.get(paper_id)

    def transform(self, papers: Sequence[Paper]) -> sp.csr_matrix:
        """Feature rows for papers with the fitted vocabulary (new words are not features)."""
        blocks = []
        for vectorizer, docs, weight in zip(self.vectorizers, _block_inputs(papers),
                                            BLOCK_WEIGHTS, strict=True):
            if vectorizer is None:
                blocks.append(sp.csr_matrix((len(papers), 0), dtype=np.float32))
            else:
                blocks.append(sp.csr_matrix(vectorizer.transform(docs)) * weight)
        return _stack(blocks)

    def with_papers(self, papers: Iterable[Paper]) -> FeatureIndex:
        """This index with papers added or replaced, transformed with the fitted vocabulary:
        an add costs its own papers, not a rebuild (`build` again to learn new words)."""
        fresh = {p.id: p for p in papers}
        if not fresh:
            return self
        ordered = sorted(fresh.values(), key=lambda p: p.id)
        rows = self.transform(ordered)
        keep = [i for i, pid in enumerate(self.ids) if pid not in fresh]
        kept = self.matrix[keep]
        ids = tuple(self.ids[i] for i in keep) + tuple(p.id for p in ordered)
        return FeatureIndex(
            ids=ids,
            titles=tuple(self.titles[i] for i in keep) + tuple(p.title_en for p in ordered),
            titles_zh=tuple(self.titles_zh[i] for i in keep) + tuple(p.title_zh for p in ordered),
            published=np.concatenate([self.published[keep],
                                      np.array([_timestamp(p) for p in ordered])]),
            matrix=sp.csr_matrix(sp.vstack([kept, rows])), vectorizers=self.vectorizers,
            terms=self.terms)


def _stack(blocks: list[sp.csr_matrix]) -> sp.csr_matrix:
    stacked = sp.csr_matrix(sp.hstack(blocks, format="csr", dtype=np.float32))
    return sp.csr_matrix(normalize(stacked, norm="l2", copy=False))


def build(papers: Iterable[Paper]) -> FeatureIndex:
    """Fit the three blocks on the catalog and keep every paper's row."""
    ordered = sorted({p.id: p for p in papers}.values(), key=lambda p: p.id)
    if not ordered:
        return FeatureIndex(ids=(), titles=(), titles_zh=(), published=np.zeros(0),
                            matrix=sp.csr_matrix((0, 0), dtype=np.float32),
                            vectorizers=(None, None, None), terms=np.array([], dtype=object))
    english, chinese, meta = _vectorizers(len(ordered))
    inputs = _block_inputs(ordered)
    fitted: list[TfidfVectorizer | None] = []
    blocks, names = [], []
    for vectorizer, docs, weight in zip((english, chinese, meta), inputs, BLOCK_WEIGHTS,
                                        strict=True):
        block = _fit_block(vectorizer, docs)
        empty = block.shape[1] == 0
        fitted.append(None if empty else vectorizer)
        blocks.append(block * weight)
        names.append(np.array([], dtype=object) if empty
                     else vectorizer.get_feature_names_out().astype(object))
    return FeatureIndex(
        ids=tuple(p.id for p in ordered), titles=tuple(p.title_en for p in ordered),
        titles_zh=tuple(p.title_zh for p in ordered),
        published=np.array([_timestamp(p) for p in ordered], dtype=np.float64),
        matrix=_stack(blocks), vectorizers=tuple(fitted),
        terms=np.concatenate(names))
