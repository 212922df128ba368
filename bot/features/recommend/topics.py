"""The catalog's topic vectors: a truncated SVD of its tf-idf rows (latent semantic analysis),
fitted on the catalog itself, so two papers that share no word but whose words keep the same
company are near.

Beside the tf-idf model the topics see the field rather than the paper: on `bench recommend
--meaning` (2026-12-07) ten liked papers' topic centroid alone ranked about as well as the
tf-idf model (nDCG@10 0.32 with 128 topics, 0.35 with 256; the tf-idf model 0.32) and the two
together better than either (0.34 with the encoder); from one or three liked papers the topics
did worse (too narrow a sample of a field), hence a weight that grows with the liked papers
(`model.topic_weight`).
Rows are centred on the catalog's mean topic vector and scaled to length 1; a paper added after
the fit is projected with the fitted components (`project`), as its words are with the fitted
vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

DIMENSIONS = 128
"""Topics kept: 51 MB of float32 at 100,000 papers (nDCG@10 at k = 10 with the blend, all
features, against the recipe's: 64 topics 1.16×, 128 1.17×, 256 1.20× at twice the memory
and fitting time)."""
TOPICS_FROM = 1000
"""Catalogs smaller than this have no topics (too few papers to learn what words go
together; the tf-idf model ranks alone)."""
SVD_ITERATIONS = 5
COLUMNS = 20_000
"""The topics are fitted on the features found in the most papers, this many (a word in a
handful of papers says little of a field; all 934,866 features of 100,000 papers would make
the components 480 MB, these make them 10 MB): on the benchmark 20,000 of the sample's 90,271
ranked as well as all of them (nDCG@10 at k = 3 / 10 against the recipe's, 1.16× / 1.16×
against 1.15× / 1.17×), 5,000 worse (1.08× / 1.10×)."""


@dataclass(frozen=True, eq=False)
class Topics:
    """The fitted projection and every paper's unit topic vector, in the index's row order."""

    columns: np.ndarray
    """The feature columns the topics read (`COLUMNS`), ascending."""
    components: np.ndarray
    """(DIMENSIONS, len(columns)) float32: a feature row's topic vector is the product of its
    `columns` with these, less `mean`."""
    mean: np.ndarray
    vectors: np.ndarray
    """(papers, DIMENSIONS) float32, centred, unit rows."""

    def project(self, rows: sp.csr_matrix) -> np.ndarray:
        """Unit topic vectors of feature rows (new papers) with the fitted components."""
        return _unit(_raw(rows[:, self.columns], self.components) - self.mean)

    def merged(self, keep: list[int], rows: sp.csr_matrix, order: list[int]) -> Topics:
        """The vectors of the rows kept, then of the new `rows`, in `order` (as
        `FeatureIndex.merged` orders its rows)."""
        vectors = np.concatenate([self.vectors[keep], self.project(rows)])[order]
        return Topics(self.columns, self.components, self.mean, vectors)

    def similarity(self, rows: list[int], weights: np.ndarray) -> np.ndarray:
        """Every paper's cosine with the weighted mean of these rows' topic vectors (zeros
        when that mean is zero)."""
        centre = weights.astype(np.float32) @ self.vectors[rows]
        norm = float(np.linalg.norm(centre))
        if norm == 0:
            return np.zeros(len(self.vectors))
        return np.asarray(self.vectors @ (centre / norm), dtype=np.float64)


def _raw(rows: sp.csr_matrix, components: np.ndarray) -> np.ndarray:
    return np.asarray(rows @ components.T, dtype=np.float32)


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit: np.ndarray = np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
    return unit


def fit(matrix: sp.csr_matrix) -> Topics | None:
    """The topics of a catalog's feature rows (None below `TOPICS_FROM` papers, or with
    too few features for `DIMENSIONS`). Deterministic: the same rows give the same topics."""
    if matrix.shape[0] < TOPICS_FROM or min(matrix.shape) <= DIMENSIONS:
        return None
    from sklearn.decomposition import TruncatedSVD  # noqa: PLC0415 - slow import, only to fit

    papers = np.bincount(matrix.indices, minlength=matrix.shape[1])
    columns = np.sort(np.argsort(-papers, kind="stable")[:COLUMNS])
    read = sp.csr_matrix(matrix[:, columns])
    svd = TruncatedSVD(DIMENSIONS, algorithm="randomized", n_iter=SVD_ITERATIONS,
                       random_state=0)
    components = np.asarray(svd.fit(read).components_, dtype=np.float32)
    raw = _raw(read, components)  # as `project` makes them
    mean = raw.mean(axis=0)
    return Topics(columns, components, mean, _unit(raw - mean))
