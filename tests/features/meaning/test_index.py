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
