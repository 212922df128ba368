"""The catalog's feature rows for recommendations: fitted once on a whole catalog (`build`), kept
in paper-id order, extended or trimmed paper by paper with the fitted vocabulary (`merged`).

The text analysis and the vocabulary are `bot.features.recommend.vocabulary`'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from bot.features.recommend import topics as topic_model
from bot.features.recommend.topics import Topics
from bot.features.recommend.vocabulary import (
    AUTHOR_PREFIX,
    BLOCK_WEIGHTS,
    CAP_FROM,
    MAX_ROW_FEATURES,
    VENUE_PREFIX,
    Vocabulary,
    block_tokens,
    chinese_bigrams,
    chinese_text,
    english_options,
    english_text,
    stack,
)
from domain.paper import Paper

if TYPE_CHECKING:  # scikit-learn takes seconds to import: imported where it is used
    from sklearn.feature_extraction.text import TfidfVectorizer

__all__ = ["AUTHOR_PREFIX", "VENUE_PREFIX", "FeatureIndex", "build", "chinese_bigrams",
           "chinese_text", "english_text"]

MAX_DF = 0.1
"""From `MIN_DF_FROM` papers on, an English term in more than this share of them is not a
feature (arxiv-sanity-lite's cut: words every paper uses say nothing of its topic)."""
MIN_DF_FROM = 1000
"""From this many papers on, a term must occur in `MIN_DF` papers to be a feature."""
MIN_DF = 5


def _identity(tokens: list[str]) -> list[str]:
    return tokens


def _vectorizers(size: int) -> tuple[TfidfVectorizer, TfidfVectorizer, TfidfVectorizer]:
    from sklearn.feature_extraction.text import TfidfVectorizer  # noqa: PLC0415 - slow import

    min_df = MIN_DF if size >= MIN_DF_FROM else 1
    english = TfidfVectorizer(**english_options(), min_df=min_df,
                              max_df=MAX_DF if size >= MIN_DF_FROM else 1.0, sublinear_tf=True,
                              dtype=np.float32)
    chinese = TfidfVectorizer(analyzer=chinese_bigrams, min_df=min_df, sublinear_tf=True,
                              dtype=np.float32)
    meta = TfidfVectorizer(analyzer=_identity, sublinear_tf=True, dtype=np.float32)
    return english, chinese, meta


def _fit_block(vectorizer: TfidfVectorizer, docs: Sequence[Any]) -> sp.csr_matrix | None:
    """Fit one block; None for a block with no term at all (no Chinese in the catalog)."""
    try:
        return sp.csr_matrix(vectorizer.fit_transform(docs))
    except ValueError:  # empty vocabulary
        return None


@dataclass(frozen=True)
class FeatureIndex:
    """Every catalog paper's feature row, in paper-id order (so both backends agree)."""

    ids: tuple[str, ...]
    matrix: sp.csr_matrix
    vocabulary: Vocabulary
    position: dict[str, int] = field(default_factory=dict, repr=False)
    topics: Topics | None = field(default=None, repr=False, compare=False)
    """The rows' topic vectors (`bot.features.recommend.topics`); None for a small catalog,
    or until `with_topics`."""

    def __post_init__(self) -> None:
        self.position.update({pid: i for i, pid in enumerate(self.ids)})

    @property
    def terms(self) -> np.ndarray:
        """The name of each feature column."""
        return self.vocabulary.terms

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
        return self.vocabulary.transform(papers)

    def merged(self, ids: Sequence[str], rows: sp.csr_matrix,
               removed: Iterable[str] = ()) -> FeatureIndex:
        """This index with rows for `ids` added or replaced and `removed` left out, in
        paper-id order."""
        drop = set(ids) | set(removed)
        if not drop:
            return self
        keep = [i for i, pid in enumerate(self.ids) if pid not in drop]
        every = [self.ids[i] for i in keep] + list(ids)
        fresh = sp.csr_matrix(rows, shape=(len(ids), self.matrix.shape[1]), dtype=np.float32)
        stacked = sp.csr_matrix(sp.vstack([self.matrix[keep], fresh], format="csr",
                                          dtype=np.float32))
        order = sorted(range(len(every)), key=every.__getitem__)
        topics = None if self.topics is None else self.topics.merged(keep, fresh, order)
        return FeatureIndex(tuple(every[i] for i in order), sp.csr_matrix(stacked[order]),
                            self.vocabulary, topics=topics)

    def with_topics(self) -> FeatureIndex:
        """This index with its topics fitted on its rows (features read back from storage:
        the same rows give the same topics as the fit that stored them)."""
        return FeatureIndex(self.ids, self.matrix, self.vocabulary,
                            topics=topic_model.fit(self.matrix))

    def with_papers(self, papers: Iterable[Paper]) -> FeatureIndex:
        """This index with papers added or replaced, transformed with the fitted vocabulary:
        an add costs its own papers, not a rebuild (`build` again to learn new words)."""
        fresh = sorted({p.id: p for p in papers}.values(), key=lambda p: p.id)
        if not fresh:
            return self
        return self.merged([p.id for p in fresh], self.transform(fresh))

    def without(self, paper_ids: Iterable[str]) -> FeatureIndex:
        """This index without these papers."""
        gone = [pid for pid in paper_ids if pid in self.position]
        return self.merged([], sp.csr_matrix((0, self.matrix.shape[1]), dtype=np.float32),
                           gone) if gone else self


def empty(vocabulary: Vocabulary) -> FeatureIndex:
    """No paper yet, with a vocabulary (rows are added with `merged`)."""
    return FeatureIndex((), sp.csr_matrix((0, len(vocabulary)), dtype=np.float32), vocabulary)


def build(papers: Iterable[Paper]) -> FeatureIndex:
    """Fit the three blocks on the catalog and keep every paper's row, and the rows'
    topics."""
    ordered = sorted({p.id: p for p in papers}.values(), key=lambda p: p.id)
    vectorizers = _vectorizers(len(ordered))
    fitted: list[TfidfVectorizer | None] = []
    blocks = []
    inputs: tuple[Sequence[Any], ...] = block_tokens(ordered)
    for vectorizer, docs, weight in zip(vectorizers, inputs, BLOCK_WEIGHTS, strict=True):
        block = _fit_block(vectorizer, docs) if ordered else None
        fitted.append(vectorizer if block is not None else None)
        blocks.append(block * weight if block is not None
                      else sp.csr_matrix((len(ordered), 0), dtype=np.float32))
    vocabulary = Vocabulary.fitted(fitted, MAX_ROW_FEATURES if len(ordered) >= CAP_FROM else None)
    matrix = stack(blocks, vocabulary.row_cap)
    return FeatureIndex(tuple(p.id for p in ordered), matrix, vocabulary,
                        topics=topic_model.fit(matrix))
