"""`bench recommend --meaning`: the sentence encoder alone and blended with paperclub's tf-idf
ranking and the catalog's topics, as the product blends them (`model.dense_weight`: 0.5, fading
with more liked papers; `model.topic_weight`), without the topics, and at a fixed weight, on
the cached vectors of the sample (`bench.meaning_vectors`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from bench.meaning_vectors import model_vectors
from bot.features.meaning.encoder import unit_rows
from bot.features.meaning.models import DEFAULT_MODEL
from bot.features.recommend import features, model
from bot.features.recommend.profile import seed_profile
from domain.paper import Paper

WEIGHTS = (0.5,)
Ranker = Callable[[list[str]], list[str]]


def aligned(papers: Sequence[Paper], index: features.FeatureIndex,
            setting: str = DEFAULT_MODEL) -> np.ndarray:
    """The model's cached vectors, centred as `MeaningIndex` centres them, in the feature
    index's row order."""
    have, vectors = model_vectors(papers, setting)
    if len(have) < len(papers):
        raise SystemExit(f"{len(papers) - len(have)} papers have no cached vector of "
                         f"{setting} (see bench.meaning_vectors.PARTS)")
    vectors = unit_rows(vectors - vectors.mean(axis=0))
    row = {p.id: i for i, p in enumerate(papers)}
    return vectors[[row[pid] for pid in index.ids]]


def centroid_similarity(vectors: np.ndarray, rows: list[int]) -> np.ndarray:
    """Every row's cosine with the unit mean of these rows (`aligned` vectors), as the
    product's `MeaningIndex.centroid` and `aligned` make it."""
    centroid = vectors[rows].mean(axis=0)
    return np.asarray(vectors @ (centroid / np.linalg.norm(centroid)), dtype=np.float64)


def meaning_rankers(papers: Sequence[Paper], index: features.FeatureIndex, top: int,
                    setting: str = DEFAULT_MODEL) -> dict[str, Ranker]:
    """The encoder alone and the hybrids, by name."""
    vectors = aligned(papers, index, setting)
    ids = np.array(index.ids, dtype=object)

    def dense(seeds: list[str]) -> np.ndarray:
        return centroid_similarity(vectors, [r for s in seeds if (r := index.row(s)) is not None])

    def alone(seeds: list[str]) -> list[str]:
        score = dense(seeds)
        order = np.lexsort((ids, -score))
        chosen = set(seeds)
        return [str(ids[i]) for i in order if ids[i] not in chosen][:top]

    plain = features.FeatureIndex(index.ids, index.matrix, index.vocabulary)

    def hybrid(weight: float | None, topics: bool = True) -> Ranker:
        """The product's blend; with a `weight`, that weight whatever the liked papers;
        without `topics`, the tf-idf model's score and the encoder's alone."""
        def rank(seeds: list[str]) -> list[str]:
            saved = model.DENSE_BLEND, model.DENSE_FADE
            if weight is not None:
                model.DENSE_BLEND, model.DENSE_FADE = weight, float("inf")
            try:
                picks = model.recommend(index if topics else plain, seed_profile(seeds), top,
                                        dense(seeds))
            finally:
                model.DENSE_BLEND, model.DENSE_FADE = saved
            return [p.paper_id for p in picks]
        return rank

    fading = f"min({model.DENSE_BLEND}, {model.DENSE_FADE:g}/liked)"
    return {"encoder alone": alone,
            "before: tf-idf + encoder at 0.5 (no topics)": hybrid(0.5, topics=False),
            f"tf-idf + encoder at {fading} (no topics)": hybrid(None, topics=False),
            **{f"tf-idf + topics + encoder at {w}": hybrid(w) for w in WEIGHTS},
            f"paperclub now: tf-idf + topics + encoder at {fading}": hybrid(None)}
