"""The index's centred search: a large catalog is scored against each paper's vector less the
catalog's mean, so the direction every paper shares decides nothing."""

from __future__ import annotations

import numpy as np

from bot.features.meaning.encoder import quantise, unit_rows
from bot.features.meaning.index import CENTRE_FROM, MeaningIndex
from domain.embedding import StoredEmbedding


def _index(rows: np.ndarray) -> MeaningIndex:
    return MeaningIndex.of([StoredEmbedding(f"p{n}", "", code, scale)
                            for n, (code, scale) in enumerate(quantise(rows))])


def test_a_large_catalog_is_searched_centred_and_a_small_one_plainly() -> None:
    rng = np.random.default_rng(41)
    shared = np.zeros(16, dtype=np.float32)
    shared[0] = 3.0  # what every paper has in common
    rows = unit_rows(rng.normal(size=(CENTRE_FROM, 16)).astype(np.float32) + shared)
    index = _index(rows)
    stored = np.stack([v for n in range(len(index)) if (v := index.vector(f"p{n}")) is not None])
    centred = unit_rows(stored - stored.mean(axis=0))
    query = centred[0]
    assert np.allclose(index.centred_scores(query), centred @ query, atol=1e-4)
    assert index.nearest(query, 1)[0][0] == "p0"
    small = _index(rows[:10])
    assert np.array_equal(small.centred_scores(query), small.scores(query))


def test_close_ranks_by_one_vector_and_gates_by_another() -> None:
    rows = np.eye(4, dtype=np.float32)
    index = MeaningIndex.of([StoredEmbedding(f"p{n}", "", code, scale)
                             for n, (code, scale) in enumerate(quantise(rows))])
    rank = np.array([0.1, 0.9, 0.3, 0.0], dtype=np.float32)
    gate = np.array([0.8, 0.0, 0.5, 0.0], dtype=np.float32)
    assert [pid for pid, _ in index.close(rank, gate, 3, bar=0.7, floor=0.4)] == ["p2", "p0"]
    assert index.close(rank, gate, 3, bar=0.85, floor=0.4) == []  # nothing reaches the bar
    same = index.close(rank, rank, 3, bar=0.85, floor=0.2)
    assert [(pid, round(score, 2)) for pid, score in same] == [("p1", 0.9), ("p2", 0.3)]
    assert index.close(rank, gate, 3, bar=0.7, floor=0.4, exclude={"p2"})[0][0] == "p0"
