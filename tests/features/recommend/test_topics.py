"""The catalog's topic vectors: none for a small catalog, unit rows fitted the same way twice,
a paper added later projected as the fit projects its own rows, and carried through adds and
removals in the index's row order."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from bot.features.recommend import topics
from bot.features.recommend.features import FeatureIndex
from bot.features.recommend.vocabulary import Vocabulary


def _rows(count: int, width: int = 400, seed: int = 0) -> sp.csr_matrix:
    """Sparse rows in a few word groups (a paper draws mostly from its group's columns)."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 4, size=count)
    dense = rng.random((count, width)) * (rng.random((count, width)) < 0.02)
    for g in range(4):
        columns = slice(g * 40, g * 40 + 40)
        dense[group == g, columns] += rng.random(((group == g).sum(), 40)) * (
            rng.random(((group == g).sum(), 40)) < 0.3)
    dense /= np.maximum(np.linalg.norm(dense, axis=1, keepdims=True), 1e-9)
    return sp.csr_matrix(dense.astype(np.float32))


def test_a_small_catalog_has_no_topics() -> None:
    assert topics.fit(_rows(topics.TOPICS_FROM - 1)) is None


def test_topic_vectors_are_unit_rows_and_fitted_the_same_twice() -> None:
    matrix = _rows(topics.TOPICS_FROM + 200)
    first, second = topics.fit(matrix), topics.fit(matrix)
    assert first is not None and second is not None
    assert first.vectors.shape == (matrix.shape[0], topics.DIMENSIONS)
    norms = np.linalg.norm(first.vectors, axis=1)
    assert np.allclose(norms[norms > 0], 1.0, atol=1e-4)
    assert np.array_equal(first.vectors, second.vectors)
    assert np.allclose(first.project(matrix[:50]), first.vectors[:50], atol=1e-5)


def test_a_paper_is_nearer_its_own_group_by_topics() -> None:
    matrix = _rows(topics.TOPICS_FROM + 200, seed=1)
    fitted = topics.fit(matrix)
    assert fitted is not None
    closeness = fitted.similarity([0], np.ones(1))
    assert int(np.argmax(closeness)) == 0
    assert closeness.shape == (matrix.shape[0],)


def test_an_index_carries_its_topics_through_adds_and_removals() -> None:
    matrix = _rows(topics.TOPICS_FROM + 100, seed=2)
    ids = tuple(f"p{i:05d}" for i in range(matrix.shape[0]))
    vocabulary = Vocabulary((), None)
    base = FeatureIndex(ids, matrix, vocabulary).with_topics()
    assert base.topics is not None
    fresh = _rows(3, seed=3)
    grown = base.merged(["p00000x", "a-new", "p99999"], fresh, removed=["p00005"])
    assert grown.topics is not None
    assert grown.topics.vectors.shape == (len(grown), topics.DIMENSIONS)
    for pid in ("p00001", "p00700"):
        mine, theirs = grown.row(pid), base.row(pid)
        assert mine is not None and theirs is not None
        assert np.array_equal(grown.topics.vectors[mine], base.topics.vectors[theirs])
    added = grown.row("a-new")
    assert added is not None
    assert np.allclose(grown.topics.vectors[added], base.topics.project(fresh[1])[0])
    assert grown.row("p00005") is None
